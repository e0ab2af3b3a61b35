"""The credentials a session holds or has shown, to be masked wherever they appear in a recording.

A HAR file's redaction (redaction.py) takes fields out by their names; these are the values
themselves, found however they are spelled: as they are, JSON-escaped, percent-encoded, in bytes
that are not UTF-8 (Latin-1, UTF-16, UTF-32). A session knows its client secret and private key from
the start, and learns its tokens from the traffic (a Bearer or Basic header, the token endpoint's
answer, a revoke form).
"""

from __future__ import annotations

import base64
import binascii
import codecs
import contextlib
import json
import threading
from collections.abc import Callable, Iterable
from urllib.parse import quote, quote_plus

from explorer.api.secret import Secret

REDACTED = "[redacted by explorer]"
CREDENTIAL_HEADERS = ("authorization", "proxy-authorization")
SHORTEST = 6  # a credential shorter than this is not looked for everywhere: ordinary words hold it


def spellings(value: str) -> set[str]:
    """The ways a value is written where it may be found: as it is, JSON-escaped, percent-encoded."""
    raw = value.encode("utf-8", "surrogateescape")  # a value from bytes that are not UTF-8 (an environment's)
    return {
        value,
        json.dumps(value)[1:-1],
        json.dumps(value, ensure_ascii=False)[1:-1],
        quote(raw, safe=""),
        quote(raw),
        quote_plus(raw),
    } - {""}


class KnownSecrets:
    """The credentials a session holds or has shown, to be masked wherever they appear.

    Shared by the threads that record exchanges together, so it keeps a lock. A value shorter than
    SHORTEST is not kept (ordinary words hold it; the field that carries it is redacted by name).

    Args:
        values: The credentials known from the start (a client secret, a private key).
    """

    def __init__(self, *values: str | Secret | None) -> None:
        self.lock = threading.Lock()
        self.values: frozenset[str] = frozenset()
        self.forms: tuple[str, ...] = ()  # every spelling of every value, the longest first
        self.add(*values)

    def add(self, *values: str | Secret | None) -> None:
        """Know these credentials too (empty and short ones are left out).

        Args:
            values: The credentials, as they are sent (or held: a Secret).
        """
        plain = (value.reveal() if isinstance(value, Secret) else value for value in values)
        new = {value for value in plain if value and len(value) >= SHORTEST} - self.values
        if not new:
            return
        with self.lock:
            self.values = self.values | new
            forms = {form for value in self.values for form in spellings(value)}
            self.forms = tuple(sorted(forms, key=len, reverse=True))

    def __repr__(self) -> str:  # never the values
        return f"KnownSecrets({len(self.values)} values)"

    def learn_header(self, name: str, value: str) -> None:
        """Know the credential an Authorization header carries: a Bearer token, a Basic password.

        Args:
            name: The header's name.
            value: Its value.
        """
        if name.lower() not in CREDENTIAL_HEADERS:
            return
        scheme, _, credential = value.strip().partition(" ")
        credential = credential.strip()
        if scheme.lower() == "digest":  # a digest of the key, not the key
            return
        self.add(credential)
        if scheme.lower() == "basic":
            try:
                pair = base64.b64decode(credential, validate=True).decode("utf-8")
            except (binascii.Error, UnicodeDecodeError):
                return
            self.add(pair.partition(":")[2])

    def learn_headers(self, headers: Iterable[tuple[str, str]]) -> None:
        """Know the credentials these headers carry (see learn_header).

        Args:
            headers: Name-value pairs.
        """
        for name, value in headers:
            self.learn_header(name, value)

    def learn_named(self, pairs: Iterable[tuple[str, str]], is_secret: Callable[[str], bool]) -> None:
        """Know the values of the secret-named pairs a person sent (`-H X-Api-Key: …`, `-q access_token=…`):
        a service may say them back anywhere (a `self` link, a Location, a body).

        Args:
            pairs: Name-value pairs (headers, a query), names as read.
            is_secret: Whether a name is a secret's (redaction.is_secret).
        """
        self.add(*(value for name, value in pairs if is_secret(name)))

    def found_in(self, text: str) -> bool:
        """Whether a known credential is in a text, in any of its spellings."""
        forms = self.forms
        return bool(forms) and any(form in text for form in forms)

    def mask(self, text: str) -> str:
        """A text with every known credential, in any of its spellings, replaced with REDACTED."""
        for form in self.forms:  # the longest first: a value within another goes with it
            if form in text:
                text = text.replace(form, REDACTED)
        return text

    def mask_bytes(self, data: bytes) -> bytes:
        """Bytes (a body that is not UTF-8, or holds NULs) with every known credential replaced with
        REDACTED, in whichever encoding it is found (see encodings), REDACTED written in that one.

        Args:
            data: The body as sent or received.

        Returns:
            The body with each credential found replaced; as it was when none is.
        """
        forms = [encodings(form) for form in self.forms]  # the longest first, as in mask
        for codec in codecs_for(data):
            for spelt in forms:
                encoded = spelt.get(codec)
                if encoded is not None and encoded in data:
                    data = data.replace(encoded, REDACTED.encode(codec))
        return data


# The encodings a body may hold a credential in: UTF-8, Latin-1, and those json.loads reads (RFC
# 4627's UTF-16 and UTF-32, either byte order), as a service that answers in them writes them.
CODECS = ("utf-8", "latin-1", "utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be")


# A byte order mark and the codec of what follows it; UTF-32-LE's begins with UTF-16-LE's, so first.
MARKS = (
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
)


def encoding_of(data: bytes) -> tuple[bytes, str]:
    """How json.loads reads a body (json.detect_encoding): by its byte order mark, else by where
    its first bytes are NUL (UTF-16 or UTF-32 without a mark), else as UTF-8.

    Args:
        data: The body as sent or received.

    Returns:
        The byte order mark it starts with (b"" when none), and the codec of the bytes after it.
    """
    for mark, codec in MARKS:
        if data.startswith(mark):
            return mark, codec
    return b"", json.detect_encoding(data)


def codecs_for(data: bytes) -> list[str]:
    """CODECS, the one json.loads reads `data` in first (a credential in UTF-16-LE holds its
    UTF-16-BE spelling a byte further on: masked in the body's own first, REDACTED stays readable)."""
    body_codec = encoding_of(data)[1]
    return [body_codec, *(codec for codec in CODECS if codec != body_codec)]


def encodings(text: str) -> dict[str, bytes]:
    """A text's bytes as a body may hold them: in UTF-8, Latin-1 (when it can be), UTF-16 and UTF-32
    (little and big endian), without a byte order mark.

    Args:
        text: A credential, as written in a text.

    Returns:
        Its bytes in each of CODECS that can write it, by the codec's name.
    """
    out = {}
    for codec in CODECS:
        with contextlib.suppress(UnicodeEncodeError):
            out[codec] = text.encode(codec)
    return out
