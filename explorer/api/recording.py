"""Reading a recorded session: a HAR file, whole or cut off by a killed writer, or a folder of answers.

A HAR file is read as JSON; when that fails because the writer was killed in the middle of an
entry, its head and every whole entry before the cut are read instead. A folder of `.http` files,
the test fixtures' format (`STATUS_METHOD_path_with_underscores_N.http`: a status line, headers, the
body), reads as a recording of GETs at HTTP_ORIGIN, where they were recorded.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

from explorer.api.errors import ConfigError
from explorer.api.json_decoder import deeper_than
from explorer.api.values import MAX_DEPTH_LIMIT, TooDeep, json_within

CREATOR = "explorer"  # the HAR creator name of files explorer wrote (and continues)
HTTP_ORIGIN = "http://localhost:8080"  # where the .http fixtures were recorded (their NOTICE)


class RecordingError(ConfigError):
    """A HAR file (or folder of recordings) that cannot be read, written or continued."""


@dataclass
class Recording:
    """What a HAR file holds: who wrote it, the session's base URL if explorer did, its entries."""

    creator: str
    base_url: str | None
    entries: list[dict[str, Any]]
    openapi: str | None = None
    cut: bool = False  # the file ended inside an entry: those before it were read


def read_recording(path: Path) -> Recording:
    """Read a HAR file, whole or cut off by a killed writer. Raises RecordingError when it is not HAR."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise RecordingError(f"Cannot read {path}: {getattr(error, 'strerror', None) or error}") from None
    try:
        document = json_within(text, MAX_DEPTH_LIMIT)
    except TooDeep:
        raise RecordingError(f"{path} is not a HAR file: its JSON nests more than {MAX_DEPTH_LIMIT} levels") from None
    except ValueError:
        return read_cut(path, text)
    log = document.get("log") if isinstance(document, dict) else None
    if not isinstance(log, dict) or not isinstance(log.get("entries"), list):
        raise RecordingError(f"{path} is not a HAR file: it has no log.entries")
    entries = [e for e in log["entries"] if isinstance(e, dict)]
    return Recording(creator_of(log), explorer_field(log, "baseUrl"), entries, explorer_field(log, "openapi"))


def read_cut(path: Path, text: str) -> Recording:
    """A HAR file that ends inside its entries: the log's head, and every whole entry before the cut."""
    start = text.find('"entries"')
    bracket = text.find("[", start)
    if start < 0 or bracket < 0:
        raise RecordingError(f"{path} is not a HAR file (nor the start of one)")
    try:
        head = json_within(text[:start].rstrip().rstrip(",") + "}}", MAX_DEPTH_LIMIT)["log"]
    except (ValueError, KeyError, TypeError):  # TooDeep is a ValueError
        head = {}
    entries = list(whole_entries(text, bracket + 1))
    return Recording(
        creator_of(head), explorer_field(head, "baseUrl"), entries, explorer_field(head, "openapi"), cut=True
    )


def whole_entries(text: str, at: int) -> Iterator[dict[str, Any]]:
    """The entries that decode whole from `at` on; the first that does not ends them."""
    decoder = json.JSONDecoder()
    while True:
        while at < len(text) and text[at] in " \t\r\n,":
            at += 1
        try:
            entry, at = decoder.raw_decode(text, at)
        except (ValueError, RecursionError):
            return
        if deeper_than(entry, MAX_DEPTH_LIMIT):  # no entry explorer wrote, nor one it could walk
            return
        if isinstance(entry, dict):
            yield entry


def creator_of(log: Any) -> str:
    """The name of the program that wrote a HAR log, or an empty string."""
    creator = log.get("creator") if isinstance(log, dict) else None
    name = creator.get("name") if isinstance(creator, dict) else None
    return name if isinstance(name, str) else ""


def explorer_field(log: Any, name: str) -> str | None:
    """A string field of the log's `_explorer` object (the session explorer recorded), or None."""
    custom = log.get("_explorer") if isinstance(log, dict) else None
    value = custom.get(name) if isinstance(custom, dict) else None
    return value if isinstance(value, str) else None


def path_and_query(url: str) -> tuple[str, str]:
    """A URL's path and its query sorted, as a recorded request is matched on."""
    parts = urlsplit(url)
    return parts.path, urlencode(sorted(parse_qsl(parts.query, keep_blank_values=True)))


def read_http_folder(folder: Path) -> Recording:
    """A folder of `.http` recordings as a Recording (GETs and what the names say, at HTTP_ORIGIN)."""
    entries: list[dict[str, Any]] = []
    for path in sorted(folder.glob("*.http")):
        parts = path.stem.split("_", 2)
        if len(parts) < 3 or not parts[0].isdigit():
            continue
        _, method, rest = parts
        route = rest.rsplit("_", 1)[0].replace("_", "/")
        head, _, body = path.read_bytes().partition(b"\n\n")
        lines = head.decode("latin-1").splitlines()
        try:
            status = int(lines[0].split()[1])
        except (IndexError, ValueError):
            continue
        headers = [{"name": n.strip(), "value": v.strip()} for n, _, v in (line.partition(":") for line in lines[1:])]
        mime = next((header["value"] for header in headers if header["name"].lower() == "content-type"), "")
        entries.append(
            {
                "request": {"method": method, "url": f"{HTTP_ORIGIN}/{route}"},
                "response": {"status": status, "headers": headers, "content": content_of(body, mime)},
            }
        )
    if not entries:
        raise RecordingError(f"{folder} holds no .http recordings (STATUS_METHOD_path_N.http)")
    return Recording("", None, entries)


def content_of(data: bytes, mime: str) -> dict[str, Any]:
    """HAR's content object, for a recording written or read: text as is, or base64 for bytes that
    are not UTF-8."""
    try:
        return {"size": len(data), "mimeType": mime, "text": data.decode("utf-8")}
    except UnicodeDecodeError:
        return {"size": len(data), "mimeType": mime, "text": base64.b64encode(data).decode(), "encoding": "base64"}
