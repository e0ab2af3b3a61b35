"""The one-shot commands' private token cache.

It lets `explorer get` in a loop reuse one token instead of spending the token endpoint's ten
requests a minute. The file is private (0600, in a 0700 folder), named by origin and client ID,
and holds the token only encrypted with a key derived from the client secret: the file alone
opens nothing, and whoever has the secret could get a token anyway.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import json
import os
from pathlib import Path

from explorer.api.secret import Secret
from explorer.api.tokens import Token


class TokenCache:
    """One cached token for one origin and client ID, encrypted with the client secret."""

    def __init__(self, directory: Path, origin: str, client_id: str, secret: Secret) -> None:
        self.directory = directory
        self.origin = origin
        self.client_id = client_id
        # cryptography is imported only here: sessions without a cache (the screen) start faster.
        from cryptography.hazmat.primitives import hashes
        from cryptography.hazmat.primitives.kdf.hkdf import HKDF

        name = hashlib.sha256(f"{origin}\0{client_id}".encode()).hexdigest()[:32]
        self.path = directory / f"{name}.json"
        self.key = HKDF(
            algorithm=hashes.SHA256(),
            length=32,
            salt=b"explorer token cache 1",
            info=f"{origin}\0{client_id}".encode(),
        ).derive(secret.reveal().encode())

    def load(self, now: float) -> Token | None:
        """The cached token if it is ours and fresh; None (and no file) otherwise."""
        from cryptography.exceptions import InvalidTag
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM

        try:
            record = json.loads(self.path.read_text())
            header = {"origin": record["origin"], "clientId": record["clientId"]}
            if header != {"origin": self.origin, "clientId": self.client_id}:
                return None
            plain = AESGCM(self.key).decrypt(
                base64.b64decode(record["nonce"]),
                base64.b64decode(record["ciphertext"]),
                self.associated(record["issuedAt"], record["expiresAt"]),
            )
            token = Token(Secret(plain.decode()), float(record["issuedAt"]), float(record["expiresAt"]))
        except FileNotFoundError:
            return None
        except (OSError, ValueError, KeyError, TypeError, InvalidTag):
            self.delete()  # unreadable, or made with another secret: worthless
            return None
        return token if token.fresh(now) else None

    def save(self, token: Token) -> None:
        """Keep a token, encrypted with a key derived from the client secret (AES-GCM)."""
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM

        self.directory.mkdir(parents=True, exist_ok=True, mode=0o700)
        nonce = os.urandom(12)
        ciphertext = AESGCM(self.key).encrypt(
            nonce, token.value.reveal().encode(), self.associated(token.issued_at, token.expires_at)
        )
        record = {
            "origin": self.origin,
            "clientId": self.client_id,
            "issuedAt": token.issued_at,
            "expiresAt": token.expires_at,
            "nonce": base64.b64encode(nonce).decode(),
            "ciphertext": base64.b64encode(ciphertext).decode(),
        }
        partial = self.path.with_suffix(".tmp")
        fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as handle:
            json.dump(record, handle)
        os.replace(partial, self.path)

    def delete(self) -> bool:
        """Delete the kept token; whether there was one."""
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()
            return True
        return False

    def associated(self, issued_at: float, expires_at: float) -> bytes:
        """The data the encryption binds a token to: origin, client, and its times."""
        return json.dumps([self.origin, self.client_id, issued_at, expires_at]).encode()
