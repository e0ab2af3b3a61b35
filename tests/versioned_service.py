"""A stand-in for the real service's versioned API, answering with its recorded responses.

Like the real `/api/<vendor>/v2`, it answers any request whose Accept names no version with
`406 INVALID_VERSION_DATE` (the real document and headers), gives a token at the token
endpoint, and answers a recorded path with its recorded response. A version listed in
`deprecated` is answered with `Deprecation` and `Sunset`, as the real service does.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from tests.real_response import read_recorded

VERSIONED = re.compile(r"application/vnd\.atlas\.(\d{4}-\d{2}-\d{2})\+json")
INVALID_VERSION = {
    "detail": "Invalid accept header or version date.",
    "error": 406,
    "errorCode": "INVALID_VERSION_DATE",
    "parameters": [],
    "reason": "Not Acceptable",
}


class VersionedService:
    """An ASGI app: the recorded 200s under `folder`, by path, behind the real service's version rule."""

    def __init__(self, folder: Path, deprecated: dict[str, str] | None = None) -> None:
        self.recorded: dict[str, Path] = {}
        for path in sorted(folder.glob("200_GET_api_atlas_v2_*.http")):
            route = "/" + path.stem.split("_", 2)[2].rsplit("_", 1)[0].replace("_", "/")
            self.recorded.setdefault(route, path)
        self.deprecated = deprecated or {}  # version -> its Sunset header
        self.accepts: list[str] = []  # the Accept of every API request, in order

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        assert scope["type"] == "http"
        headers = {name.decode().lower(): value.decode() for name, value in scope["headers"]}
        path = scope["path"]
        if path == "/api/oauth/token":
            token = {"access_token": "stand-in", "token_type": "Bearer", "expires_in": 3600}
            return await answer(send, 200, {"content-type": "application/json"}, json.dumps(token).encode())
        if path == "/api/oauth/revoke":  # unversioned, like the token endpoint
            return await answer(send, 200, {}, b"")
        accept = headers.get("accept", "")
        self.accepts.append(accept)
        version = VERSIONED.search(accept)
        if version is None:
            headers_out = {"content-type": "application/json", "x-error-code": "INVALID_VERSION_DATE"}
            return await answer(send, 406, headers_out, json.dumps(INVALID_VERSION).encode())
        recorded_path = self.recorded.get(path)
        if recorded_path is None:
            missing = {
                "error": 404,
                "errorCode": "RESOURCE_NOT_FOUND",
                "detail": "Not recorded.",
                "reason": "Not Found",
            }
            return await answer(send, 404, {"content-type": "application/json"}, json.dumps(missing).encode())
        recorded = read_recorded(recorded_path)
        served = {"content-type": f"application/vnd.atlas.{version.group(1)}+json;charset=utf-8"}
        if version.group(1) in self.deprecated:
            served |= {"deprecation": "5 Aug 2024", "sunset": self.deprecated[version.group(1)]}
        await answer(send, recorded.status, served, recorded.body)


async def answer(send: Any, status: int, headers: dict[str, str], body: bytes) -> None:
    raw = [(name.encode(), value.encode()) for name, value in headers.items()]
    raw.append((b"content-length", str(len(body)).encode()))
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": body})
