"""Watching a resource: fetched again every few seconds, each version kept with what changed since
the one before, until it is deleted (404), a condition holds, or the watcher stops it.

The service does its work after it answers (a cluster is CREATING, then IDLE; DELETING, then gone),
so operators watch. A watch must never cost the 429 it would then be debugging: `spacing` spends
what the service says is left of the limit evenly over the rest of its minute, keeps a reserve for
the person's own requests, waits out a Retry-After, and says when it slows down and why. The
screen (`w`) and the command line's watch are both this module's loop.

Limits: a watch is fetched at most every FASTEST seconds and at least every SLOWEST; it keeps its
last MAX_VERSIONS versions (the first is always kept, as what the changes started from).
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import httpx

from explorer.api.changes import Change, changes
from explorer.api.errors import ApiError, ConfigError
from explorer.api.filters import JqError, JqRunner
from explorer.api.ratelimit import WINDOW, Reading, bucket_of
from explorer.api.resource import Resource
from explorer.api.throttle import counting_waits

if TYPE_CHECKING:
    from explorer.api.session import Session

EVERY = 5.0  # seconds between fetches, unless said otherwise
FASTEST = 1.0
SLOWEST = 300.0
STEPS = (1.0, 2.0, 5.0, 10.0, 15.0, 30.0, 60.0, 120.0, 300.0)  # what + and - step through
MAX_VERSIONS = 500


def every_from(config: dict[str, Any], where: str) -> float:
    """The config file's `watch_every` (seconds between a watch's fetches), checked; EVERY without one."""
    value = config.get("watch_every", EVERY)
    if isinstance(value, bool) or not isinstance(value, int | float) or not FASTEST <= value <= SLOWEST:
        raise ConfigError(
            f"In {where}, watch_every must be a number of seconds from {FASTEST:g} to {SLOWEST:g}",
            "It is how often a watch fetches the resource again; 5 when it is left out.",
        )
    return float(value)


def faster(every: float) -> float:
    """The next shorter interval of STEPS (`-` on the screen: less time between fetches)."""
    return max((step for step in STEPS if step < every), default=FASTEST)


def slower(every: float) -> float:
    """The next longer interval of STEPS."""
    return min((step for step in STEPS if step > every), default=SLOWEST)


def time_of_day(at: float) -> str:
    """An instant as the local time of day (`14:03:27`): what a person watching reads."""
    return time.strftime("%H:%M:%S", time.localtime(at))


HELD = "the condition holds"  # how a watch whose condition held ends
DELETED = "deleted"  # how a watch ends when a resource it saw answers 404
NOT_THERE = "not there"  # how a watch ends whose first fetch answered 404: nothing to watch


@dataclass(frozen=True)
class Spacing:
    """How long to wait before the next fetch, and, when longer than asked, why (said on the screen)."""

    seconds: float
    why: str | None = None


def spacing(
    every: float,
    reading: Reading | None,
    now: float,
    retry_at: float | None = None,
    sharing: int = 1,
    spread: bool = True,
) -> Spacing:
    """The wait before a watch's next fetch: `every`, unless the rate limit says to go slower.

    `reading` is the limit's meter for the watched request (what the service stated it has left,
    or the client's count of the spec's minute), `retry_at` when a Retry-After said to come back,
    `sharing` how many watches spend the same limit. What is left, less a reserve (a tenth of the
    limit, at least one request) for the person's own requests, is spread evenly over the rest of
    the minute: the spec's windows reset on the minute, and a token bucket (the real service's)
    refills at least that fast. A token bucket's true refill is not stated in its headers, so this
    is the cautious reading of it. Not `spread`: only what must be waited before a request now (a
    Retry-After, nothing to spare this minute), as a watch asks again just before it fetches.
    """
    if retry_at is not None and retry_at > now:
        wait = max(every, retry_at - now)
        return Spacing(wait, f"waiting out Retry-After: {math.ceil(retry_at - now)} s")
    if reading is None:
        return Spacing(every)
    rest = WINDOW - now % WINDOW
    reserve = max(1, reading.limit // 10)
    spendable = (reading.left - reserve) / max(1, sharing)
    if spendable < 1:
        return Spacing(max(every, rest + 1), f"slowed: {reading.left} of {reading.limit} left, waiting for the minute")
    even = rest / spendable
    if even <= every or not spread:
        return Spacing(every)
    return Spacing(min(even, SLOWEST), f"slowed: {reading.left} of {reading.limit} left this minute")


@dataclass(frozen=True)
class Version:
    """One version of the watched resource: when it was seen, and what changed since the one before."""

    number: int
    at: float
    status: int
    document: Any
    changes: tuple[Change, ...] = ()


@dataclass
class Watch:
    """One resource watched: its versions, what its last fetch said, and why it ended (if it has).

    `until` is a jq condition on the document; `problem` the last fetch's failure (a 500, no answer),
    else the condition's failure on the latest version (`.a.b` on a number), which stands as long as
    the document does: neither ends a watch on the screen (the next fetch may succeed, the next
    version may hold) and both end a script's."""

    url: str
    title: str
    every: float = EVERY
    until: str | None = None
    versions: list[Version] = field(default_factory=list)
    seen: int = 0  # versions seen in all (more than kept, once MAX_VERSIONS is passed)
    fetches: int = 0
    last_fetched: float | None = None
    fetch_problem: str | None = None  # the last fetch's failure, until a fetch succeeds
    condition_problem: str | None = None  # why the condition failed on the latest version
    ended: str | None = None  # DELETED, NOT_THERE, HELD, "stopped", or what ended it
    error: ApiError | None = None  # the last fetch's failure as it came (a 404's, no answer's), till one succeeds
    slowed: str | None = None  # why the watch goes slower than asked, while it does

    @property
    def bucket(self) -> str:
        """The rate limit its fetches spend (a bucket_of): watches on the same one share it."""
        return bucket_of("GET", httpx.URL(self.url))

    @property
    def problem(self) -> str | None:
        """What keeps the watch from telling whether it is done: the last fetch's failure, else the
        condition's on the latest version."""
        return self.fetch_problem or self.condition_problem

    @property
    def latest(self) -> Version | None:
        """The last version seen (kept), or None before the first fetch."""
        return self.versions[-1] if self.versions else None

    def take(self, resource: Resource, at: float) -> Version | None:
        """Take in one fetch: a new Version when the document changed (or is the first), else None.

        A 404 after a version was seen ends the watch as DELETED; a 404 first, as NOT_THERE (it never
        was, or went before the watch began: a 404 polled for ever would say nothing new); any other
        failure is kept in `problem` until a fetch succeeds."""
        self.fetches += 1
        self.last_fetched = at
        self.error = resource.error
        if resource.status == 404 and self.versions:
            self.ended = DELETED
            self.fetch_problem = self.condition_problem = None
            return self.add(Version(self.seen + 1, at, 404, None, (Change("", "removed", self.versions[-1].document),)))
        if resource.status == 404:
            self.ended = NOT_THERE
            self.fetch_problem = resource.error.line() if resource.error is not None else "404 Not Found"
            return None
        if resource.error is not None:
            self.fetch_problem = resource.error.line()
            return None
        self.fetch_problem = None
        document = resource.document
        latest = self.latest
        if latest is not None and latest.status == resource.status and latest.document == document:
            return None  # the condition's failure, if any, stands: it was on this very document
        self.condition_problem = None
        found = tuple(changes(latest.document, document)) if latest is not None else ()
        return self.add(Version(self.seen + 1, at, resource.status, document, found))

    def add(self, version: Version) -> Version:
        """Keep a new version: the last MAX_VERSIONS, and always the first."""
        self.seen += 1
        self.versions.append(version)
        if len(self.versions) > MAX_VERSIONS:
            del self.versions[1]  # the first stays: what the changes started from
        return version

    def failed(self, error: ApiError, at: float) -> None:
        """A fetch that had no answer (connection, TLS, a deadline)."""
        self.fetches += 1
        self.last_fetched = at
        self.error = error
        self.fetch_problem = error.line()


