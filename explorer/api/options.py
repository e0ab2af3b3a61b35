"""What a Session is given beside its credentials, in four small objects.

As httpx has `Timeout` and `Limits`, a session has these, each passed by its name:

    Session(credentials, bounds=Bounds(deadline=10.0), clocks=Clocks(wall=fake_clock))

Each holds the defaults a session has without it, so a caller names only what it changes; each is
frozen, so one can be shared between sessions (the screen's login form opens one after another).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

from explorer.api.guard import MAX_BODY
from explorer.api.har import KEEP_BYTES, HarRecorder
from explorer.api.history import History
from explorer.api.journal import Journal
from explorer.api.values import MAX_DEPTH

DEADLINE = 120.0  # seconds one request may take in all, the per-read timeout aside


@dataclass(frozen=True)
class Bounds:
    """What one request and its answer may take: a slow or hostile service is cut off, not waited for.

    The explorer's command line sets each with a flag of its name; the defaults are generous for
    a real service and still end a request that never would.

    Attributes:
        timeout: Seconds any one step of a request may take: connecting, sending, each read. It is
            per read, so a body that trickles in never times out by it: `deadline` bounds the whole.
        deadline: The seconds one request may take in all (120 unless said), however slowly its
            body trickles in.
        max_body: The most bytes an answer's decoded body may have (guard.py; 64 MiB unless said):
            a larger one (a compression bomb, a runaway list) is dropped, not read.
        max_depth: The levels of nesting a body may have to be read as JSON (resource.py; 100
            unless said): the views that walk a document stay within Python's own limit.
    """

    timeout: float = 30.0
    deadline: float = DEADLINE
    max_body: int = MAX_BODY
    max_depth: int = MAX_DEPTH


@dataclass(frozen=True)
class Clocks:
    """The session's sense of time: the real one unless a test or a screenshot passes its own.

    They are the seams that let a test run an hour of token lifetimes and rate-limit windows in
    milliseconds, and a screenshot show the same timings every time.

    Attributes:
        wall: The wall clock, in seconds since the epoch: for rate-limit windows, token lifetimes
            and when an answer came.
        sleep: The way to wait, while a request is held for a rate limit or a Retry-After.
        timer: What times a request (`Resource.elapsed`): a monotonic clock, as the wall clock
            may jump.
    """

    wall: Callable[[], float] = time.time
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep
    timer: Callable[[], float] = time.perf_counter


@dataclass(frozen=True)
class Caches:
    """Where a session keeps what outlives it: the token and the API description's index.

    A one-shot command runs again soon, and should not pay for a token or for reading the API
    description each time.

    Attributes:
        token: A folder to keep the token in between runs (one-shot commands), encrypted with the
            client secret; None keeps it in memory only, and revokes it on closing.
        description: Where the API description's index is kept; None for the user cache
            directory.
    """

    token: Path | None = None
    description: Path | None = None


@dataclass(frozen=True)
class Har:
    """What a session records of its exchanges, and what it replays.

    So a session can be looked at again, shared, or explored offline.

    Attributes:
        recorder: Writes every exchange to a HAR file as it happens; None records nothing.
        keep_bytes: Bounds the bodies of the last exchanges kept whole for saving the session as
            HAR later (the screen's palette; 64 MiB unless said); 0 keeps none, as a one-shot
            command that never saves wants.
        replay: Names the recording a replay session's transport answers from (the status bar
            says so); None for a session on a live service.
        history: Keeps every exchange, redacted, in a history that outlives the session
            (history.py); None keeps none.
        journal: Notes every write attempted, and what became of it, in a journal that is never
            rewritten (journal.py); None notes none.
    """

    recorder: HarRecorder | None = None
    keep_bytes: int = KEEP_BYTES
    replay: str | None = None
    history: History | None = None
    journal: Journal | None = None
