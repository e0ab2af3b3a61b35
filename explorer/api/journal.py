"""A journal of every write attempted, never rewritten: who changed what, from here, and can it be put back.

A session given a `Journal` notes each write in it as `Session.send_write` handles it, in two
steps, each a row added and never changed: the attempt, before anything goes (the time, the
profile, the origin, the method and URL, the body as sent and the entity before, as the preview
fetched it, both redacted as a HAR file's are), and then its outcome once it is known:

- `sent`: an answer came, a 2xx;
- `failed`: an answer came, a 4xx or 5xx (its status and errorCode noted), or a 307 or 308 (the
  service did not take it there); or nothing went (no connection to send it on);
- `refused`: the session refused it before anything went (read-only, another origin);
- `may-have-reached`: it went and no answer came, or a 301, 302 or 303 came (whether the service
  took it, only reading the resource tells); an attempt with no outcome at all (the program was
  killed while it was on its way) reads as this too.

An undo is a write like any other, noting the entry it undoes; an entry is undone when a later
write that undoes it was sent, or may have reached the service (it went with no answer yet, or
none came): two undos of one write never both go. The file is SQLite (private_store.py), each row synced to the disk
before the write goes: a crash never loses the note of a write that may have reached the service.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from explorer.api.history import as_os_errors, local_time
from explorer.api.known_secrets import KnownSecrets
from explorer.api.private_file import PrivateFile
from explorer.api.redaction import Redaction
from explorer.api.url_redaction import learn_request
from explorer.api.urls import origin_text
from explorer.api.values import MAX_DEPTH, json_within

if TYPE_CHECKING:  # sqlite3 is imported with the file, at the first write: not at launch
    import sqlite3

    import httpx

Outcome = Literal["sent", "failed", "refused", "may-have-reached"]
NO_OUTCOME: Outcome = "may-have-reached"  # an attempt whose outcome was never noted: it may have gone


def outcome_of(status: int) -> Outcome:
    """Say what became of a write from its answer's status (see the module's list).

    Args:
        status: The answer's status.

    Returns:
        `sent` for a 2xx; `failed` for a 4xx, a 5xx, a 307 or a 308; `may-have-reached` for any other
        3xx, whose service may or may not have taken it.
    """
    if status >= 400 or status in (307, 308):
        return "failed"
    return "may-have-reached" if status >= 300 else "sent"


SCHEMA = """
CREATE TABLE IF NOT EXISTS attempts (
    number INTEGER PRIMARY KEY AUTOINCREMENT,
    at REAL NOT NULL,               -- the wall clock as it was about to go
    profile TEXT NOT NULL,          -- the config file's profile, or '' for none
    origin TEXT NOT NULL,
    method TEXT NOT NULL,
    url TEXT NOT NULL,
    body TEXT NOT NULL,             -- as sent, redacted ('' for none)
    before TEXT,                    -- the entity as the preview fetched it, redacted; NULL: not fetched
    undoes INTEGER                  -- the attempt this one undoes, if it is an undo
);
CREATE TABLE IF NOT EXISTS outcomes (
    attempt INTEGER PRIMARY KEY,    -- one outcome an attempt, added once
    at REAL NOT NULL,
    outcome TEXT NOT NULL,
    status INTEGER,                 -- the answer's, if one came
    error_code TEXT NOT NULL,
    after TEXT,                     -- the answer's body, redacted, if one came
    why TEXT NOT NULL               -- a refusal's or a failure's line, or ''
);
"""


@dataclass(frozen=True)
class JournalEntry:
    """One write, as the journal has it: the attempt, its outcome, and whether it was undone.

    Attributes:
        number: Its number in the journal (they only grow).
        at: The wall clock when it was about to go.
        profile: The profile the session was on ('' for none).
        origin: The service's origin.
        method: The write's method.
        url: Where it went.
        body: The body as sent, redacted ('' for none).
        before: The entity as the preview fetched it just before, redacted; None when it was not.
        undoes: The number of the write this one undoes, or None.
        outcome: `sent`, `failed`, `refused` or `may-have-reached`.
        status: The answer's status, if one came.
        error_code: The answer's errorCode, or ''.
        after: The answer's body, redacted, if one came.
        why: A refusal's or failure's line, or ''.
        undone_by: The number of the write that undid it (sent, or that may have reached the
            service), or None.
    """

    number: int
    at: float
    profile: str
    origin: str
    method: str
    url: str
    body: str
    before: str | None
    undoes: int | None
    outcome: Outcome
    status: int | None
    error_code: str
    after: str | None
    why: str
    undone_by: int | None

    def document(self, part: Literal["body", "before", "after"], max_depth: int = MAX_DEPTH) -> Any:
        """Read one of its bodies as JSON.

        Args:
            part: Which: the body sent, the entity before, the answer's body.
            max_depth: The deepest nesting read.

        Returns:
            The document; None when there is none (not kept, not JSON, nested past `max_depth`).
        """
        text = getattr(self, part)
        if not text:
            return None
        try:
            return json_within(text, max_depth)
        except ValueError:  # TooDeep is one
            return None

    @property
    def when(self) -> str:
        """When it was about to go, as local time (`2026-11-27 14:03:12`)."""
        return local_time(self.at)


class Journal(PrivateFile):
    """A journal file: each write noted before it goes and once its outcome is known; read back.

    Args:
        path: The SQLite file (made private, in a private folder, when new), opened when first used.
            A file that is no database (or a damaged one) is moved aside as `NAME.damaged-TIME` and
            a new one begun: `set_aside` names it.
        profile: What each write is filed under ('' or None: no profile), beside its origin.

    Raises:
        OSError: When the folder or file cannot be made or opened.
    """

    def __init__(self, path: Path, *, profile: str | None = None) -> None:
        super().__init__(path, SCHEMA, durable=True)
        self.profile = profile or ""

    def attempt(
        self,
        request: httpx.Request,
        at: float,
        *,
        before: bytes | None = None,
        undoes: int | None = None,
        known: KnownSecrets | None = None,
    ) -> int:
        """Note a write about to go, synced to the disk before it returns.

        Args:
            request: The write as it will go (its method, URL and body).
            at: The wall clock now.
            before: The entity the preview fetched just before, as received; None when it was not.
            undoes: The number of the write it undoes, if it is an undo.
            known: The session's credentials, masked wherever they appear.

        Returns:
            Its number, for `outcome`.

        Raises:
            OSError: When it cannot be noted (then the write must not go).
        """
        redaction = Redaction(known=known if known is not None else KnownSecrets())
        learn_request(redaction.known, request)  # before the bodies: a `before` may say them back
        body, kept_before = redaction.bodies((request.content, "body"), (before or b"", "before"))
        url, _ = redaction.url(request.url, "url")
        row = (
            at,
            self.profile,
            origin_text(request.url),
            request.method,
            url,
            text_of(body),
            text_of(kept_before) if before is not None else None,
            undoes,
        )
        with as_os_errors(self.path), self.lock, self.connection as connection:
            cursor = connection.execute(
                "INSERT INTO attempts (at, profile, origin, method, url, body, before, undoes)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                row,
            )
            return int(cursor.lastrowid or 0)

    def outcome(
        self,
        number: int,
        outcome: Outcome,
        at: float,
        *,
        status: int | None = None,
        error_code: str = "",
        after: bytes | None = None,
        why: str = "",
        known: KnownSecrets | None = None,
    ) -> None:
        """Note what became of a write: once; a second outcome for the same write is not noted.

        Args:
            number: The write's number, as `attempt` gave it.
            outcome: `sent`, `failed`, `refused` or `may-have-reached`.
            at: The wall clock now.
            status: The answer's status, if one came.
            error_code: The answer's errorCode, if it had one.
            after: The answer's body, as received, if one came.
            why: A refusal's or failure's line (its URL, an error's detail: masked too).
            known: The session's credentials, masked wherever they appear.

        Raises:
            OSError: When it cannot be noted.
        """
        redaction = Redaction(known=known if known is not None else KnownSecrets())
        kept_after = None
        if after is not None:
            (redacted,) = redaction.bodies((after, "after"))
            kept_after = text_of(redacted)
        why, error_code = redaction.known.mask(why), redaction.known.mask(error_code)
        with as_os_errors(self.path), self.lock, self.connection as connection:
            connection.execute(
                "INSERT OR IGNORE INTO outcomes (attempt, at, outcome, status, error_code, after, why)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (number, at, outcome, status, error_code, kept_after, why),
            )

    def entries(self, *, profile: str | None = None, limit: int = 500) -> list[JournalEntry]:
        """The writes noted, newest first.

        Args:
            profile: Only this profile's ('' for those on no profile); None: every profile's.
            limit: At most this many.

        Returns:
            The entries, newest first.

        Raises:
            OSError: When the file cannot be read.
        """
        where, values = ("WHERE a.profile = ?", [profile]) if profile is not None else ("", [])
        with as_os_errors(self.path), self.lock:
            rows = self.connection.execute(f"{SELECT} {where} ORDER BY a.number DESC LIMIT ?", (*values, limit))
            return [entry_from(row) for row in rows]

    def get(self, number: int) -> JournalEntry | None:
        """Read one write back.

        Args:
            number: The write's number.

        Returns:
            The entry, or None when there is none of that number.

        Raises:
            OSError: When the file cannot be read.
        """
        with as_os_errors(self.path), self.lock:
            row = self.connection.execute(f"{SELECT} WHERE a.number = ?", (number,)).fetchone()
        return entry_from(row) if row is not None else None


SELECT = """
SELECT a.*, o.outcome, o.status, o.error_code, o.after, o.why,
    (SELECT u.number FROM attempts u LEFT JOIN outcomes uo ON uo.attempt = u.number
     WHERE u.undoes = a.number AND (uo.outcome IS NULL OR uo.outcome IN ('sent', 'may-have-reached'))
     ORDER BY u.number LIMIT 1) AS undone_by
FROM attempts a LEFT JOIN outcomes o ON o.attempt = a.number
"""


def text_of(body: bytes) -> str:
    """A redacted body as the journal keeps it: its text (UTF-8; any other byte as U+FFFD)."""
    return body.decode("utf-8", "replace")


def entry_from(row: sqlite3.Row) -> JournalEntry:
    """An entry from its row (the attempt, its outcome, who undid it)."""
    return JournalEntry(
        number=row["number"],
        at=row["at"],
        profile=row["profile"],
        origin=row["origin"],
        method=row["method"],
        url=row["url"],
        body=row["body"],
        before=row["before"],
        undoes=row["undoes"],
        outcome=row["outcome"] or NO_OUTCOME,
        status=row["status"],
        error_code=row["error_code"] or "",
        after=row["after"],
        why=row["why"] or "",
        undone_by=row["undone_by"],
    )


def dumps(document: Any) -> bytes:
    """A document as the bytes `Journal.attempt` takes for `before` (a preview read it as JSON)."""
    return json.dumps(document).encode("utf-8")
