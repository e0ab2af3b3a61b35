"""Every exchange kept across sessions: a history to search, redacted as HAR is, bounded.

A session given a `History` adds each exchange to it as it adds it to a HAR recording: the entry is
the HAR entry (har.entry_of, the same redaction), with what a search looks at beside it (when, the
profile and origin, method, URL, status, errorCode). Searching takes words, each of which must
match one of those (`404 clusters`, `POST 2026-11-27`, `RESOURCE_NOT_FOUND`).

The file is SQLite (private_store.py): a row is added in one transaction, so an interrupted write
loses at most that row, and two explorers adding at once take turns. The history is bounded by
entries and by bytes of entries: past either, the oldest go.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx

from explorer.api.errors import ConfigError, from_response
from explorer.api.har import entry_of
from explorer.api.known_secrets import KnownSecrets
from explorer.api.private_file import PrivateFile
from explorer.api.urls import origin_text
from explorer.api.values import MAX_DEPTH, json_within

if TYPE_CHECKING:  # sqlite3 is imported with the file, at the first exchange: not at launch
    import sqlite3

MAX_ENTRIES = 10_000  # exchanges kept, all profiles together; the oldest go first
MAX_BYTES = 100 * 1024 * 1024  # bytes of entries kept (their bodies, mostly)
SEARCH_LIMIT = 500  # entries a search gives at most, newest first
HISTORY_HINT = (
    f"[history] takes keep (true or false), max_entries ({MAX_ENTRIES:,} when left out) and max_megabytes"
    f" ({MAX_BYTES // 2**20} when left out)."
)

SCHEMA = """
CREATE TABLE IF NOT EXISTS exchanges (
    number INTEGER PRIMARY KEY AUTOINCREMENT,
    started REAL NOT NULL,          -- the wall clock when it was sent (seconds since the epoch)
    started_text TEXT NOT NULL,     -- the same as local time (2026-11-27 14:03:12), for a search by date
    profile TEXT NOT NULL,          -- the config file's profile, or '' for none
    origin TEXT NOT NULL,
    method TEXT NOT NULL,
    url TEXT NOT NULL,              -- as sent, its secrets taken out
    status INTEGER NOT NULL,
    error_code TEXT NOT NULL,       -- the error document's errorCode (or error), or ''
    elapsed REAL NOT NULL,
    size INTEGER NOT NULL,          -- the answer's body, in bytes
    bytes INTEGER NOT NULL,         -- the entry's, as the bound counts them (read without the entry)
    entry TEXT NOT NULL             -- the HAR entry, redacted
);
CREATE INDEX IF NOT EXISTS exchanges_started ON exchanges (started);
"""


@dataclass(frozen=True)
class HistorySettings:
    """What the config file's `[history]` table says: whether to keep a history, and how much.

    Attributes:
        keep: Whether sessions add their exchanges to the history.
        max_entries: Entries kept at most.
        max_bytes: Bytes of entries kept at most.
    """

    keep: bool = True
    max_entries: int = MAX_ENTRIES
    max_bytes: int = MAX_BYTES


def history_settings(config: dict[str, Any], where: str) -> HistorySettings:
    """Read the config file's `[history]` table (`keep`, `max_entries`, `max_megabytes`), checked.

    Args:
        config: The config file, as read.
        where: The file's path, for the error.

    Returns:
        The settings; the defaults for what the table leaves out (or no table).

    Raises:
        ConfigError: When the table or one of its values is not what it must be.
    """
    table = config.get("history", {})
    if not isinstance(table, dict):
        raise ConfigError(f"In {where}, history must be a table ([history])", HISTORY_HINT)
    keep = table.get("keep", True)
    if not isinstance(keep, bool):
        raise ConfigError(f"In {where}, history.keep must be true or false", HISTORY_HINT)
    entries = table.get("max_entries", MAX_ENTRIES)
    megabytes = table.get("max_megabytes", MAX_BYTES // 2**20)
    for name, value in (("max_entries", entries), ("max_megabytes", megabytes)):
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 1_000_000:
            raise ConfigError(f"In {where}, history.{name} must be a whole number from 1 to 1,000,000", HISTORY_HINT)
    return HistorySettings(keep, entries, megabytes * 2**20)


@dataclass(frozen=True)
class HistoryEntry:
    """One exchange kept: what a list of them shows, and the HAR entry it was kept as.

    Attributes:
        number: Its number in the history (they only grow).
        started: The wall clock when the request was sent.
        profile: The profile the session was on ('' for none).
        origin: The service's origin (`https://cloud.example.com`).
        method: The request's method.
        url: The URL as sent, its secrets taken out.
        status: The answer's status.
        error_code: The error document's errorCode, or ''.
        elapsed: Seconds it took.
        size: The answer's body, in bytes.
        entry: The HAR entry (request, response, `_redacted`), redacted as a HAR file's are.
    """

    number: int
    started: float
    profile: str
    origin: str
    method: str
    url: str
    status: int
    error_code: str
    elapsed: float
    size: int
    entry: dict[str, Any]

    @property
    def path(self) -> str:
        """The URL's path and query, as the service was asked it."""
        url = httpx.URL(self.url)
        return url.raw_path.decode("ascii", "replace")

    def document(self, max_depth: int = MAX_DEPTH) -> Any:
        """Read the answer's body as kept, as JSON.

        Args:
            max_depth: The deepest nesting read.

        Returns:
            The document; None when there is none (no body, not JSON, nested past `max_depth`).
        """
        response = self.entry.get("response")
        content = response.get("content") if isinstance(response, dict) else None
        body = content.get("text") if isinstance(content, dict) and "encoding" not in content else None
        if not isinstance(body, str) or not body.strip():
            return None
        try:
            return json_within(body, max_depth)
        except ValueError:  # TooDeep is one
            return None


