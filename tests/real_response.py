"""Read a recorded `.http` response: status line, headers, a blank line, the body as sent."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


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
