r"""Secrets taken out of what is written to a HAR file: by what a body holds, never by its label.

A Content-Type can say anything (`Application/JSON`, `text/plain`, nothing at all), so a body is
judged by what it parses as. One that parses as JSON has every field whose name says it holds a
secret replaced, the name compared as a JSON reader reads it: escapes undone, case folded, `_`, `-`
and spaces left out (`"pass\u0077ord"` and `"PASS_WORD"` are both `password`). One that has a
form's shape (`name=value&…`) the same, its names percent-decoded. A secret-named field's value is
replaced whole, whatever its shape (an object, a list); a name given twice has each of its fields
looked at, and such a body is always written again (body_reading.py). A body in bytes that are not
UTF-8 is read with those bytes kept as they are (surrogateescape) and written back in them.

The credentials themselves are masked wherever they appear, whatever the field: in a header, a URL,
a cookie, a body that is neither JSON nor a form, spelled plainly, with JSON escapes or
percent-encoded. `KnownSecrets` holds them: those the session is given (its client secret, its
private key) and those the traffic shows (a Bearer or Basic header, the token endpoint's answer, a
revoke form), so the session's current and past tokens are all known.

Most pages hold no secret, and a large one is not parsed to find that out. A body is looked at first
with its JSON escapes undone where they stand (cheap: no parse), so that every key and value in it
is there as a reader reads it; it is parsed only when that text holds a word secrets' names hold
(`password`, `secret`, `token`, `key`…, case folded, separators left out) or a known credential, or
when it has a form's shape. A look that says no cannot be wrong: no escape can hide from it.
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, unquote, urlencode

import httpx

from explorer.api.body_reading import Pairs, Read, fields_of, is_form, read, written
from explorer.api.known_secrets import REDACTED, KnownSecrets, encoding_of

SECRET_HEADERS = frozenset({"authorization", "proxy-authorization", "cookie", "set-cookie"})
# Field names (compared flat: see `flat`) that hold a secret whatever their suffix says.
SECRET_NAMES = {
    "privatekey", "apikey", "secretkey", "servicekey", "routingkey", "licensekey", "accesskey",
    "passphrase", "token", "clientsecret", "credentials", "connectionstringpassword",
}  # fmt: skip
SECRET_ENDINGS = ("password", "secret", "token", "privatekey", "apikey", "passwd", "pwd")
# Words that make any name a secret's wherever they stand in it: `passwordConfirm`, `password2`,
# `password_old`, `passwordHash` hold a password, or one's near kin, as often as `password` does.
SECRET_WITHIN = ("password", "passwd", "passphrase")
NOT_SECRET = {"tokentype", "tokenendpoint", "tokenurl"}
# Every name `is_secret` takes holds one of these once flat: a text that holds none names no secret.
WORDS = ("password", "secret", "token", "key", "passphrase", "credential", "passwd", "pwd")
# The fields that carry the session's own credentials (a token endpoint's answer, a revoke form, a
# client secret sent in a form): their values are learnt, and masked wherever they appear.
CREDENTIALS = {"accesstoken", "refreshtoken", "idtoken", "token", "clientsecret"}
STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)  # a JSON string, in a text that is not JSON
# A JSON escape as a reader undoes it: a surrogate pair (one character), a \\uXXXX, or a character.
ESCAPE = re.compile(
    r"\\u([dD][89abAB][0-9a-fA-F]{2})\\u([dD][c-fC-F][0-9a-fA-F]{2})|\\u([0-9a-fA-F]{4})|\\(.)", re.DOTALL
)
UNESCAPED = {"b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
PAIR = re.compile(r'("(?:[^"\\]|\\.)*")(\s*:\s*)("(?:[^"\\]|\\.)*"|-?\d[\d.eE+\-]*)', re.DOTALL)


def flat(name: str) -> str:
    """A name as secrets are compared: case folded, without `_`, `-` and white space (any: str.split's)."""
    return "".join(name.split()).replace("_", "").replace("-", "").casefold()


@functools.lru_cache(maxsize=4096)  # an API's field names repeat in every item of every page
def is_secret(name: str) -> bool:
    """Whether a field, header or form parameter of this name holds a secret.

    Args:
        name: The name as read (JSON escapes undone, percent-decoding done).

    Returns:
        True for `password`, `clientSecret`, `PASS_WORD`, `x-api-key`, `passwordConfirm`, `pwd`…;
        False for `token_type`.
    """
    plain = flat(name)
    if plain in NOT_SECRET:
        return False
    return plain in SECRET_NAMES or plain.endswith(SECRET_ENDINGS) or any(word in plain for word in SECRET_WITHIN)


def holds_a_word(text: str) -> bool:
    """Whether a text holds, once flat, one of the WORDS (each secret's name holds one)."""
    plain = flat(text)
    return any(word in plain for word in WORDS)


def unescaped(text: str) -> str:
    """A text with its JSON escapes undone where they are, the rest as it is: every JSON string in
    it, a key or a value, is then in it as a reader reads it (so a look at this text is not fooled)."""
    return ESCAPE.sub(escaped, text) if "\\" in text else text


def escaped(match: re.Match[str]) -> str:
    """What one JSON escape (or a surrogate pair of them) spells."""
    if match[1]:
        return chr(0x10000 + ((int(match[1], 16) - 0xD800) << 10) + int(match[2], 16) - 0xDC00)
    if match[3]:
        return chr(int(match[3], 16))
    return UNESCAPED.get(match[4], match[4])


@dataclass(frozen=True)
class Look:
    """What a body was seen to hold, before (and instead of) parsing it, its escapes undone."""

    plain: str  # the body, its JSON escapes undone (unescaped)
    names: bool  # a word every secret's name holds: a field may be named like a secret
    credentials: bool  # a word a credential field's name holds (`token`, `secret`): one may be learnt
    known: bool  # a known credential


@dataclass
class Redaction:
    """What one entry had taken out, as its `_redacted` lists it, and the credentials it looks for.

    `known` is shared with the recording (every entry learns into it); one made without is its own.
    """

    places: list[str] = field(default_factory=list)
    known: KnownSecrets = field(default_factory=KnownSecrets)
    taken_out: int = 0  # how many times something was (a place may be named once for several)

    def taken(self, where: str) -> None:
        """Note a place something was taken out of (once); a place named by a credential (a key that
        is one) is named with it masked."""
        self.taken_out += 1
        if self.known.found_in(where):
            where = self.known.mask(where)
        if where not in self.places:
            self.places.append(where)

    def look(self, text: str) -> Look:
        """What a body holds, seen without parsing it (see Look)."""
        plain = unescaped(text)
        folded = flat(plain)
        return Look(
            plain,
            any(word in folded for word in WORDS),
            "token" in folded or "secret" in folded,
            self.known.found_in(plain),
        )

    # Learning ----------------------------------------------------------------------------------

    def learn(self, value: Any) -> None:
        """Know the credentials a document carries in its credential fields (`access_token`, `token`…),
        every one of a name given twice."""
        if isinstance(value, dict | Pairs):
            for key, item in fields_of(value):
                if isinstance(item, dict | list):
                    self.learn(item)
                elif isinstance(item, str) and isinstance(key, str) and flat(key) in CREDENTIALS:
                    self.known.add(item)
        elif isinstance(value, list):
            for item in value:
                self.learn(item)

    def learn_read(self, body: Read) -> None:
        """Know the credentials a body carries (see learn)."""
        if body.kind == "json":
            self.learn(body.document)
        elif body.kind == "form":
            self.known.add(*(value for name, value in body.document if flat(name) in CREDENTIALS))

    # Redacting ---------------------------------------------------------------------------------

    def string(self, text: str, where: str) -> str:
        """A text with the known credentials masked (the place noted when one was)."""
        if not self.known.found_in(text):
            return text
        self.taken(where)
        return self.known.mask(text)

    def json(self, value: Any, where: str) -> Any:
        """`value` with every secret-named field's value replaced, however deep, and every known
        credential masked, in a key or a value. A secret-named field holds a secret whatever its
        shape: its value is replaced whole, a text, a number, an object or a list (`{"apiKey":
        {"value": …}}`, `{"password": ["…"]}`). Every field of an object that gives a name twice
        (Pairs) is looked at, not only the last, as a JSON reader keeps.

        Args:
            value: A JSON document (or part of one).
            where: Its place, as `_redacted` names it.

        Returns:
            The document redacted (a new one; `value` is left as it was).
        """
        return self.walk(value, where, True, bool(self.known.forms))

    def walk(self, value: Any, where: str, names: bool, known: bool) -> Any:
        """json(), looking for secret-named fields when `names`, for known credentials when `known`."""
        if isinstance(value, dict | Pairs):
            out = []
            for key, item in fields_of(value):
                name = self.string(key, f"{where}/{key}") if known and isinstance(key, str) else key
                if names and isinstance(key, str) and is_secret(key) and filled(item):
                    out.append((name, REDACTED))
                    self.taken(f"{where}/{key}")
                elif isinstance(item, dict | list):
                    out.append((name, self.walk(item, f"{where}/{key}", names, known)))
                else:
                    out.append((name, self.leaf(item, f"{where}/{key}") if known else item))
            return Pairs(out) if isinstance(value, Pairs) else dict(out)
        if isinstance(value, list):
            return [
                self.walk(item, f"{where}/{index}", names, known)
                if isinstance(item, dict | list)
                else self.leaf(item, f"{where}/{index}")
                if known
                else item
                for index, item in enumerate(value)
            ]
        return self.leaf(value, where) if known else value

    def leaf(self, value: Any, where: str) -> Any:
        """A text or number with the known credentials masked (a number holding one is one)."""
        if isinstance(value, str):
            return self.string(value, where)
        if scalar(value) and self.known.found_in(str(value)):
            self.taken(where)
            return REDACTED
        return value

    def pairs(self, pairs: list[tuple[str, str]], where: str) -> list[tuple[str, str]]:
        """Name-value pairs (headers, a form, a query) with the values of secret-named ones replaced,
        and the known credentials masked in the rest."""
        out = []
        for name, value in pairs:
            if (is_secret(name) or name.lower() in SECRET_HEADERS) and value:
                out.append((self.string(name, f"{where}/{name}"), REDACTED))
                self.taken(f"{where}/{name}")
            else:
                out.append((self.string(name, f"{where}/{name}"), self.string(value, f"{where}/{name}")))
        return out

    def text(self, text: str, where: str) -> str:
        """A body that is neither JSON nor a form: the known credentials masked, however spelled, and
        the values of secret-named `"name": value` pairs replaced (JSON cut off, say)."""
        was = text
        if "\\" in text or holds_a_word(text):
            text = PAIR.sub(secret_pair, text)
            if self.known.forms:
                text = STRING.sub(self.literal, text)
        text = self.known.mask(text)
        if text != was:
            self.taken(where)
        return text

    def literal(self, match: re.Match[str]) -> str:
        """A JSON string with escapes, in a text that is not JSON: masked where it holds a credential."""
        if "\\" not in match[0]:
            return match[0]
        try:
            decoded = json.loads(match[0])
        except ValueError:
            return match[0]
        return json.dumps(self.known.mask(decoded)) if self.known.found_in(decoded) else match[0]

    def body(self, text: str, mime: str, where: str) -> str:
        """A body with its secrets replaced, judged by what it holds: `mime`, its label, is not
        trusted (`text/plain` may hold a token endpoint's JSON), and is not used.

        Args:
            text: The body, decoded.
            mime: Its Content-Type, as labelled.
            where: Its place, as `_redacted` names it.

        Returns:
            The body as it was when it holds no secret; else redacted (JSON written again).
        """
        del mime  # a label, not what the body is
        # A text that starts with NULs may be read as UTF-16, and written back so: replaced, not raised.
        return self.bodies((text.encode("utf-8"), where))[0].decode("utf-8", "replace")

    def bodies(self, *bodies: tuple[bytes, str]) -> list[bytes]:
        r"""An exchange's bodies redacted: the credentials each carries are learnt first, so that one
        the answer carries is masked in the request too.

        A body is decoded as json.loads decodes it (json.detect_encoding: a byte order mark, UTF-16
        or UTF-32 by its NULs, else UTF-8), so that what parses as JSON here is what any reader of
        the file parses as JSON. A UTF-8 body is parsed only when a look (see Look) finds what a
        secret would need, or it has a form's shape; the rest go as they are. One that is not valid
        UTF-8 (a `\xe9` in Latin-1, a stray `\xff`) is read the same way, each byte that is not
        UTF-8 kept as it is (surrogateescape), redacted by name and written back in its own bytes,
        the known credentials masked in them in any encoding (see masked_bytes). One in UTF-16,
        UTF-32 or with a byte order mark that parses as JSON is redacted as JSON and written as its
        text (in UTF-8, as a HAR's text is); any other has the known credentials masked in its
        bytes, in any encoding (see in_bytes).

        Args:
            bodies: Each body as sent or received, and its place.

        Returns:
            The bodies redacted, in order.
        """
        seen: list[tuple[str, Look, Read | None, bool] | None] = []
        for data, _ in bodies:
            mark, codec = encoding_of(data)
            lossy = False
            try:
                text = data[len(mark) :].decode(codec)
            except UnicodeDecodeError:
                if codec != "utf-8":
                    seen.append(None)
                    continue
                text, lossy = data[len(mark) :].decode(codec, "surrogateescape"), True
            look = self.look(text)
            body: Read | None
            if mark or codec != "utf-8":  # UTF-16, UTF-32, a BOM: JSON (as json.loads reads it), or bytes
                body = read(text)
                if body.kind not in ("json", "deep"):
                    seen.append(None)
                    continue
            else:
                body = read(text) if look.names or look.known or is_form(text) else None
            if body is not None and look.credentials:
                self.learn_read(body)
            seen.append((text, look, body, lossy))
        out = []
        for (data, where), one in zip(bodies, seen, strict=True):
            if one is None:
                out.append(self.in_bytes(data, where))
                continue
            text, look, body, lossy = one
            known = self.known.found_in(look.plain)  # again: this exchange may have taught one
            if body is None and known:
                body = read(text)
            written = data
            if body is not None:
                written = in_own_bytes(self.redacted(text, body, where, look.names, known, lossy), lossy)
            if lossy or b"\0" in written:  # a credential in another encoding: no UTF-8 reading shows it
                written = self.masked_bytes(written, where)
            out.append(written)
        return out

    def in_bytes(self, data: bytes, where: str) -> bytes:
        """A body in UTF-16 or UTF-32 (as json.loads reads it) that is neither JSON nor text in that
        encoding: the known credentials masked in its bytes (see KnownSecrets.mask_bytes); and, where
        it is text in that encoding or in UTF-8, redacted as text (see text), written again in that
        encoding. One in which that finds no secret-named pair, but whose bytes (NULs, case and
        separators left out) hold a word a secret's name holds, is taken out whole: its fields
        cannot be told apart to take out one (a UTF-16 text, bytes that read as no text)."""
        data = self.masked_bytes(data, where)
        mark, codec = encoding_of(data)
        found = self.taken_out
        for prefix, encoding in dict.fromkeys([(mark, codec), (b"", "utf-8")]):  # its own reading first
            try:
                text = data[len(prefix) :].decode(encoding)
            except UnicodeDecodeError:
                continue
            redacted = self.text(text, where)
            if redacted != text:
                data = prefix + redacted.encode(encoding)
        if self.taken_out == found and holds_a_word(data.replace(b"\0", b"").decode("latin-1")):
            self.taken(where)
            return REDACTED.encode()
        return data

    def masked_bytes(self, data: bytes, where: str) -> bytes:
        """Bytes with the known credentials masked, in any encoding (the place noted when one was)."""
        masked = self.known.mask_bytes(data)
        if masked != data:
            self.taken(where)
        return masked

    def redacted(self, text: str, body: Read, where: str, names: bool, known: bool, lossy: bool = False) -> str:
        """A body redacted by what it was read as (see read); `names` and `known` say what to look
        for in a JSON one (secret-named fields, known credentials). A JSON one is written again when
        something was taken out or an object in it gives a name twice (never as it came: its last
        field, all a reader sees, may be the harmless one); `lossy` when `text` holds bytes that are
        not UTF-8 (surrogateescape): what is not ASCII is then written as it is, to go back to them."""
        found = self.taken_out
        if body.kind == "json":
            redacted = self.walk(body.document, where, names, known)
            changed = self.taken_out > found or body.twice
            return written(redacted, twice=body.twice, ascii=not lossy) if changed else text
        if body.kind == "deep":  # too deep to walk for the secrets it may hold: none of it is written
            self.taken(where)
            return REDACTED
        if body.kind == "form":
            pairs = self.pairs(body.document, where)
            return urlencode(pairs, errors="surrogateescape") if self.taken_out > found else text
        return self.text(text, where)

    def url(self, url: httpx.URL, where: str) -> tuple[str, list[tuple[str, str]]]:
        """A URL with the values of secret-named query parameters, a password in it and the known
        credentials (in its path or anywhere) replaced; and its query's pairs, so redacted.

        Args:
            url: The URL as sent.
            where: Its place (`request`): the query's is `{where}/query`.

        Returns:
            The URL as text, and its query's name-value pairs.
        """
        pairs = parse_qsl(url.query.decode("ascii", "replace"), keep_blank_values=True)
        query = self.pairs(pairs, f"{where}/query")
        changed = query != pairs
        path = unquote(url.path)
        if self.known.found_in(path):
            url = url.copy_with(path=self.known.mask(path))
            self.taken(f"{where}/url")
        if url.password:
            url = url.copy_with(password=REDACTED)
            self.taken(f"{where}/url")
        if changed:
            url = url.copy_with(query=urlencode(query).encode())
        return self.string(str(url), f"{where}/url"), query

    def location(self, value: str, where: str) -> str:
        """A URL the service gave (a redirect's Location), redacted as a URL sent is."""
        try:
            url = httpx.URL(value)
        except (httpx.InvalidURL, TypeError):
            return self.string(value, where)
        found = self.taken_out
        redacted, _ = self.url(url, where)
        return redacted if self.taken_out > found else value

    def rest(self, value: Any, where: str) -> Any:
        """Every text of an entry (a status text, a header's name, a MIME type) with the known
        credentials masked: what the fields above do not look at is looked at here."""
        if isinstance(value, dict):
            return {key: self.rest(item, f"{where}/{key}") for key, item in value.items()}
        if isinstance(value, list):
            return [self.rest(item, where) for item in value]
        if isinstance(value, str):
            return self.string(value, where)
        return value


def secret_pair(match: re.Match[str]) -> str:
    """A `"name": value` pair found in a text that is not JSON, its value replaced if the name is a secret's."""
    try:
        name = json.loads(match[1])
    except ValueError:
        return match[0]
    return f"{match[1]}{match[2]}{json.dumps(REDACTED)}" if is_secret(name) else match[0]


def in_own_bytes(text: str, lossy: bool) -> bytes:
    r"""A redacted body's text as bytes: UTF-8, the bytes that were not UTF-8 (`lossy`: kept as
    surrogateescape keeps them) back as they were. A lone surrogate a JSON escape spelled, written
    as it is, is written as that escape again (`\udXXX`)."""
    try:
        return text.encode("utf-8", "surrogateescape" if lossy else "strict")
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace")


def filled(value: Any) -> bool:
    """Whether a secret-named field's value holds something to take out: a text that is not empty,
    a number, or an object or list that is not empty (true, false and null say nothing)."""
    if isinstance(value, dict | list):
        return len(value) > 0
    return scalar(value) and value != ""


def scalar(value: Any) -> bool:
    """Whether a JSON value is a text or a number (not true, false or null)."""
    return isinstance(value, str | int | float) and not isinstance(value, bool)
