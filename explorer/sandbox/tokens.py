"""Access tokens of service accounts: issue, check, revoke, expire (spec 2.1, 4.2, 4.3)."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable
from dataclasses import dataclass

from explorer.sandbox.documents import ApiProblem

KEEP_AFTER_EXPIRY = 3600.0


@dataclass
class Token:
    client_id: str
    issued_at: float
    expires_at: float
    revoked: bool = False


def fingerprint(token: str) -> str:
    """Tokens are kept by hash, so a dump of the sandbox's memory holds none of them."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


class TokenStore:
    def __init__(self, ttl: int, clock: Callable[[], float]) -> None:
        self.ttl = ttl
        self.clock = clock
        self.tokens: dict[str, Token] = {}

    def issue(self, client_id: str) -> tuple[str, Token]:
        now = self.clock()
        self.purge(now)
        value = "sbx_" + secrets.token_urlsafe(32)
        token = Token(client_id, now, now + self.ttl)
        self.tokens[fingerprint(value)] = token
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
        token = self.tokens.get(fingerprint(value))
        if token is not None and token.client_id == client_id:
            token.revoked = True

    def expire_all(self) -> int:
        now = self.clock()
        live = [t for t in self.tokens.values() if t.expires_at > now and not t.revoked]
        for token in live:
            token.expires_at = now
        return len(live)

    def purge(self, now: float) -> None:
        stale = [k for k, t in self.tokens.items() if t.expires_at + KEEP_AFTER_EXPIRY < now]
        for key in stale:
            del self.tokens[key]


def unauthorized(code: str, detail: str) -> ApiProblem:
    challenge = f'Bearer realm="Service Public API", error="invalid_token", error_description="{detail}"'
    return ApiProblem(401, code, detail, [], {"WWW-Authenticate": challenge})
