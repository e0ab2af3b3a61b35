"""Writing to the terminal: bodies as received, and errors as one clear message, never a traceback."""

from __future__ import annotations

import sys

from explorer.api.errors import ApiError
from explorer.api.resource import Resource
from explorer.api.secret import redact_header
from explorer.api.visible import lines, visible


def write_body(data: bytes) -> None:
    sys.stdout.buffer.write(data)
    if data and not data.endswith(b"\n") and sys.stdout.isatty():
        sys.stdout.buffer.write(b"\n")
    sys.stdout.buffer.flush()


def status_block(resource: Resource) -> bytes:
    """The status line and response headers, as `curl -i` shows them (cookies shown as ***), each
    character visible: a header is the server's text, not the body printed as received."""
    shown = [f"{resource.http_version} {resource.status} {resource.reason}"]
    shown += [visible(f"{name}: {redact_header(name, value)}") for name, value in resource.headers.multi_items()]
    return ("\r\n".join(shown) + "\r\n\r\n").encode("utf-8", "replace")


def report(command: str, error: ApiError) -> None:
    """An error on stderr: the document the service sent, then one line, then the hint; every
    character from the server visible (an escape sequence shows as ␛[…, it does nothing)."""
    out = sys.stderr
    if error.body:
        out.write("\n".join(lines(error.body.decode("utf-8", "replace").rstrip())) + "\n")
    out.write(f"explorer {command}: {visible(error.line())}\n")
    if error.hint:
        out.write(f"hint: {visible(error.hint)}\n")
    out.flush()


def exit_code(error: ApiError) -> int:
    """As HTTPie's --check-status: 3, 4, 5 for 3xx, 4xx, 5xx; 1 when no HTTP answer was had."""
    return error.status // 100 if error.status and 300 <= error.status < 600 else 1
