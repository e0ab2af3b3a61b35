"""Access tokens of service accounts: issue, check, revoke, expire (spec 2.1, 4.2, 4.3).

A classroom sandbox issues tokens by the hundred thousand. They are kept in issue order, which is
the order they expire in (one lifetime for all), so forgetting the stale ones is done from the old
end, at most once a second: issuing costs the same with 10 tokens kept or 100,000. A revoked token
is forgotten REVOKED_KEEP seconds after its revocation (until then it is refused as revoked, not as
unknown).
"""

from __future__ import annotations

import hashlib
import secrets
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from explorer.sandbox.documents import ApiProblem

KEEP_AFTER_EXPIRY = 3600.0  # an expired token is refused as expired for this long, then unknown
REVOKED_KEEP = 300.0  # a revoked one, as revoked
PURGE_EVERY = 1.0  # seconds between purges


@dataclass(slots=True)
class Token:
    client_id: str
    issued_at: float
    expires_at: float
    revoked: bool = False


def fingerprint(token: str) -> bytes:
    """Tokens are kept by hash, so a dump of the sandbox's memory holds none of them."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).digest()


class TokenStore:
    def __init__(self, ttl: int, clock: Callable[[], float]) -> None:
        self.ttl = ttl
        self.clock = clock
        self.tokens: dict[bytes, Token] = {}  # by fingerprint
        self.issued: deque[bytes] = deque()  # fingerprints in issue order: the order they expire in
        self.revoked: deque[tuple[float, bytes]] = deque()  # (when, fingerprint), in revocation order
        self.purged_at = -PURGE_EVERY

    def issue(self, client_id: str) -> tuple[str, Token]:
        now = self.clock()
        if now - self.purged_at >= PURGE_EVERY or now < self.purged_at:
            self.purge(now)
        value = "sbx_" + secrets.token_urlsafe(32)
        token = Token(client_id, now, now + self.ttl)
        key = fingerprint(value)
        self.tokens[key] = token
        self.issued.append(key)
        return value, token

    def check(self, value: str) -> Token:
        """The token named by a Bearer header, or the 401 document saying why it is refused."""
        token = self.tokens.get(fingerprint(value))
        if token is None:
            raise unauthorized("INVALID_ACCESS_TOKEN", "The access token is not valid.")
        if token.revoked:
            raise unauthorized("REVOKED_ACCESS_TOKEN", "The access token has been revoked.")
        if self.clock() >= token.expires_at:
            raise unauthorized("EXPIRED_ACCESS_TOKEN", "The access token has expired; request a new one.")
        return token

    def revoke(self, value: str, client_id: str) -> None:
        """Revoke a token of this client. Unknown tokens are not an error (RFC 7009)."""
        key = fingerprint(value)
        token = self.tokens.get(key)
        if token is not None and token.client_id == client_id and not token.revoked:
            token.revoked = True
            self.revoked.append((self.clock(), key))

    def expire_all(self) -> int:
        now = self.clock()
        live = [t for t in self.tokens.values() if t.expires_at > now and not t.revoked]
        for token in live:
            token.expires_at = now
        return len(live)

    def purge(self, now: float) -> None:
        """Forget the tokens long expired, from the oldest on, and those revoked a while ago."""
        self.purged_at = now
        while self.issued:
            token = self.tokens.get(self.issued[0])
            if token is not None and token.expires_at + KEEP_AFTER_EXPIRY >= now:
                break
            self.tokens.pop(self.issued.popleft(), None)
        while self.revoked and self.revoked[0][0] + REVOKED_KEEP < now:
            self.tokens.pop(self.revoked.popleft()[1], None)


def unauthorized(code: str, detail: str) -> ApiProblem:
    challenge = f'Bearer realm="Service Public API", error="invalid_token", error_description="{detail}"'
    return ApiProblem(401, code, detail, [], {"WWW-Authenticate": challenge})
