"""Failures on demand, for debugging drills and classes: outages, token errors, latency."""

from __future__ import annotations

import math
from collections import deque
from typing import Any

from explorer.sandbox.settings import Settings

# Which status each token-endpoint error of spec 7.3 comes with.
TOKEN_ERROR_STATUS = {
    "invalid_request": 400,
    "unsupported_grant_type": 400,
    "invalid_grant": 400,
    "invalid_client": 401,
    "access_denied": 403,
    "rate_limited": 429,
    "server_error": 500,
}


class Faults:
    """What is set to go wrong next. Counts go down as the failures are served."""

    def __init__(self, settings: Settings) -> None:
        for error in settings.token_errors:
            if error not in TOKEN_ERROR_STATUS:
                raise ValueError(f"unknown token error {error!r}; choose from {', '.join(TOKEN_ERROR_STATUS)}")
        self.latency_ms = settings.latency_ms
        self.unavailable = settings.unavailable
        self.retry_after = settings.retry_after
        self.token_errors: deque[str] = deque(settings.token_errors)
        self.clock = settings.clock
        self.started = settings.clock()
        self.outage = settings.outage

    def take_unavailable(self) -> int | None:
        """Retry-After seconds if this response is one of the next N to be a 503."""
        if self.unavailable <= 0:
            return None
        self.unavailable -= 1
        return self.retry_after

    def in_outage(self) -> int | None:
        """Retry-After seconds (to the end of the burst) if the repeating outage is on now."""
        every, lasting = self.outage
        if not every:
            return None
        into = (self.clock() - self.started) % every
        if into < every - lasting:
            return None
        return max(1, math.ceil(every - into))

    def take_token_error(self) -> str | None:
        return self.token_errors.popleft() if self.token_errors else None

    def reset(self) -> None:
        self.latency_ms = 0
        self.unavailable = 0
        self.token_errors.clear()
        self.outage = (0, 0)

    def state(self) -> dict[str, Any]:
        return {
            "latencyMs": self.latency_ms,
            "retryAfterSeconds": self.retry_after,
            "tokenErrors": list(self.token_errors),
            "unavailableResponses": self.unavailable,
            "outage": {"every": self.outage[0], "lasting": self.outage[1]},
        }
