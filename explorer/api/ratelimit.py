"""Rate-limit state: what the server states of each request's limit, and the client's own count.

A service may state its limits with every answer, in RateLimit-Limit and RateLimit-Remaining (the
real service does: a token bucket per set of endpoints and scope, with figures from 300 to 10000),
and tells a refused request when to come back (Retry-After, or a token bucket's refill in its 429
document). It does not name its buckets. So what it said is kept for the request it said it of,
its method and path: the same operation in the same scope, so surely the same bucket. Two paths
may share a bucket; nothing in an answer says so, and nothing here guesses it.

A service that states nothing is counted as the spec describes it: 100 requests a minute per
project, 10 at the token endpoints, in windows that reset on the minute. Those figures are the
client's estimate and only that: where the server states its own, they are never used to hold a
request. The token endpoints keep their minute (10 a minute per client and address, the real
service too), at the figure the server stated when it did.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable
from dataclasses import dataclass

import httpx

from explorer.api.errors import retry_after, unwrap
from explorer.api.values import json_within, parse_count

WINDOW = 60.0
TOKEN_BUCKET = "token"
PROJECT_IN_PATH = re.compile(r"/groups/([^/?#]+)")
REMEMBERED = 4096  # requests whose figures are kept; the oldest are forgotten first
REFUSED = (429, 503)  # answers whose Retry-After says when to ask again
LONGEST_WAIT = 15 * 60.0  # seconds a request waits at most: a longer wait is said, and the person decides


def counter_key_of(url: httpx.URL) -> str | None:
    """Return the key of the client's counter a request falls under: TOKEN_BUCKET, a project ID, or None."""
    return counter_key_of_path(url.path)


def counter_key_of_path(path: str) -> str | None:
    """Return the key of the counter a path falls under: TOKEN_BUCKET, a project's ID, or None."""
    if path.startswith("/api/oauth/"):
        return TOKEN_BUCKET
    match = PROJECT_IN_PATH.search(path)
    return match.group(1) if match else None


def bucket_of(method: str, url: httpx.URL) -> str:
    """Return the bucket a request's figures from the server are kept under: TOKEN_BUCKET at the token
    endpoints, else its method and path (`GET /api/…/orgs/…`; HEAD is read as GET, a page of a list as the list)."""
    if counter_key_of(url) == TOKEN_BUCKET:
        return TOKEN_BUCKET
    return f"{'GET' if method in ('GET', 'HEAD') else method} {url.path}"


@dataclass(frozen=True)
class Reading:
    """What a meter shows of one limit: its name, what is left of how many, in words, and whether
    a request must wait for it now."""

    name: str
    left: int
    limit: int
    words: str
    waiting: bool


@dataclass
class Window:
    """One counter's state in the current minute: the token endpoint's, or a project's estimate."""

    counter_key: str
    limit: int
    minute: int = -1
    used: int = 0
    server_limit: int | None = None
    server_remaining: int | None = None
    server_minute: int = -1
    retry_at: float | None = None

    def remaining(self) -> int:
        """Requests left this minute: the server's figure when it sent one this minute, else ours."""
        if self.server_remaining is not None and self.server_minute == self.minute:
            return self.server_remaining
        return max(0, self.stated_limit() - self.used)

    def stated_limit(self) -> int:
        """The limit the server stated, once it has; until then the configured one."""
        return self.server_limit or self.limit

    def line(self, now: float) -> str:
        """`9 of 10 left` as the server said it this minute, else the client's own count, `3/10 sent`
        (this minute, of the limit stated or configured); and a countdown while held back."""
        if self.server_remaining is not None and self.server_minute == self.minute:
            text = f"{self.server_remaining} of {self.stated_limit()} left"
        else:
            text = f"{self.used}/{self.stated_limit()} sent"
        wait = (self.retry_at or 0) - now
        return f"{text} · retry in {wait:.0f}s" if wait > 0 else text


@dataclass
class StatedLimits:
    """What the server said with its last answer to one request: its figures, and when to come back."""

    limit: int | None = None
    remaining: int | None = None
    retry_at: float | None = None