class History(PrivateFile):
    """A history file: exchanges added as they happen, searched and read back.

    Args:
        path: The SQLite file (made private, in a private folder, when new), opened when first
            used. A file that is no database (or a damaged one) is moved aside as
            `NAME.damaged-TIME` and a new one begun: `set_aside` names it.
        profile: What `record` files each exchange under ('' or None: no profile); each is filed
            under its URL's origin too.
        max_entries: Entries kept at most; the oldest go first.
        max_bytes: Bytes of entries kept at most; the oldest go first.
        after: Seconds a session waits after an answer before adding it: a screen's time to show
            it first (0: at once, as a command that shows nothing meanwhile wants).

    Raises:
        OSError: When the folder or file cannot be made or opened.
    """

    def __init__(
        self,
        path: Path,
        *,
        profile: str | None = None,
        max_entries: int = MAX_ENTRIES,
        max_bytes: int = MAX_BYTES,
        after: float = 0.0,
    ) -> None:
        super().__init__(path, SCHEMA, durable=False)
        self.profile = profile or ""
        self.max_entries = max_entries
        self.max_bytes = max_bytes
        self.after = after

    def record(
        self, response: httpx.Response, started: float, elapsed: float, known: KnownSecrets | None = None
    ) -> None:
        """Add one exchange, redacted, and drop the oldest beyond the bounds.

        Args:
            response: The answer, its request with it.
            started: The wall clock when the request was sent.
            elapsed: Seconds it took.
            known: The session's credentials, masked wherever they appear (as a HAR file's are).

        Raises:
            OSError: When the file cannot be made or written (a full disk, a file damaged since it
                was opened, another explorer holding it past `BUSY_SECONDS`).
        """
        self.add(self.row_of(response, started, elapsed, known))

    def row_of(
        self, response: httpx.Response, started: float, elapsed: float, known: KnownSecrets | None = None
    ) -> tuple[Any, ...]:
        """Make an exchange's entry, redacted, as `add` takes it: the Python half of `record`.

        Args:
            response: The answer, its request with it.
            started: The wall clock when the request was sent.
            elapsed: Seconds it took.
            known: The session's credentials, masked wherever they appear.

        Returns:
            The row to add.
        """
        entry = entry_of(response, started, elapsed, True, known)
        text = json.dumps(entry)
        return (
            started,
            local_time(started),
            self.profile,
            origin_text(response.request.url),
            response.request.method,
            entry["request"]["url"],
            response.status_code,
            error_code(response, started),
            elapsed,
            len(response.content),
            len(text.encode("utf-8")),
            text,
        )

    def add(self, row: tuple[Any, ...]) -> None:
        """Add a row `row_of` made, and drop the oldest beyond the bounds: the file's half of `record`.

        Args:
            row: The row.

        Raises:
            OSError: When the file cannot be made or written.
        """
        with as_os_errors(self.path), self.lock, self.connection as connection:
            connection.execute(
                "INSERT INTO exchanges (started, started_text, profile, origin, method, url, status, error_code,"
                " elapsed, size, bytes, entry) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                row,
            )
            self.drop_oldest()

    def drop_oldest(self) -> None:
        """Drop the oldest entries past `max_entries`, then past `max_bytes` (in the caller's transaction)."""
        execute = self.connection.execute
        execute(
            "DELETE FROM exchanges WHERE number <="
            " (SELECT number FROM exchanges ORDER BY number DESC LIMIT 1 OFFSET ?)",
            (self.max_entries,),
        )
        (total,) = execute("SELECT coalesce(sum(bytes), 0) FROM exchanges").fetchone()
        if total <= self.max_bytes:
            return
        kept = 0
        for number, size in execute("SELECT number, bytes FROM exchanges ORDER BY number DESC"):
            kept += size
            if kept > self.max_bytes:
                execute("DELETE FROM exchanges WHERE number <= ?", (number,))
                break

    def search(
        self,
        words: str = "",
        *,
        profile: str | None = None,
        origin: str | None = None,
        since: float | None = None,
        limit: int = SEARCH_LIMIT,
    ) -> list[HistoryEntry]:
        """The entries that match, newest first.

        Args:
            words: Each must match the entry's method, status, errorCode, URL or time (local,
                `2026-11-27 14:03`: a word is `2026-11-27` or `14:03`); case does not matter.
                `4xx` matches any 400 status.
            profile: Only this profile's ('' for those on no profile); None: every profile's.
            origin: Only this origin's; None: every origin's.
            since: Only those sent at or after this wall clock time.
            limit: At most this many.

        Returns:
            The entries, newest first.

        Raises:
            OSError: When the file cannot be read.
        """
        where, values = matching(words.split())
        for column, value in (("profile", profile), ("origin", origin)):
            if value is not None:
                where.append(f"{column} = ?")
                values.append(value)
        if since is not None:
            where.append("started >= ?")
            values.append(since)
        clause = f"WHERE {' AND '.join(where)}" if where else ""
        with as_os_errors(self.path):
            rows = self.connection.execute(
                f"SELECT * FROM exchanges {clause} ORDER BY number DESC LIMIT ?",  # words are values, not SQL
                (*values, limit),
            )
            return [entry_from(row) for row in rows]

    def get(self, number: int) -> HistoryEntry | None:
        """Read one entry back.

        Args:
            number: The entry's number (`HistoryEntry.number`).

        Returns:
            The entry, or None when it is not kept (never, or dropped since).

        Raises:
            OSError: When the file cannot be read.
        """
        with as_os_errors(self.path):
            row = self.connection.execute("SELECT * FROM exchanges WHERE number = ?", (number,)).fetchone()
        return entry_from(row) if row is not None else None

    def clear(self) -> int:
        """Drop every entry.

        Returns:
            How many there were.

        Raises:
            OSError: When the file cannot be written.
        """
        with as_os_errors(self.path), self.lock, self.connection as connection:
            return connection.execute("DELETE FROM exchanges").rowcount


