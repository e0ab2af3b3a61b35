"""Rate limits: fixed one-minute windows that reset on the minute (spec 8)."""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable
from dataclasses import dataclass

WINDOW = 60.0


@dataclass(frozen=True)
class Verdict:
    allowed: bool
    limit: int
    remaining: int
    retry_after: int

    def headers(self) -> dict[str, str]:
        return {"RateLimit-Limit": str(self.limit), "RateLimit-Remaining": str(self.remaining)}


class MinuteWindows:
    """Counts requests per key in the current clock minute."""

    def __init__(self, limit: int, clock: Callable[[], float]) -> None:
        self.limit = limit
        self.clock = clock
        self.window = -1
        self.counts: dict[Hashable, int] = {}

    def hit(self, key: Hashable) -> Verdict:
        now = self.clock()
        window = int(now // WINDOW)
        if window != self.window:
            self.window, self.counts = window, {}
        used = self.counts.get(key, 0) + 1
        self.counts[key] = used
        retry_after = max(1, math.ceil((window + 1) * WINDOW - now))
        return Verdict(used <= self.limit, self.limit, max(0, self.limit - used), retry_after)
