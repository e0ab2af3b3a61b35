"""A stand-in for the real service, answering with every one of its recorded responses.

What it serves, by method and path (the path rebuilt from the file name, every `_` a `/`, as
tests/real_response.py does; the recordings' `_1`, `_2`, `_5` suffixes are only the recorder's count):

- `/api/<vendor>/v2/…`, the current API, behind the real version rule: a request whose Accept names
  no version (`application/vnd.<vendor>.<DATE>+json`) is `406 INVALID_VERSION_DATE`, the real
  document and headers, whatever its path. A success is served in the version asked (its
  Content-Type says so); its recorded `Deprecation` and `Sunset` only when that is the version
  recorded, and those of `deprecated` (version -> Sunset) for the versions named there.
- `/api/atlas/v2` itself, the root, which was not recorded: as the real one answers, linking only
  itself (behind the version rule too).
- `/api/atlas/v1.0/…` and `/api/private/…` (the one v1.0 recording, the address lookup) without the
  rule, as the real v1.0 API takes plain JSON: as recorded.
- `/api/oauth/token` and `/api/oauth/revoke`: a token, and its revocation.
- Anything else: `404 RESOURCE_NOT_FOUND`, "Not recorded.".

Errors are served with their recorded headers (X-Error-Code, the Digest challenge, …); every answer
with its recorded rate-limit headers.

Several recordings share a path (a 200 and a later 404 of the same cluster, a GET and a POST of a
list). A request gets the recording of its method, the success first, else the lowest status.
The query parameter `recorded=STATUS` picks the recording of that status for the request's method,
and `recorded=STATUS_METHOD` (the file name's start, e.g. `401_POST`) that of another method: so a
GET — all the explorer's screen sends — reaches every recording. `target(file)` is the path and
query that reaches a recording with a GET.

`accepts` holds the Accept of every request to the versioned API, in order; `requests` every
request but the token endpoints' as (method, path and query, Accept); `served` the file name of
every recording served.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

from tests.real_response import read_recorded

VERSIONED = re.compile(r"application/vnd\.atlas\.(\d{4}-\d{2}-\d{2})\+json")
VERSIONED_API = re.compile(r"^/api/[A-Za-z0-9_-]+/v2(?:/|$)")
INVALID_VERSION = {
    "detail": "Invalid accept header or version date.",
    "error": 406,
    "errorCode": "INVALID_VERSION_DATE",
    "parameters": [],
    "reason": "Not Acceptable",
}
ROOT_PATH = "/api/atlas/v2"
BASE = "http://localhost:8080" + ROOT_PATH  # the host the recordings' links were rewritten to
NOT_RECORDED = {"error": 404, "errorCode": "RESOURCE_NOT_FOUND", "detail": "Not recorded.", "reason": "Not Found"}
NOT_REPLAYED = {"content-length", "connection", "transfer-encoding"}  # framing: the server's own


@dataclass(frozen=True)
class Recording:
    """One recorded response file and the request it answered."""

    file: Path
    status: int
    method: str
    path: str

    @classmethod
    def of(cls, file: Path) -> Recording:
        status, method, rest = file.stem.split("_", 2)
        return cls(file, int(status), method, "/" + rest.rsplit("_", 1)[0].replace("_", "/"))

    @property
    def versioned(self) -> bool:
        return VERSIONED_API.match(self.path) is not None


@dataclass(frozen=True)
class Request:
    method: str
    path: str  # with its query, as sent
    accept: str


class VersionedService:
    """An ASGI app: every recorded response under `folder`, by method and path, behind the real
    service's version rule on its versioned API."""

    def __init__(self, folder: Path, deprecated: dict[str, str] | None = None) -> None:
        self.recordings: dict[tuple[str, str, int], Recording] = {}
        for file in sorted(folder.glob("*.http")):
            recording = Recording.of(file)
            key = (recording.method, recording.path, recording.status)
            assert key not in self.recordings, f"{file.name} and {self.recordings[key].file.name} answer alike"
            self.recordings[key] = recording
        self.deprecated = deprecated or {}  # version -> its Sunset header
        self.accepts: list[str] = []  # the Accept of every request to the versioned API, in order
        self.requests: list[Request] = []
        self.served: list[str] = []  # the file name of every recording served, in order

    def target(self, file: Path) -> str:
        """The path (and query) at which a GET is answered with this recording."""
        recording = Recording.of(file)
        if self.first(recording.method, recording.path) == recording and recording.method == "GET":
            return recording.path
        if recording.method == "GET":
            return f"{recording.path}?recorded={recording.status}"
        return f"{recording.path}?recorded={recording.status}_{recording.method}"

    def first(self, method: str, path: str) -> Recording | None:
        """The recording a request of this method gets by default: a success first, else the lowest status."""
        here = [r for (m, p, _), r in self.recordings.items() if (m, p) == (method, path)]
        return min(here, key=lambda r: (r.status >= 300, r.status), default=None)

    def chosen(self, method: str, path: str, query: str) -> Recording | None:
        picked = parse_qs(query).get("recorded")
        if not picked:
            return self.first(method, path)
        status, _, other = picked[0].partition("_")
        if not status.isdigit():
            return None
        return self.recordings.get((other.upper() or method, path, int(status)))

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        assert scope["type"] == "http"
        headers = {name.decode().lower(): value.decode() for name, value in scope["headers"]}
        method, path, query = scope["method"], scope["path"], scope["query_string"].decode()
        if path == "/api/oauth/token":
            token = {"access_token": "stand-in", "token_type": "Bearer", "expires_in": 3600}
            return await answer(send, 200, {"content-type": "application/json"}, json.dumps(token).encode())
        if path == "/api/oauth/revoke":  # unversioned, like the token endpoint
            return await answer(send, 200, {}, b"")
        accept = headers.get("accept", "")
        self.requests.append(Request(method, f"{path}?{query}" if query else path, accept))
        version = VERSIONED.search(accept)
        if VERSIONED_API.match(path):
            self.accepts.append(accept)
            if version is None:
                headers_out = {"content-type": "application/json", "x-error-code": "INVALID_VERSION_DATE"}
                return await answer(send, 406, headers_out, json.dumps(INVALID_VERSION).encode())
        if path == ROOT_PATH and method == "GET":
            root = {"appName": "MongoDB Atlas", "links": [{"href": BASE, "rel": "self"}], "throttling": False}
            return await answer(send, 200, {"content-type": media(version)}, json.dumps(root).encode())
        recording = self.chosen(method, path, query)
        if recording is None:
            return await answer(send, 404, {"content-type": "application/json"}, json.dumps(NOT_RECORDED).encode())
        self.served.append(recording.file.name)
        recorded = read_recorded(recording.file)
        served = {name: value for name, value in recorded.headers.items() if name not in NOT_REPLAYED}
        if recording.versioned and recorded.status < 300 and version is not None:
            asked, was = version.group(1), VERSIONED.search(served.get("content-type", ""))
            if was is None or was.group(1) != asked:  # the recorded deprecation was of another version
                served = {name: value for name, value in served.items() if name not in ("deprecation", "sunset")}
            served["content-type"] = media(version)
            if asked in self.deprecated:
                served |= {"deprecation": "5 Aug 2024", "sunset": self.deprecated[asked]}
        await answer(send, recorded.status, served, recorded.body)


def media(version: re.Match[str]) -> str:
    """The Content-Type of a success: the version asked for."""
    return f"application/vnd.atlas.{version.group(1)}+json;charset=utf-8"


async def answer(send: Any, status: int, headers: dict[str, str], body: bytes) -> None:
    raw = [(name.encode(), value.encode("latin-1")) for name, value in headers.items()]
    raw.append((b"content-length", str(len(body)).encode()))
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": body})