Fetch = Callable[[str], Awaitable[Resource]]
Seen = Callable[[Watch, Version | None, Resource | None], None]  # after a fetch: a new version?, the answer
Pace = Callable[[Watch, bool], Spacing]  # (the watch, ready: just before a fetch) -> how long to wait


async def checked(watch: Watch, runner: JqRunner, version: Version) -> None:
    """Whether the watch's condition holds on a new version; a condition that fails on the document
    (`.a.b` on a number) does not hold, and says why in `problem`."""
    if watch.until is None or version.document is None:
        return
    try:
        holds = (await runner.run(watch.until, version.document)).holds
    except JqError as error:
        watch.condition_problem = f"the condition failed: {error}"
        return
    if holds:
        watch.ended = HELD


async def follow(
    watch: Watch,
    fetch: Fetch,
    runner: JqRunner,
    clock: Callable[[], float],
    sleep: Callable[[float], Awaitable[None]],
    pace: Pace,
    seen: Seen,
    stop_on_problem: bool = False,
    fetch_first: bool = True,
) -> None:
    """Watch until it ends: fetch, take, check the condition, tell `seen`, then wait as `pace` says
    (and, just before the next fetch, as it says again with `ready`: what must still be waited).

    `fetch` is the session's (its retries of a 429 or 503 with Retry-After included); `seen` is told
    after every fetch, with the new version or None, and the answer (None when there was none). A
    script stops at the first problem (`stop_on_problem`); the screen goes on, showing it. Not
    `fetch_first`: the watch's first version was fetched already, and the loop begins by waiting."""
    waiting = not fetch_first
    began = clock()
    while watch.ended is None:
        if waiting:
            await paced(watch, pace, sleep, spent=clock() - began)
        waiting = True
        began = clock()
        resource: Resource | None = None
        with counting_waits() as held:
            try:
                resource = await fetch(watch.url)
            except ApiError as error:
                watch.failed(error, clock())
        # Held (a 503's Retry-After waited out), the fetch went out when the hold ended: the next is
        # spaced from then, not sent at once after it as though the hold had been the fetch's time.
        began += held.seconds
        if resource is None:
            version = None
        else:
            # a version's differences walk both documents: off the caller's thread (a screen stays live)
            version = await asyncio.to_thread(watch.take, resource, clock())
            if version is not None:
                await checked(watch, runner, version)
        seen(watch, version, resource)
        if watch.problem is not None and stop_on_problem and watch.ended is None:
            watch.ended = watch.problem


