"""HTTP Digest authentication for API keys (spec 5.3): MD5, qop=auth, a stateless nonce.

The nonce is the time it was made and an HMAC of that time, so the sandbox keeps no table of
nonces and a nonce it did not make is recognised at once.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import re
import struct
from collections.abc import Callable

from explorer.sandbox.credentials import same
from explorer.sandbox.documents import ApiProblem

REALM = "Service Public API"
NONCE_LIFETIME = 300.0
PAIR = re.compile(r'\s*([A-Za-z0-9_-]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^,\s]*)\s*(?:,|$)')


def md5(text: str) -> str:
    return hashlib.md5(text.encode("utf-8"), usedforsecurity=False).hexdigest()


def parse_fields(text: str) -> dict[str, str] | None:
    """The name=value pairs of a Digest header, or None when they do not parse."""
    fields: dict[str, str] = {}
    position = 0
    text = text.strip()
    while position < len(text):
        match = PAIR.match(text, position)
        if not match or match.end() == position:
            return None
        name, value = match.group(1).lower(), match.group(2)
        if value.startswith('"'):
            value = re.sub(r"\\(.)", r"\1", value[1:-1])
        fields[name] = value
        position = match.end()
    return fields


class DigestAuthority:
    def __init__(self, public_key: str, private_key: str, clock: Callable[[], float]) -> None:
        self.public_key = public_key
        self.private_key = private_key
        self.clock = clock
        self.secret = os.urandom(32)

    def nonce(self) -> str:
        stamp = struct.pack(">d", self.clock())
        mac = hmac.new(self.secret, stamp, hashlib.sha256).digest()[:16]
        return base64.b64encode(stamp + mac).decode("ascii")

    def nonce_age(self, nonce: str) -> float | None:
        try:
            raw = base64.b64decode(nonce, validate=True)
        except (ValueError, TypeError):
            return None
        if len(raw) != 24:
            return None
        stamp, mac = raw[:8], raw[8:]
        if not hmac.compare_digest(mac, hmac.new(self.secret, stamp, hashlib.sha256).digest()[:16]):
            return None
        issued: float = struct.unpack(">d", stamp)[0]
        return self.clock() - issued

    def challenge(self, stale: bool = False) -> str:
        return (
            f'Digest realm="{REALM}", domain="", nonce="{self.nonce()}", algorithm=MD5, '
            f'qop="auth", stale={"true" if stale else "false"}'
        )

    def refuse(self, detail: str, stale: bool = False) -> ApiProblem:
        return ApiProblem(401, "UNAUTHORIZED", detail, [], {"WWW-Authenticate": self.challenge(stale)})

    def verify(self, credentials: str, method: str, uri: str) -> None:
        """Accept a Digest response for this request, or raise the 401 with a fresh challenge."""
        fields = parse_fields(credentials)
        required = ("username", "realm", "nonce", "uri", "response", "qop", "nc", "cnonce")
        if fields is None or any(name not in fields for name in required):
            raise self.refuse("The Digest authorization header is malformed.")
        if fields.get("algorithm", "MD5").upper() != "MD5" or fields["qop"] != "auth":
            raise self.refuse("Digest authentication here uses algorithm MD5 with qop auth.")
        if fields["realm"] != REALM or fields["uri"] != uri:
            raise self.refuse("The Digest realm or URI does not match this request.")
        age = self.nonce_age(fields["nonce"])
        if age is None or age < 0:
            raise self.refuse("The Digest nonce was not issued by this service.")
        expected = md5(
            ":".join(
                (
                    md5(f"{self.public_key}:{REALM}:{self.private_key}"),
                    fields["nonce"],
                    fields["nc"],
                    fields["cnonce"],
                    "auth",
                    md5(f"{method}:{uri}"),
                )
            )
        )
        valid = same(fields["username"], self.public_key) & same(fields["response"].lower(), expected)
        if not valid:
            raise self.refuse("You are not authorized for this resource.")
        if age > NONCE_LIFETIME:
            raise self.refuse("The Digest nonce has expired; use the new one.", stale=True)
