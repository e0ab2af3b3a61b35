"""Service-account tokens: a token and when it expires, and what the screen shows of it (TokenState).

The one-shot commands keep theirs between runs in token_cache.py.
"""

from __future__ import annotations

from dataclasses import dataclass

from explorer.api.errors import ApiError
from explorer.api.secret import Secret


def leeway(lifetime: float) -> float:
    """How long before expiry a token is renewed: the smaller of 60 s and a tenth of its life."""
    return min(60.0, lifetime / 10)


@dataclass(frozen=True)
class Token:
    """An access token and when it was issued and expires (wall-clock seconds)."""

    value: Secret
    issued_at: float
    expires_at: float

    def fresh(self, now: float, within: float = 0.0) -> bool:
        """Usable for a while yet: not within its leeway of expiry, nor so near it that it could
        expire before a request that may take `within` seconds (its time limit) is done. That
        margin is at most half the token's life: a token shorter-lived than two time limits is
        still used for half of it, not renewed before each request."""
        life = self.expires_at - self.issued_at
        return now < self.expires_at - max(leeway(life), min(within, life / 2))


@dataclass
class TokenState:
    """What the screen shows of the token: never the token itself."""

    issued_at: float | None = None
    expires_at: float | None = None
    refreshes: int = 0
    refreshing: bool = False
    revoked: bool = False
    last_error: ApiError | None = None

    def seconds_left(self, now: float) -> float | None:
        """Seconds until the token expires, or None when there is none."""
        return None if self.expires_at is None else max(0.0, self.expires_at - now)

    def status(self, now: float) -> str:
        """What the token is now: valid, expired, refreshing, requested (the first: nothing to refresh
        yet), revoked, failed (and none left), or none."""
        if self.refreshing:
            return "refreshing" if self.issued_at is not None else "requested"
        if self.revoked:
            return "revoked"
        if self.expires_at is None or now >= self.expires_at:
            if self.last_error:
                return "failed"  # and no valid token to fall back on
            return "none" if self.expires_at is None else "expired"
        return "valid"

    def countdown(self, now: float) -> str:
        """The time left as mm:ss, as the status bar shows it."""
        left = self.seconds_left(now)
        if left is None:
            return "--:--"
        minutes, seconds = divmod(int(left), 60)
        return f"{minutes:02d}:{seconds:02d}"
