"""Writing to the terminal: bodies as received, and errors as one clear message, never a traceback."""

from __future__ import annotations

import json
import sys
from typing import Any

from explorer.api.counts import counted
from explorer.api.errors import ApiError
from explorer.api.resource import Resource
from explorer.api.secret import redact_header
from explorer.api.session import Session
from explorer.api.unsafe_characters import lines, visible
from explorer.commands.hint_words import command_line_hint


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


def print_response(command: str, resource: Resource, include: bool) -> int:
    """Print a response: its body on stdout, or its error on stderr.

    Args:
        command: The command's name, to begin an error's line (`explorer get: …`).
        resource: The response.
        include: Print the status line and headers first (`-i`), either way.

    Returns:
        The exit code: 0 for 2xx, 3 for 3xx, as `exit_code` says for an error.
    """
    if include:
        write_body(status_block(resource))
    if resource.error:
        report(command, resource.error)
        return exit_code(resource.error)
    write_body(resource.body)
    return 0 if resource.status < 300 else 3


def report(command: str, error: ApiError, more: str = "") -> None:
    """An error on stderr: the document the service sent, then one line, then the hint in the
    command line's words and `more` (what the command did before it failed); every character from
    the server visible (an escape sequence shows as ␛[…, it does nothing)."""
    out = sys.stderr
    if error.body:
        out.write("\n".join(lines(error.body.decode("utf-8", "replace").rstrip())) + "\n")
    out.write(f"explorer {command}: {visible(error.line())}\n")
    if hint := " ".join(filter(None, (command_line_hint(error), more))):
        out.write(f"hint: {visible(hint)}\n")
    out.flush()


def exit_code(error: ApiError) -> int:
    """As HTTPie's --check-status: 3, 4, 5 for 3xx, 4xx, 5xx; 1 when no HTTP answer was had."""
    return error.status // 100 if error.status and 300 <= error.status < 600 else 1


class ItemsOut:
    """A list's items on stdout as one JSON array, written a page at a time as the pages come.

    What `json.dumps(items, indent=indent)` would write, without holding every item: a list of
    123,400 items costs a page of memory. A walk that fails leaves the array open, so no JSON reader
    takes what was written for the whole list; `so_far` says what was written.
    """

    def __init__(self, indent: int | None) -> None:
        self.indent = indent
        self.items = 0
        self.pages = 0

    def write(self, items: list[Any]) -> None:
        if not items:
            return
        if self.indent is None:
            pieces = [json.dumps(item, ensure_ascii=False) for item in items]
            text = ("[" if not self.items else ", ") + ", ".join(pieces)
        else:
            pad = " " * self.indent
            made = (json.dumps(item, indent=self.indent, ensure_ascii=False) for item in items)
            pieces = [pad + piece.replace("\n", "\n" + pad) for piece in made]
            text = ("[\n" if not self.items else ",\n") + ",\n".join(pieces)
        self.items += len(items)
        self.pages += 1
        sys.stdout.buffer.write(text.encode())
        sys.stdout.buffer.flush()

    def close(self) -> None:
        end = "[]" if not self.items else ("]" if self.indent is None else "\n]")
        sys.stdout.buffer.write(end.encode() + b"\n")
        sys.stdout.buffer.flush()

    def pages_text(self) -> str:
        """The pages written, in words: `1 page`, `12 pages`."""
        return counted(self.pages, "page")

    def so_far(self) -> str:
        """What a failure's hint adds: what was written before it."""
        if not self.items:
            return "Nothing was printed."
        return (
            f"{counted(self.items, 'item')} of {self.pages_text()} were printed before it; the array is left open, "
            "so no JSON reader takes them for the whole list."
        )


def print_waits(session: Session, command: str) -> None:
    """At a terminal, a wait of the session's (a Retry-After, the rate limit) said on stderr as it
    begins, with how long: a script's person is not left staring at nothing. Never in a pipe."""
    if not sys.stderr.isatty():
        return
    sleep = session.throttle.sleep

    async def telling(seconds: float) -> None:
        if seconds >= 1:
            refused = session.throttle.waiting_response
            why = f"the {refused.status}'s Retry-After" if refused is not None else "the rate limit"
            print(f"explorer {command}: waiting {seconds:.0f} s for {why}…", file=sys.stderr, flush=True)
        await sleep(seconds)

    session.throttle.sleep = telling
