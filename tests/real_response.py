"""Read a recorded `.http` response: status line, headers, a blank line, the body as sent."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import httpx

from explorer.api.resource import Resource


@dataclass
class Recorded:
    status: int
    headers: dict[str, str]
    body: bytes


def read_recorded(path: Path) -> Recorded:
    raw = path.read_bytes()
    head, _, body = raw.partition(b"\n\n")
    lines = head.decode("latin-1").splitlines()
    status = int(lines[0].split()[1])
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return Recorded(status, headers, body)


def as_resource(path: Path) -> Resource:
    """A recorded response as the client would hold it, its URL rebuilt from its file name."""
    recorded = read_recorded(path)
    status, method, rest = path.stem.split("_", 2)
    route = rest.rsplit("_", 1)[0].replace("_", "/")
    return Resource(
        method=method,
        url=f"http://localhost:8080/{route}",
        status=recorded.status,
        headers=httpx.Headers(list(recorded.headers.items())),
        request_headers=[("authorization", "Digest ***")],
        body=recorded.body,
        elapsed=0.1,
        received_at=1_786_330_000.0,
    )