class RateLimits:
    """What the client knows of the service's rate limits, per counter, minute by minute: what it
    sent, what the service said (RateLimit-* headers, Retry-After), and how long to wait before a request
    the service is sure to refuse."""

    def __init__(self, project_limit: int = 100, token_limit: int = 10, clock: Callable[[], float] = time.time):
        """`project_limit` and `token_limit` are the estimate for a service that states no figures."""
        self.project_limit = project_limit
        self.token_limit = token_limit
        self.clock = clock
        self.windows: dict[str, Window] = {}
        self.buckets: dict[str, StatedLimits] = {}  # by bucket_of, the most recently stated last
        self.stating: set[str] = set()  # projects whose answers carried figures: no estimate for them

    def window(self, counter_key: str) -> Window:
        """The current minute's window of a counter (a new one when the minute turned)."""
        minute = int(self.clock() // WINDOW)
        current = self.windows.get(counter_key)
        if current is None:
            limit = self.token_limit if counter_key == TOKEN_BUCKET else self.project_limit
            current = self.windows[counter_key] = Window(counter_key, limit)
        if current.minute != minute:
            current.minute, current.used = minute, 0
        return current

    def estimated(self, counter_key: str | None) -> bool:
        """Whether the client counts for itself under `counter_key`: the token endpoint, or a project whose
        answers have stated no figures."""
        return counter_key == TOKEN_BUCKET or (counter_key is not None and counter_key not in self.stating)

    def sent(self, counter_key: str) -> None:
        """Count a request sent under `counter_key`."""
        self.window(counter_key).used += 1

    def received(self, counter_key: str | None, response: httpx.Response) -> None:
        """Take in what an answer says: `counter_key` is the counter its request fell under (counter_key_of)."""
        now = self.clock()
        figures = stated(response)
        wait = come_back_in(response, now)
        if wait is not None and wait > LONGEST_WAIT:  # a billion seconds: said by the error, never held
            wait = None
        if counter_key is not None and (counter_key == TOKEN_BUCKET or figures is None):
            window = self.window(counter_key)
            if figures is not None:
                (window.server_limit, window.server_remaining), window.server_minute = figures, window.minute
            if wait is not None and self.estimated(counter_key):
                window.retry_at = now + wait
        if counter_key == TOKEN_BUCKET:
            return
        if figures is not None and counter_key is not None:
            self.stating.add(counter_key)
        request = response.request
        bucket = bucket_of(request.method, request.url)
        last = self.buckets.pop(bucket, None)
        if last is None and figures is None and wait is None:
            return
        last = last or StatedLimits()
        if figures is not None:
            last.limit, last.remaining = figures
        last.retry_at = now + wait if wait is not None else None
        self.buckets[bucket] = last
        if len(self.buckets) > REMEMBERED:
            del self.buckets[next(iter(self.buckets))]

    def seconds_to_wait(self, url: httpx.URL, method: str = "GET", counted: bool = True) -> float:
        """Seconds to wait before this request can be sent without being sure to fail; 0 to send now.

        Sure to fail: the server said to come back later (a 429's or 503's Retry-After, or the
        refill of an empty token bucket), or, where it states no figures and `counted`, the client's
        count of the minute is spent. A RateLimit-Remaining of 0 alone is not: it does not say when
        the bucket refills, and the 429 that may follow does.
        """
        now = self.clock()
        wait = 0.0
        last = self.buckets.get(bucket_of(method, url))
        if last is not None and last.retry_at is not None:
            wait = last.retry_at - now
        counter_key = counter_key_of(url)
        if counted and counter_key is not None and self.estimated(counter_key):
            window = self.window(counter_key)
            wait = max(wait, (window.retry_at or now) - now)
            if window.remaining() <= 0:
                wait = max(wait, (window.minute + 1) * WINDOW - now)
        return max(0.0, wait)

    def reading(self, bucket: str) -> Reading | None:
        """The meter of a request (a bucket_of): the figures the server stated with its last answer,
        else the client's count of its project's minute; None when there is neither."""
        now = self.clock()
        if bucket == TOKEN_BUCKET:
            return self.token_reading()
        last = self.buckets.get(bucket)
        waiting = last is not None and (last.retry_at or 0) > now
        if last is not None and last.limit is not None and last.remaining is not None:
            words = f"{last.remaining} of {last.limit} left"
            return Reading("rate limit", last.remaining, last.limit, words, waiting)
        counter_key = counter_key_of_path(bucket.partition(" ")[2])
        if counter_key is None or not self.estimated(counter_key):
            return None
        window = self.window(counter_key)
        waiting = waiting or (window.retry_at or 0) > now
        return Reading("project", window.remaining(), window.stated_limit(), window.line(now), waiting)

    def token_reading(self) -> Reading:
        """The token endpoint's meter."""
        now = self.clock()
        window = self.window(TOKEN_BUCKET)
        waiting = (window.retry_at or 0) > now
        return Reading("token endpoint", window.remaining(), window.stated_limit(), window.line(now), waiting)


def stated(response: httpx.Response) -> tuple[int, int] | None:
    """RateLimit-Limit and RateLimit-Remaining, when both are counts (`²` is a digit to str.isdigit,
    but no count); else the capacity of the token bucket a 429 names, with none left."""
    limit = parse_count(response.headers.get("ratelimit-limit"))
    remaining = parse_count(response.headers.get("ratelimit-remaining"))
    if limit is not None and remaining is not None:
        return limit, remaining
    parameters = bucket_parameters(response)
    capacity = parse_count(str(parameters[2])) if parameters else None
    return (capacity, 0) if capacity else None


def come_back_in(response: httpx.Response, now: float) -> float | None:
    """Seconds until a refused request may be sent again: its Retry-After; for a token bucket's 429
    without one, the retryAfter of its document, else the period of its refill."""
    if response.status_code not in REFUSED:
        return None
    wait = seconds_after(response.headers.get("retry-after"), now)
    if wait is not None:
        return wait
    parameters = bucket_parameters(response)
    if not parameters:
        return None
    later, every = parse_count(str(parameters[1])), parse_count(str(parameters[4]))
    return float(later) if later is not None else float(every) if every is not None else None


def seconds_after(value: str | None, now: float) -> float | None:
    """A Retry-After's seconds (a count, or an HTTP date); None for what is neither (`²`, 4,400 digits)."""
    count = parse_count(value)
    if count is not None:
        return float(count)
    try:
        wait = retry_after(value, now)
    except ValueError:  # `²` is a digit to str.isdigit, and no number to float
        return None
    return wait if wait is not None and math.isfinite(wait) else None


def bucket_parameters(response: httpx.Response) -> list[object] | None:
    """The parameters of a RATE_LIMITED_TOKEN_BUCKET 429: [path, retryAfter, capacity, refillRate,
    refillSeconds]; None for any other answer."""
    if response.status_code != 429:
        return None
    try:
        document = unwrap(json_within(response.content))
    except ValueError:  # not JSON, not UTF-8, or nested past Bounds.max_depth (TooDeep): no bucket said
        return None
    if not isinstance(document, dict) or document.get("errorCode") != "RATE_LIMITED_TOKEN_BUCKET":
        return None
    parameters = document.get("parameters")
    return parameters if isinstance(parameters, list) and len(parameters) >= 5 else None
