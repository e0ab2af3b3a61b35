"""Holds: a request the rate limit is sure to refuse held, and what is held and why.

The session holds a request here before sending it (on the client's count of a limit, or on a
Retry-After the server gave) and while it waits out a 429 or 503 before asking again. What is held
is public state, read by the screen's status bar for its countdown: until when, on which limit, and
the refusal that said to wait.

What a task's requests were held is counted too, when it asks (`counting_holds`): a watch's next
fetch is spaced from when the last one went out, not from before a Retry-After it waited out.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

import httpx

from explorer.api.ratelimit import RateLimits, bucket_of
from explorer.api.resource import Resource


@dataclass
class Tally:
    """Seconds a task's requests were held (by the session's clock), while it counts them."""

    seconds: float = 0.0


tally: ContextVar[Tally | None] = ContextVar("tally", default=None)  # this task's, while it counts


@contextmanager
def counting_holds() -> Iterator[Tally]:
    """Count the seconds this task's requests are held inside the block: a Retry-After waited out,
    the rate limit, a token endpoint's 503. Time that is the service's, not the request's.

    Returns:
        The tally, which holds the seconds once the block is done.
    """
    counted = Tally()
    mark = tally.set(counted)
    try:
        yield counted
    finally:
        tally.reset(mark)


class Holds:
    """The holds of one session's requests, on its rate limits, its clock and its way to wait."""

    def __init__(
        self, rate_limits: RateLimits, clock: Callable[[], float], sleep: Callable[[float], Awaitable[None]]
    ) -> None:
        self.rate_limits = rate_limits
        self.clock = clock
        self.sleep = sleep
        self.held_until: float | None = None
        self.held_for: str | None = None  # the rate limit (a bucket_of) the held request waits on, if any
        self.held_after: Resource | None = None  # the refusal (429, 503) it waits out, while it does
        self.refusal: tuple[str | None, Resource] | None = None  # the last 429 or 503 with a wait, by its bucket_of

    async def wait_for_budget(self, url: httpx.URL, method: str = "GET", counted: bool = True) -> None:
        """Hold a request the rate limit is sure to refuse, until it would not be.

        Not `counted` (a resource, without the session's `pace`: the drills that show a 429), only for
        what the server said, a Retry-After not yet passed: never on the client's own count, which
        would keep the 429 from happening. The token endpoint's requests are always counted.
        """
        wait = self.rate_limits.hold(url, method, counted=counted)
        if wait > 0:
            limit = bucket_of(method, url)
            refused = self.refusal[1] if self.refusal is not None and self.refusal[0] == limit else None
            await self.hold(self.clock() + wait, limit, refused)

    async def hold(self, until: float, limit: str | None, after: Resource | None = None) -> None:
        """Wait until `until`, cancellable, showing it: in `held_until`, the limit waited on in
        `held_for`, and in `held_after` the refusal that said to wait (the screen shows its error)."""
        self.held_until, self.held_for, self.held_after = until, limit, after
        started, counted = self.clock(), tally.get()
        try:
            await self.sleep(max(0.0, until - self.clock()))
        finally:
            self.held_until = self.held_for = self.held_after = None
            if counted is not None:
                counted.seconds += self.clock() - started
