"""Sessions as HTTP Archive (HAR 1.2) files: what was sent and received, secrets taken out.

HAR is what browsers and proxies exchange sessions in, and HAR files leak secrets: session tokens
taken from HAR files uploaded to a vendor's support were behind a well-known breach in 2023. So an
entry is redacted before it is written unless asked otherwise: the Authorization and cookie headers,
the token endpoints' tokens (`access_token` in an answer, `token` in a revoke form), a client secret
in a form or query, and every JSON field whose name says it holds a secret (`password`,
`privateKey`, `apiToken`, `webhookSecret`, `bindPassword`…). Each is replaced with REDACTED, and
the entry's `_redacted` lists where.

`HarRecorder` writes a file that stays valid JSON after every entry (each is written with the
file's closing brackets, over the previous ones), so a killed program leaves a file browsers open;
`recording.read_recording` also takes a file whose last entry was cut off. A file explorer wrote is continued,
not replaced. The HAR is written by hand rather than with `harfile`, which writes its closing
brackets only when closed and cannot continue a file.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import re
import tempfile
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode

import httpx

from explorer import __version__
from explorer.api.local_paths import exists, is_dir
from explorer.api.recording import CREATOR, RecordingError, content_of, read_recording
from explorer.api.values import MOST_DEPTH, TooDeep, json_within

REDACTED = "[redacted by explorer]"
SECRET_HEADERS = {"authorization", "proxy-authorization", "cookie", "set-cookie"}
# Field names (compared lowercased, without _ and -) that hold a secret whatever their suffix says.
SECRET_NAMES = {
    "privatekey", "apikey", "secretkey", "servicekey", "routingkey", "licensekey", "accesskey",
    "passphrase", "token", "clientsecret", "credentials", "connectionstringpassword",
}  # fmt: skip
SECRET_ENDINGS = ("password", "secret", "token", "privatekey")
NOT_SECRET = {"tokentype", "tokenendpoint", "tokenurl"}
SUFFIX = "\n]}}\n"
# A JSON key that may name a secret (is_secret decides): found in the text first, so that a body
# without one is not parsed at all.
SECRET_KEY = re.compile(
    r'"[^"\\]{0,80}(?:password|secret|token|key|passphrase|credential)[^"\\]{0,80}"\s*:', re.IGNORECASE
)


@functools.lru_cache(maxsize=4096)  # an API's field names repeat in every item of every page
def is_secret(name: str) -> bool:
    """Whether a field, header or form parameter of this name holds a secret."""
    plain = re.sub(r"[_\-\s]", "", name).lower()
    if plain in NOT_SECRET:
        return False
    return plain in SECRET_NAMES or plain.endswith(SECRET_ENDINGS)


@dataclass
class Redaction:
    """What one entry had taken out, as its `_redacted` lists it."""

    places: list[str] = field(default_factory=list)

    def json(self, value: Any, where: str) -> Any:
        """`value` with every secret-named field's text (or number) replaced, however deep; a field
        whose value is an object or a list (an API description's `token` schema) is not a secret."""
        if isinstance(value, dict):
            out = {}
            for key, item in value.items():
                if isinstance(item, dict | list):
                    out[key] = self.json(item, f"{where}/{key}")
                elif isinstance(item, str | int) and item != "" and isinstance(key, str) and is_secret(key):
                    out[key] = REDACTED
                    self.places.append(f"{where}/{key}")
                else:
                    out[key] = item
            return out
        if isinstance(value, list):
            return [
                self.json(item, f"{where}/{index}") if isinstance(item, dict | list) else item
                for index, item in enumerate(value)
            ]
        return value

    def pairs(self, pairs: list[tuple[str, str]], where: str) -> list[tuple[str, str]]:
        """Name-value pairs (headers, a form, a query) with the values of secret-named ones replaced."""
        out = []
        for name, value in pairs:
            if (is_secret(name) or name.lower() in SECRET_HEADERS) and value:
                out.append((name, REDACTED))
                self.places.append(f"{where}/{name}")
            else:
                out.append((name, value))
        return out

    def body(self, text: str, mime: str, where: str) -> str:
        """A JSON or form body with its secrets replaced; other bodies as they are."""
        if "json" in mime:
            if not SECRET_KEY.search(text):
                return text  # no field is named like a secret: not worth parsing (most pages)
            try:
                document = json_within(text, MOST_DEPTH)  # the walk below goes one call a level
            except TooDeep:  # a field named like a secret, too deep to find: none of it is written
                self.places.append(where)
                return REDACTED
            except ValueError:
                return text
            found = len(self.places)
            redacted = self.json(document, where)
            return json.dumps(redacted) if len(self.places) > found else text
        if "x-www-form-urlencoded" in mime:
            pairs = parse_qsl(text, keep_blank_values=True)
            redacted = self.pairs(pairs, where)
            return urlencode(redacted) if redacted != pairs else text
        return text


def entry_of(response: httpx.Response, started: float, elapsed: float, redact: bool = True) -> dict[str, Any]:
    """One exchange as a HAR entry; `started` is the wall clock when it was sent, `elapsed` seconds."""
    request = response.request
    redaction = Redaction()
    keep = (lambda pairs, where: pairs) if not redact else redaction.pairs
    request_headers = keep(list(request.headers.multi_items()), "request/headers")
    response_headers = keep(list(response.headers.multi_items()), "response/headers")
    query = keep(parse_qsl(request.url.query.decode("ascii", "replace"), keep_blank_values=True), "request/query")
    url = str(request.url)
    if redact and query and any(value == REDACTED for _, value in query):
        url = str(request.url.copy_with(query=urlencode(query).encode()))
    version = response.http_version or "HTTP/1.1"
    entry: dict[str, Any] = {
        "startedDateTime": datetime.fromtimestamp(started, UTC).isoformat().replace("+00:00", "Z"),
        "time": round(elapsed * 1000, 3),
        "request": {
            "method": request.method,
            "url": url,
            "httpVersion": version,
            "cookies": [],
            "headers": [{"name": name, "value": value} for name, value in request_headers],
            "queryString": [{"name": name, "value": value} for name, value in query],
            "headersSize": -1,
            "bodySize": len(request.content),
        },
        "response": {
            "status": response.status_code,
            "statusText": response.reason_phrase,
            "httpVersion": version,
            "cookies": [],
            "headers": [{"name": name, "value": value} for name, value in response_headers],
            "content": content_of(response.content, response.headers.get("content-type", "")),
            "redirectURL": response.headers.get("location", ""),
            "headersSize": -1,
            "bodySize": len(response.content),
        },
        "cache": {},
        "timings": {"send": 0, "wait": round(elapsed * 1000, 3), "receive": 0},
    }
    if request.content:
        mime = request.headers.get("content-type", "")
        text = content_of(request.content, mime).get("text", "")
        entry["request"]["postData"] = {
            "mimeType": mime,
            "text": redaction.body(text, mime, "request/postData") if redact else text,
        }
    content = entry["response"]["content"]
    if redact and "encoding" not in content:
        content["text"] = redaction.body(content["text"], content["mimeType"], "response/content")
    entry["_redacted"] = redaction.places
    return entry


def preamble(base_url: str, openapi: str | None = None) -> str:
    """The file's opening, up to its entries: HAR 1.2, explorer as its creator, and what a replay
    needs of the session: its base URL and its API description's source."""
    log = {
        "version": "1.2",
        "creator": {"name": CREATOR, "version": __version__},
        "pages": [],
        "_explorer": {"baseUrl": base_url, "openapi": openapi},
    }
    opening = json.dumps({"log": log}, indent=None)
    return opening[: -len("}}")] + ', "entries": [\n'


class HarRecorder:
    """Write each exchange of a session to a HAR file as it happens, redacted unless `redact` is False.

    An existing file that explorer wrote is continued (its entries kept, a cut-off last one dropped);
    any other file is refused with RecordingError rather than overwritten.
    """

    def __init__(self, path: Path, base_url: str, *, openapi: str | None = None, redact: bool = True) -> None:
        self.path = path
        self.redact = redact
        entries = self.continued(path)
        self.count = len(entries)
        self.writing = threading.Lock()
        text = preamble(base_url, openapi) + ",\n".join(json.dumps(entry) for entry in entries) + SUFFIX
        written: str | None = None
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            with tempfile.NamedTemporaryFile("w", dir=path.parent, delete=False, encoding="utf-8") as out:
                written = out.name
                out.write(text)
            os.replace(written, path)
            written = None
            self.file = path.open("r+b")
        except OSError as error:
            if written is not None:  # never left behind beside the file it was to become
                Path(written).unlink(missing_ok=True)
            raise RecordingError(f"Cannot write the HAR file {path}: {error.strerror or error}") from None
        self.file.seek(0, os.SEEK_END)

    @staticmethod
    def continued(path: Path) -> list[dict[str, Any]]:
        """The entries a recording into `path` continues (none for a new file); RecordingError when
        `path` cannot be recorded into: a folder, or a file explorer did not write.

        The screen asks this at its start, before any session, so a login form is not filled in
        for a recording that could never be written.
        """
        if is_dir(path):
            raise RecordingError(f"{path} is a folder: a HAR recording is written to a file")
        if not (exists(path) and path.stat().st_size):
            return []
        recording = read_recording(path)
        if recording.creator != CREATOR:
            raise RecordingError(
                f"{path} is a file explorer did not write: it is left as it is",
                hint="Record into a new file, or one explorer wrote before (it is continued).",
            )
        return recording.entries

    def record(self, response: httpx.Response, started: float, elapsed: float) -> None:
        """Add one exchange: written over the file's closing brackets, which follow it again."""
        entry = json.dumps(entry_of(response, started, elapsed, self.redact)).encode("utf-8")
        with self.writing:  # requests in flight together are recorded from threads of their own
            self.file.seek(-len(SUFFIX), os.SEEK_END)
            self.file.write((b",\n" if self.count else b"") + entry + SUFFIX.encode())
            self.file.truncate()
            self.file.flush()
            self.count += 1

    def close(self) -> None:
        """Close the file; it is valid HAR already, as after every entry."""
        self.file.close()

    def abandon(self) -> None:
        """Close the file after a write failed, dropping what could not be written (not again at exit)."""
        with contextlib.suppress(OSError):
            self.file.close()


KEEP_BYTES = 64 * 1024 * 1024  # bodies a session keeps whole for "save as HAR"; the oldest go first


class Recent:
    """The session's last exchanges whole (request, answer, when), for saving it as HAR later.

    At most KEEP_BYTES of bodies and LOG_SIZE exchanges: older ones are dropped and counted, so a
    file saved from here says how many it does not hold.
    """

    def __init__(self, most: int = 10_000, most_bytes: int = KEEP_BYTES) -> None:
        self.kept: deque[tuple[httpx.Response, float]] = deque()
        self.most = most
        self.most_bytes = most_bytes
        self.bytes = 0
        self.dropped = 0

    def keep(self, response: httpx.Response, started: float) -> None:
        """Keep one exchange, dropping the oldest beyond the limits."""
        if not self.most_bytes:
            return
        self.kept.append((response, started))
        self.bytes += len(response.content) + len(response.request.content)
        while self.kept and (len(self.kept) > self.most or self.bytes > self.most_bytes):
            old, _ = self.kept.popleft()
            self.bytes -= len(old.content) + len(old.request.content)
            self.dropped += 1


def archive(
    base_url: str,
    recent: Recent,
    elapsed: Callable[[httpx.Response], float],
    *,
    openapi: str | None = None,
    redact: bool = True,
) -> tuple[bytes, int]:
    """The kept exchanges as a whole HAR file, and how many they are: to write (`save`), or to send
    to a browser as a download (explorer serve), where nothing goes on the server's disk."""
    entries = [json.dumps(entry_of(response, started, elapsed(response), redact)) for response, started in recent.kept]
    return (preamble(base_url, openapi) + ",\n".join(entries) + SUFFIX).encode("utf-8"), len(entries)


def save(path: Path, data: bytes) -> None:
    """Write a HAR file as a new file at `path`, never over a file that is there.

    Raises OSError (FileExistsError when the file is there) for the caller to say.
    """
    with path.open("xb") as out:
        out.write(data)