@contextmanager
def as_os_errors(path: Path) -> Iterator[None]:
    """SQLite's errors as OSError, naming the file: what a caller says of a file it cannot use."""
    import sqlite3

    try:
        yield
    except sqlite3.Error as error:
        raise OSError(f"{path}: {error}") from None


def matching(words: Sequence[str]) -> tuple[list[str], list[Any]]:
    """SQL conditions (and their values) for a search's words: each matches one column or another."""
    where: list[str] = []
    values: list[Any] = []
    for word in words:
        like = f"%{escaped(word)}%"
        if len(word) == 3 and word[0].isdigit() and word[1:].lower() == "xx":
            where.append("status / 100 = ?")
            values.append(int(word[0]))
            continue
        where.append(
            "(method = ? COLLATE NOCASE OR CAST(status AS TEXT) = ? OR error_code LIKE ? ESCAPE '\\'"
            " OR url LIKE ? ESCAPE '\\' OR started_text LIKE ? ESCAPE '\\')"
        )
        values.extend([word, word, like, like, like])
    return where, values


def escaped(word: str) -> str:
    """A word as a LIKE pattern's literal part: its % and _ match only themselves."""
    return word.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def local_time(moment: float) -> str:
    """A wall clock time as the machine's local time, to the second (`2026-11-27 14:03:12`)."""
    return datetime.fromtimestamp(moment).strftime("%Y-%m-%d %H:%M:%S")


def error_code(response: httpx.Response, now: float) -> str:
    """A failed answer's errorCode (or OAuth error), as its error document says it; '' for none."""
    if response.status_code < 400:
        return ""
    request = response.request
    error = from_response(
        request.method, str(request.url), response.status_code, response.headers, response.content, now
    )
    return error.error_code or error.oauth_error or ""


def entry_from(row: sqlite3.Row) -> HistoryEntry:
    """An entry from its row; an entry whose JSON does not read is kept as an empty one."""
    try:
        entry = json.loads(row["entry"])
    except (ValueError, RecursionError):
        entry = {}
    return HistoryEntry(
        number=row["number"],
        started=row["started"],
        profile=row["profile"],
        origin=row["origin"],
        method=row["method"],
        url=row["url"],
        status=row["status"],
        error_code=row["error_code"],
        elapsed=row["elapsed"],
        size=row["size"],
        entry=entry if isinstance(entry, dict) else {},
    )
