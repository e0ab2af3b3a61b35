"""Sessions as HTTP Archive (HAR 1.2) files: what was sent and received, secrets taken out.

HAR is what browsers and proxies exchange sessions in, and HAR files leak secrets: session tokens
taken from HAR files uploaded to a vendor's support were behind a well-known breach in 2023. So an
entry is redacted before it is written unless asked otherwise, by what it holds rather than by its
Content-Type (redaction.py): the Authorization and cookie headers, every field of a JSON or form
body, query or header whose name says it holds a secret (`password`, `privateKey`, `access_token`,
`token`, `client_secret`…), and the credentials themselves wherever they appear. Each is replaced
with REDACTED, and the entry's `_redacted` lists where. Every HAR path writes entries made by
`entry_of`: the recorder (`HarRecorder`) and the session's kept exchanges saved later (`archive`), each
with the credentials it has learnt (`KnownSecrets`).

`HarRecorder` writes a file that stays valid JSON after every entry (each is written with the
file's closing brackets, over the previous ones), so a killed program leaves a file browsers open;
`recording.read_recording` also takes a file whose last entry was cut off. A file explorer wrote is continued,
not replaced. The HAR is written by hand rather than with `harfile`, which writes its closing
brackets only when closed and cannot continue a file.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
import threading
from collections import deque
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

import httpx

from explorer import __version__
from explorer.api.known_secrets import REDACTED as REDACTED  # where the recordings' readers have it
from explorer.api.known_secrets import KnownSecrets
from explorer.api.local_paths import exists, is_dir, write_new
from explorer.api.recording import CREATOR, RecordingError, content_of, read_recording
from explorer.api.redaction import Redaction as Redaction
from explorer.api.redaction import is_secret as is_secret

SUFFIX = "\n]}}\n"
# Answer headers that hold a URL: their secret-named query parameters are taken out, as a sent URL's are.
URL_HEADERS = {"location", "content-location"}


def entry_of(
    response: httpx.Response,
    started: float,
    elapsed: float,
    redact: bool = True,
    known: KnownSecrets | None = None,
) -> dict[str, Any]:
    """One exchange as a HAR entry; `started` is the wall clock when it was sent, `elapsed` seconds.

    Redacted unless `redact` is False (redaction.py): by what each part holds, not by its label.

    Args:
        response: The answer, its request with it.
        started: The wall clock when the request was sent.
        elapsed: Seconds it took.
        redact: Whether to take the secrets out.
        known: The recording's credentials, to mask wherever they appear; it learns this
            exchange's (a token in the answer). Without it, the exchange's own are looked for.

    Returns:
        The entry, ready for json.dumps.
    """
    request = response.request
    redaction = Redaction(known=known if known is not None else KnownSecrets())
    request_headers = list(request.headers.multi_items())
    response_headers = list(response.headers.multi_items())
    query = parse_qsl(request.url.query.decode("ascii", "replace"), keep_blank_values=True)
    url = str(request.url)
    request_body, response_body = request.content, response.content
    location = response.headers.get("location", "")
    if redact:
        redaction.known.learn_headers([*request_headers, *response_headers])
        redaction.known.learn_named([*request_headers, *query], is_secret)
        request_headers = redaction.pairs(request_headers, "request/headers")
        response_headers = [
            (name, redaction.location(value, f"response/headers/{name}") if name.lower() in URL_HEADERS else value)
            for name, value in redaction.pairs(response_headers, "response/headers")
        ]
        url, query = redaction.url(request.url, "request")
        request_body, response_body = redaction.bodies(
            (request.content, "request/postData"), (response.content, "response/content")
        )
        location = redaction.location(location, "response/redirectURL") if location else ""
    version = response.http_version or "HTTP/1.1"
    content = content_of(response_body, response.headers.get("content-type", ""))
    content["size"] = len(response.content)
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
            "content": content,
            "redirectURL": location,
            "headersSize": -1,
            "bodySize": len(response.content),
        },
        "cache": {},
        "timings": {"send": 0, "wait": round(elapsed * 1000, 3), "receive": 0},
    }
    if request.content:
        mime = request.headers.get("content-type", "")
        entry["request"]["postData"] = {"mimeType": mime, "text": content_of(request_body, mime).get("text", "")}
    if redact:  # what the parts above do not look at (a status text, a header's name), looked at here
        entry = redaction.rest(entry, "")
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
    any other file is refused with RecordingError rather than overwritten. `secrets` are the
    credentials it masks wherever they appear: those the traffic shows are learnt as it records.
    """

    def __init__(self, path: Path, base_url: str, *, openapi: str | None = None, redact: bool = True) -> None:
        self.path = path
        self.redact = redact
        self.secrets = KnownSecrets()
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

    def record(
        self, response: httpx.Response, started: float, elapsed: float, known: KnownSecrets | None = None
    ) -> None:
        """Add one exchange: written over the file's closing brackets, which follow it again.

        Args:
            response: The answer, its request with it.
            started: The wall clock when the request was sent.
            elapsed: Seconds it took.
            known: The session's credentials (`Recent.secrets`), learnt into too; the recorder's
                own `secrets` when None.
        """
        secrets = self.secrets if known is None else known
        entry = json.dumps(entry_of(response, started, elapsed, self.redact, secrets)).encode("utf-8")
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
    file saved from here says how many it does not hold. `secrets` are the session's credentials,
    masked wherever they appear when it is saved: those it is given (a client secret, a private
    key), and every token its requests carried, learnt as they are kept, dropped ones' too.
    """

    def __init__(self, max_exchanges: int = 10_000, max_bytes: int = KEEP_BYTES) -> None:
        self.secrets = KnownSecrets()
        self.exchanges: deque[tuple[httpx.Response, float]] = deque()
        self.max_exchanges = max_exchanges
        self.max_bytes = max_bytes
        self.bytes = 0
        self.dropped = 0

    def keep(self, response: httpx.Response, started: float) -> None:
        """Keep one exchange, dropping the oldest beyond the limits (the token it carried is known)."""
        self.secrets.learn_headers(response.request.headers.multi_items())
        if not self.max_bytes:
            return
        self.exchanges.append((response, started))
        self.bytes += len(response.content) + len(response.request.content)
        while self.exchanges and (len(self.exchanges) > self.max_exchanges or self.bytes > self.max_bytes):
            old, _ = self.exchanges.popleft()
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
    exchanges = list(recent.exchanges)
    entries = [
        json.dumps(entry_of(response, started, elapsed(response), redact, recent.secrets))
        for response, started in exchanges
    ]
    return (preamble(base_url, openapi) + ",\n".join(entries) + SUFFIX).encode("utf-8"), len(entries)


def save(path: Path, data: bytes) -> None:
    """Write a HAR file as a new file at `path`, never over a file that is there.

    The file is its owner's alone (0600), as a recorder's is. Raises OSError (FileExistsError when the file
    is there) for the caller to say.
    """
    write_new(path, data)
