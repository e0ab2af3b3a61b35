"""The session's throttle: it waits before a request a rate limit is sure to refuse, and shows the wait.

The session waits here before sending a request (on the client's own count of a limit, or on a
Retry-After the server gave) and while it waits out a 429 or 503 before sending a read again. What
it is waiting for is public state, read by the screen's status bar for its countdown: until when,
on which bucket, and the 429 or 503 response that said to wait.

How long a task's requests waited is counted too, when it asks (`counting_waits`): a watch's next
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
    """Seconds a task's requests waited (by the session's clock), while it counts them."""

    seconds: float = 0.0


tally: ContextVar[Tally | None] = ContextVar("tally", default=None)  # this task's, while it counts


@contextmanager
def counting_waits() -> Iterator[Tally]:
    """Count the seconds this task's requests wait inside the block: a Retry-After waited out,
    the rate limit, a token endpoint's 503. Time that is the service's, not the request's.

    Returns:
        The tally, which holds the seconds once the block is done.
    """
    counted = Tally()
    tally_token = tally.set(counted)
    try:
        yield counted
    finally:
        tally.reset(tally_token)


class Throttle:
    """One session's waits on its rate limits, with its clock and its way to wait."""

    def __init__(
        self, rate_limits: RateLimits, clock: Callable[[], float], sleep: Callable[[float], Awaitable[None]]
    ) -> None:
        self.rate_limits = rate_limits
        self.clock = clock
        self.sleep = sleep
        self.waiting_until: float | None = None
        self.waiting_bucket: str | None = None  # the bucket (a bucket_of) the waiting request waits on, if any
        self.waiting_response: Resource | None = None  # the 429 or 503 it waits out, while it does
        # The last 429 or 503 with a Retry-After, and its bucket (a bucket_of; None for another origin).
        self.last_retry_after: tuple[str | None, Resource] | None = None

    async def wait_for_rate_limit(self, url: httpx.URL, method: str = "GET", counted: bool = True) -> None:
        """Wait before a request a rate limit is sure to refuse, until it would not be.

        With `counted` False (a session without client-side throttling, as the drills that show a
        429 run), wait only for what the server said, a Retry-After not yet passed, never on the
        client's own count: that count would keep the 429 from happening. The token endpoint's
        requests are always counted.

        Args:
            url: Where the request goes.
            method: Its method.
            counted: Whether the client's own count of a limit may make it wait.
        """
        wait = self.rate_limits.seconds_to_wait(url, method, counted=counted)
        if wait > 0:
            bucket = bucket_of(method, url)
            last = self.last_retry_after
            response = last[1] if last is not None and last[0] == bucket else None
            await self.wait_until(self.clock() + wait, bucket, response)

    async def wait_until(self, until: float, bucket: str | None, response: Resource | None = None) -> None:
        """Wait until `until` (cancellable), and show it while it lasts.

        Args:
            until: When to stop waiting, by the session's wall clock.
            bucket: The bucket waited on (`waiting_bucket`), or None.
            response: The 429 or 503 that said to wait (`waiting_response`: the screen shows its error).
        """
        self.waiting_until, self.waiting_bucket, self.waiting_response = until, bucket, response
        started, counted = self.clock(), tally.get()
        try:
            await self.sleep(max(0.0, until - self.clock()))
        finally:
            self.waiting_until = self.waiting_bucket = self.waiting_response = None
            if counted is not None:
                counted.seconds += self.clock() - started