async def paced(watch: Watch, pace: Pace, sleep: Callable[[float], Awaitable[None]], spent: float = 0.0) -> None:
    """The wait before a watch's next fetch, as `pace` says, less what the last fetch and its
    condition `spent` (every 5 s is from one fetch's start to the next: a condition jq stops at 2 s
    made it every 7); then, just before the fetch, what `pace` says must still be waited: what was
    left may have been spent meanwhile (the person's own requests). Asked again once: a service's
    figures are only new with its next answer."""
    space = pace(watch, False)
    watch.slowed = space.why
    await sleep(max(0.0, space.seconds - spent))
    hold = pace(watch, True)
    if hold.seconds > 0:
        watch.slowed = hold.why
        await sleep(hold.seconds)


def session_pace(session: Session, sharing: Callable[[str], int]) -> Pace:
    """A watch's spacing from a session's rate-limit state: its reading of the watched request's
    limit, and any Retry-After said of it. `sharing(bucket)` counts the watches on that limit.
    `ready`: only what must be waited before fetching now."""

    def pace(watch: Watch, ready: bool = False) -> Spacing:
        bucket = watch.bucket
        limits = session.rate_limits
        last = limits.buckets.get(bucket)
        retry_at = last.retry_at if last is not None else None
        every = 0.0 if ready else watch.every
        return spacing(
            every, limits.reading(bucket), session.clocks.wall(), retry_at, sharing(bucket), spread=not ready
        )

    return pace
