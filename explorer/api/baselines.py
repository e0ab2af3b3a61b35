"""Baselines: a resource as it was, saved under a name, to compare with later or elsewhere.

"What is different from how it was last week, or from staging?" A baseline is a document saved
under a name, per profile (`before-upgrade` under `production`), with where it came from and when.
Any resource can be compared with it later, under that profile or another: `@NAME` is this
profile's, `@PROFILE:NAME` another's (staging's saved baseline against production now). The
document is kept redacted, as a HAR file's bodies are; saving a name again replaces it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from explorer.api.config_file import BASELINES_FILE, state_file
from explorer.api.history import as_os_errors, local_time
from explorer.api.known_secrets import KnownSecrets
from explorer.api.private_file import PrivateFile
from explorer.api.redaction import Redaction
from explorer.api.url_redaction import kept_url
from explorer.api.values import MAX_DEPTH, json_within

if TYPE_CHECKING:
    import sqlite3

NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")  # a baseline's name: what a shell takes unquoted

SCHEMA = """
CREATE TABLE IF NOT EXISTS baselines (
    profile TEXT NOT NULL,          -- the profile it was saved under, or '' for none
    name TEXT NOT NULL,
    url TEXT NOT NULL,              -- where it was fetched from
    saved REAL NOT NULL,            -- the wall clock when it was saved
    document TEXT NOT NULL,         -- its JSON, redacted
    PRIMARY KEY (profile, name)
);
"""


@dataclass(frozen=True)
class Baseline:
    """A saved baseline.

    Attributes:
        profile: The profile it was saved under ('' for none).
        name: Its name.
        url: Where it was fetched from.
        saved: The wall clock when it was saved.
        text: Its JSON, redacted.
    """

    profile: str
    name: str
    url: str
    saved: float
    text: str

    def document(self, max_depth: int = MAX_DEPTH) -> Any:
        """Read it as JSON.

        Args:
            max_depth: The deepest nesting read.

        Returns:
            The document.

        Raises:
            ValueError: When it does not read as JSON within `max_depth` (a file changed by hand).
        """
        return json_within(self.text, max_depth)

    @property
    def when(self) -> str:
        """When it was saved, as local time (`2026-11-27 14:03:12`)."""
        return local_time(self.saved)

    @property
    def label(self) -> str:
        """What a comparison calls it: `baseline production:before-upgrade, saved 2026-11-27 14:03:12`."""
        owner = f"{self.profile}:" if self.profile else ""
        return f"baseline {owner}{self.name}, saved {self.when}"


def check_name(name: str) -> str:
    """Check a baseline's name.

    Args:
        name: The name typed.

    Returns:
        The name.

    Raises:
        ValueError: When it is not 1 to 64 letters, digits, `.`, `_` or `-`, beginning with a letter or digit.
    """
    rule = "1 to 64 letters, digits, '.', '_' or '-', first a letter or digit"
    if not name:
        raise ValueError(f"A baseline needs a name: {rule}")
    if not NAME.fullmatch(name):
        raise ValueError(f"{name!r} is not a baseline's name: {rule}")
    return name


def split_reference(reference: str, profile: str | None) -> tuple[str, str]:
    """The profile and name `NAME` or `PROFILE:NAME` refer to (NAME alone: `profile`'s).

    Args:
        reference: `NAME` or `PROFILE:NAME`.
        profile: The profile a name alone belongs to ('' or None: none).

    Returns:
        (profile, name), the name checked.

    Raises:
        ValueError: When the name is not one (`check_name`).
    """
    owner, colon, name = reference.rpartition(":")
    return (owner if colon else profile or ""), check_name(name)


class Baselines(PrivateFile):
    """The baselines file: saved, listed, read back, deleted.

    Args:
        path: The SQLite file (made private, in a private folder, when new), opened when first used.
    """

    def __init__(self, path: Path) -> None:
        super().__init__(path, SCHEMA, durable=True)

    def save(
        self, profile: str | None, name: str, url: str, document: Any, saved: float, known: KnownSecrets | None = None
    ) -> Baseline:
        """Save a document under a name, redacted; one of that name under that profile is replaced.

        Args:
            profile: The profile it is saved under ('' or None: none).
            name: Its name (`check_name`).
            url: Where it was fetched from (kept redacted, as a HAR file keeps a URL).
            document: The document, as read.
            saved: The wall clock now.
            known: The session's credentials, masked wherever they appear.

        Returns:
            The baseline as saved.

        Raises:
            ValueError: When the name is not one.
            OSError: When the file cannot be written.
        """
        check_name(name)
        redaction = Redaction(known=known if known is not None else KnownSecrets())
        url = kept_url(
            url, redaction.known
        )  # first: what its query sent under a secret's name is masked in the body too
        (body,) = redaction.bodies((json.dumps(document).encode("utf-8"), "baseline"))
        baseline = Baseline(profile or "", name, url, saved, body.decode("utf-8", "replace"))
        with as_os_errors(self.path), self.lock, self.connection as connection:
            connection.execute(
                "INSERT OR REPLACE INTO baselines (profile, name, url, saved, document) VALUES (?, ?, ?, ?, ?)",
                (baseline.profile, name, url, saved, baseline.text),
            )
        return baseline

    def get(self, profile: str | None, name: str) -> Baseline | None:
        """Read one baseline back.

        Args:
            profile: The profile it was saved under ('' or None: none).
            name: Its name.

        Returns:
            The baseline, or None when there is none of that name there.

        Raises:
            OSError: When the file cannot be read.
        """
        with as_os_errors(self.path), self.lock:
            row = self.connection.execute(
                "SELECT * FROM baselines WHERE profile = ? AND name = ?", (profile or "", name)
            ).fetchone()
        return baseline_from(row) if row is not None else None

    def list(self, profile: str | None = None) -> list[Baseline]:
        """The baselines saved, by profile and name.

        Args:
            profile: Only this profile's ('' for those under none); None: every profile's.

        Returns:
            The baselines.

        Raises:
            OSError: When the file cannot be read.
        """
        where, values = ("WHERE profile = ?", (profile,)) if profile is not None else ("", ())
        with as_os_errors(self.path), self.lock:
            rows = self.connection.execute(f"SELECT * FROM baselines {where} ORDER BY profile, name", values)
            return [baseline_from(row) for row in rows]

    def delete(self, profile: str | None, name: str) -> bool:
        """Delete one baseline.

        Args:
            profile: The profile it was saved under ('' or None: none).
            name: Its name.

        Returns:
            Whether there was one to delete.

        Raises:
            OSError: When the file cannot be written.
        """
        with as_os_errors(self.path), self.lock, self.connection as connection:
            deleted = connection.execute("DELETE FROM baselines WHERE profile = ? AND name = ?", (profile or "", name))
            return deleted.rowcount > 0


def name_problem(name: str) -> str | None:
    """What is wrong with a baseline's name, as a form says it; None when it is one."""
    try:
        check_name(name)
    except ValueError as error:
        return str(error)
    return None


def read_baseline(reference: str, profile: str | None) -> Baseline | None:
    """The baseline `NAME` (the profile's) or `PROFILE:NAME` refers to, from the user's baselines file.

    Args:
        reference: `NAME` or `PROFILE:NAME`.
        profile: The profile a name alone belongs to.

    Returns:
        The baseline; None when there is none of that name there.

    Raises:
        ValueError: When the name is not one.
        OSError: When the file cannot be read.
    """
    owner, name = split_reference(reference, profile)
    baselines = Baselines(state_file(BASELINES_FILE))
    try:
        return baselines.get(owner, name)
    finally:
        baselines.close()


def save_baseline(
    profile: str | None, name: str, url: str, document: Any, saved: float, known: KnownSecrets | None = None
) -> Baseline:
    """Save a document as a baseline in the user's baselines file (`Baselines.save`).

    Args:
        profile: The profile it is saved under.
        name: Its name.
        url: Where it was fetched from.
        document: The document.
        saved: The wall clock now.
        known: The session's credentials, masked wherever they appear.

    Returns:
        The baseline as saved.

    Raises:
        ValueError: When the name is not one.
        OSError: When the file cannot be written.
    """
    baselines = Baselines(state_file(BASELINES_FILE))
    try:
        return baselines.save(profile, name, url, document, saved, known)
    finally:
        baselines.close()


def baseline_from(row: sqlite3.Row) -> Baseline:
    """A baseline from its row."""
    return Baseline(row["profile"], row["name"], row["url"], row["saved"], row["document"])
