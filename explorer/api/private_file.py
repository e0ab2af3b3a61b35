"""What the history and the journal share: a private SQLite file, opened at its first use.

Opening it (private_store.py, which imports sqlite3) waits for the first exchange or write, in
the thread that adds it: nothing of it at launch.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import sqlite3


class PrivateFile:
    """A private SQLite file of these tables, opened at first use; a damaged one set aside.

    Args:
        path: The file (made private, in a private folder, when new). A file that is no database
            (or a damaged one) is moved aside as `NAME.damaged-TIME` and a new one begun:
            `set_aside` names it.
        schema: The statements that make its tables.
        durable: Whether each transaction is on the disk before it ends.
    """

    def __init__(self, path: Path, schema: str, *, durable: bool) -> None:
        self.path = path
        self.schema = schema
        self.durable = durable
        self.lock = threading.Lock()  # additions come from threads of their own
        self.opened: sqlite3.Connection | None = None
        self.set_aside: Path | None = None  # where a damaged file was moved, when one was

    @property
    def connection(self) -> sqlite3.Connection:
        """The file's connection, opened at first use.

        Raises:
            OSError: When the folder or the file cannot be made.
            sqlite3.Error: When the file cannot be begun.
        """
        if self.opened is None:
            from explorer.api.private_store import open_store

            self.opened, self.set_aside = open_store(self.path, self.schema, durable=self.durable)
        return self.opened

    def news_of_set_aside(self) -> str | None:
        """What to say, once, of a damaged file moved aside when this one was begun; None if none was.

        Returns:
            The sentence (`… could not be read: it was moved to NAME and a new one begun`), or None.
        """
        aside, self.set_aside = self.set_aside, None
        if aside is None:
            return None
        return f"The file {self.path} could not be read: it was moved to {aside.name} and a new one begun"

    def close(self) -> None:
        """Close the file, if it was opened; what was added is in it already."""
        if self.opened is not None:
            self.opened.close()
            self.opened = None
