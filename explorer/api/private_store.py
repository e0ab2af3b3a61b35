"""A private SQLite file that a damaged one never stops: the history's and the journal's.

SQLite is what keeps them (rather than JSON lines and a lock of our own): each addition is one
transaction, so an interrupted write loses at most what it was adding, never the file; two
explorers writing at once take turns on the file's own lock (waiting up to `BUSY_SECONDS`); a
search is a query on an index, not a read of the whole file. The file is its owner's alone (0600,
and SQLite gives its `-wal` and `-shm` files the same mode), in a folder made 0700 when made.

A file SQLite cannot read as a database is moved aside (with its `-wal` and `-shm`), named with
when that was, and a new one is begun: the caller says so, and nothing crashes.
"""

from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path

BUSY_SECONDS = 10.0  # how long an addition waits while another explorer is writing the same file
COMPANIONS = ("-wal", "-shm", "-journal")  # the files SQLite keeps beside a database


def open_store(path: Path, schema: str, *, durable: bool) -> tuple[sqlite3.Connection, Path | None]:
    """Open (or begin) a private SQLite file with these tables.

    Args:
        path: The file. Its folder is made (0700) when it is not there.
        schema: The statements that make its tables when they are not there.
        durable: Whether each transaction is on the disk before it ends (`synchronous = FULL`): a
            journal of writes is; a history may lose its last additions to a power cut (never to a
            program that is killed), and costs a page turn nothing for it.

    Returns:
        The connection (rows as `sqlite3.Row`, usable from any thread: the caller serialises
        writes), and where a damaged file was moved aside, if one was.

    Raises:
        OSError: When the folder or the file cannot be made.
        sqlite3.Error: When a new file cannot be begun either.
    """
    if not path.parent.exists():
        path.parent.mkdir(mode=0o700, parents=True)
    try:
        return connect(path, schema, durable), None
    except sqlite3.DatabaseError as error:
        if not damaged(error):
            raise
        aside = path.with_name(f"{path.name}.damaged-{time.strftime('%Y%m%d-%H%M%S')}")
        for suffix in ("", *COMPANIONS):
            companion = path.with_name(path.name + suffix)
            if companion.exists():
                companion.replace(aside.with_name(aside.name + suffix))
        return connect(path, schema, durable), aside


def damaged(error: sqlite3.Error) -> bool:
    """Whether SQLite says the file is not a database, or a damaged one (not busy, not a full disk)."""
    return getattr(error, "sqlite_errorcode", None) in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB)


def connect(path: Path, schema: str, durable: bool) -> sqlite3.Connection:
    """The connection to a private file, its tables made; sqlite3.DatabaseError when it is no database."""
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))  # made private before SQLite makes it
    connection = sqlite3.connect(path, timeout=BUSY_SECONDS, check_same_thread=False, isolation_level=None)
    try:
        connection.row_factory = sqlite3.Row
        connection.execute("PRAGMA journal_mode = WAL")
        connection.execute(f"PRAGMA synchronous = {'FULL' if durable else 'NORMAL'}")
        connection.executescript(schema)
    except sqlite3.DatabaseError:
        connection.close()
        raise
    connection.isolation_level = "DEFERRED"  # `with connection:` is one transaction from here
    return connection
