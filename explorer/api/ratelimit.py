"""Rate-limit state: per project and at the token endpoints, as counted here and as the server says.

The service counts requests per project (100 a minute) and at the token endpoints (10 a minute),
in windows that reset on the minute. The client counts the same way, reads RateLimit-Limit and
RateLimit-Remaining when the server sends them, and keeps the Retry-After deadline after a 429 or
503, so it can hold a request that is sure to be refused instead of sending it.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass

import httpx

from explorer.api.errors import retry_after
from explorer.api.values import whole

WINDOW = 60.0
TOKEN = "token"
PROJECT_IN_PATH = re.compile(r"/groups/([^/?#]+)")


def key_of(url: httpx.URL) -> str | None:
    """Which counter a request falls under: TOKEN, a project ID, or None (not limited)."""
    path = url.path
    if path.startswith("/api/oauth/"):
        return TOKEN
    match = PROJECT_IN_PATH.search(path)
    return match.group(1) if match else None


@dataclass
class Window:
    """One counter's state in the current minute."""

    key: str
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
        return max(0, self.limit - self.used)

    def line(self, now: float) -> str:
        """12/100 used this minute (or what the server says is left), and a countdown while held back."""
        if self.server_remaining is not None and self.server_minute == self.minute:
            text = f"{self.server_remaining} of {self.server_limit or self.limit} left"
        else:
            text = f"{self.used}/{self.limit} used"
        wait = (self.retry_at or 0) - now
        return f"{text} · retry in {wait:.0f}s" if wait > 0 else text


class RateLimits:
    def __init__(self, project_limit: int = 100, token_limit: int = 10, clock: Callable[[], float] = time.time):
        self.project_limit = project_limit
        self.token_limit = token_limit
        self.clock = clock
        self.windows: dict[str, Window] = {}

    def window(self, key: str) -> Window:
        minute = int(self.clock() // WINDOW)
        current = self.windows.get(key)
        if current is None:
            limit = self.token_limit if key == TOKEN else self.project_limit
            current = self.windows[key] = Window(key, limit)
        if current.minute != minute:
            current.minute, current.used = minute, 0
        return current

    def sent(self, key: str) -> None:
        self.window(key).used += 1

    def received(self, key: str, response: httpx.Response) -> None:
        window = self.window(key)
        limit, remaining = (
            whole(response.headers.get("ratelimit-limit")),
            whole(response.headers.get("ratelimit-remaining")),
        )
        if limit is not None and remaining is not None:  # `²` is a digit to str.isdigit, but no count
            window.server_limit, window.server_remaining = limit, remaining
            window.server_minute = window.minute
        if response.status_code in (429, 503):
            wait = retry_after(response.headers.get("retry-after"), self.clock())
            if wait is not None:
                window.retry_at = self.clock() + wait

    def hold(self, url: httpx.URL) -> float:
        """Seconds to wait before this request can be sent without being sure to fail; 0 to send now."""
        key = key_of(url)
        if key is None:
            return 0.0
        now = self.clock()
        window = self.window(key)
        wait = max(0.0, (window.retry_at or now) - now)
        if window.remaining() <= 0:
            wait = max(wait, (window.minute + 1) * WINDOW - now)
        return wait
