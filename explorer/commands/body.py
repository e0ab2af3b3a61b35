"""A write's body as the command line gives it: `--data` (JSON, `@FILE`, or `@-` for stdin), or
HTTPie-style items after the target (`name=value` a string, `name:=JSON` any JSON value).

What --data gives is sent as it is, byte for byte, once it is known to be JSON (what is previewed is
what goes); items make one object, written by json.dumps. Nothing that is not JSON is sent: not
even NaN or Infinity, which Python's json reads and JSON does not have; nor what is not UTF-8 text.
A file or stdin is read up to the body limit (`--max-body`, an answer's limit too) and no further:
`--data @/dev/zero` or an endless pipe stops there, with a message naming the limit.
"""

from __future__ import annotations

import argparse
import io
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from explorer.api.guard import MAX_BODY
from explorer.api.json_errors import why_not_json
from explorer.api.writes import body_bytes

NOT_JSON_HINT = "Nothing was sent. Write the body as JSON; in a shell, put single quotes around it."
CHUNK = 2**20  # bytes read from a file or stdin at a time


class UsageError(Exception):
    """The command line asks for a body in a way it cannot be had (--data and items together)."""


class BodyError(Exception):
    """A body that is not sent: not JSON, not UTF-8, a file that cannot be read. `hint` says what to do."""

    def __init__(self, line: str, hint: str = NOT_JSON_HINT) -> None:
        super().__init__(line)
        self.hint = hint


@dataclass(frozen=True)
class Body:
    """The bytes sent (empty for none) and their JSON (None for none)."""

    data: bytes = b""
    document: Any = None


def reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def strict_json(text: str) -> Any:
    """`text` as JSON, as the service reads it; ValueError (json's, with its line and column) if it is not."""
    try:
        return json.loads(text, parse_constant=reject_constant)
    except RecursionError:
        raise ValueError("it is nested too deeply") from None


def item(text: str) -> tuple[str, Any]:
    """One item (argparse's type): `name=value` as ("name", "value"), `name:=JSON` as ("name", its value).

    Args:
        text: The item as the command line gives it: bytes that are not UTF-8 come as lone surrogates.

    Returns:
        The field's name and value.

    Raises:
        argparse.ArgumentTypeError: Saying why it is not an item (a usage error, exit 2): not
            NAME=VALUE or NAME:=JSON, not JSON after :=, or not UTF-8 text.
    """
    name, value = parsed_item(text)
    problem = not_text(name)
    if problem is not None:
        raise argparse.ArgumentTypeError(f"an ITEM's name holds {problem}: a body is JSON, which is UTF-8 text")
    problem = not_text(json.dumps(value, ensure_ascii=False))  # a lone surrogate escaped in := JSON too
    if problem is not None:
        raise argparse.ArgumentTypeError(f"the value of {name} holds {problem}: a body is JSON, which is UTF-8 text")
    return name, value


def not_text(text: str) -> str | None:
    """What in `text` UTF-8 cannot carry, said without the rest of it; None when it is all text.

    A byte of the command line that is not UTF-8 comes as a lone surrogate (U+DC80 to U+DCFF, as
    Python decodes arguments), and is said as that byte."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        code = ord(text[error.start])
        if 0xDC80 <= code <= 0xDCFF:
            return f"the byte 0x{code - 0xDC00:02X}, which is not UTF-8"
        return f"<U+{code:04X}>, half of a character (a lone surrogate)"
    return None


def parsed_item(text: str) -> tuple[str, Any]:
    """`item`'s name and value, before they are known to be UTF-8 text."""
    at = text.find("=")
    raw = at > 0 and text[at - 1] == ":"
    name = text[: at - 1] if raw else text[:at]
    if at <= 0 or not name:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not NAME=VALUE (a string) or NAME:=JSON (any JSON value); a header goes with -H 'NAME: VALUE'"
        )
    value = text[at + 1 :]
    if raw:
        try:
            return name, strict_json(value)
        except ValueError as error:
            raise argparse.ArgumentTypeError(f"the value of {name}:= is not JSON: {why_not_json(error)}") from None
    if value.startswith("="):
        raise argparse.ArgumentTypeError(
            f"{name}==… is HTTPie's query parameter: here, -q {name}=VALUE; a string that starts with = goes as "
            f"{name}:='\"=…\"'"
        )
    return name, value


def needs_body(method: str) -> str:
    """The hint for a PATCH or PUT given no body, or an empty one: how to give its fields.

    Args:
        method: The write's method (`PATCH`).

    Returns:
        The hint, with the command that gives a field.
    """
    first_sentence = "Nothing was sent. Give the fields with --data JSON or NAME=VALUE items"
    return f"{first_sentence}: explorer {method.lower()} TARGET name=…"


def body_of(
    data: str | None,
    items: list[tuple[str, Any]],
    stdin: BinaryIO | None = None,
    limit: int = MAX_BODY,
    needed_by: str | None = None,
) -> Body:
    """The body --data or the items give (none when neither does).

    Args:
        data: --data as given: JSON, `@FILE`, `@-` (stdin), or None.
        items: The items, as `item` made them.
        stdin: Where `@-` reads from; None for sys.stdin.
        limit: The most bytes read from a file or stdin (`--max-body`).
        needed_by: The method, when it needs a body (PATCH, PUT): an empty one is said to be
            needed, not to be left out; None when the write may go without one (POST).

    Returns:
        The body.

    Raises:
        UsageError: For --data and items together, or a field given twice.
        BodyError: For a body that is not sent: not JSON, not UTF-8, empty, past `limit`, a file
            that cannot be read.
    """
    if data is not None and items:
        raise UsageError("--data and ITEMs do not go together: give the body one way")
    if items:
        fields: dict[str, Any] = {}
        for name, value in items:
            if name in fields:
                raise UsageError(f"the field {name} is given twice")
            fields[name] = value
        return Body(json.dumps(fields, ensure_ascii=False).encode("utf-8"), fields)
    if data is None:
        return Body()
    where, text = given(data, stdin, limit)
    if not text.strip():  # `--data "$UNSET"` in a script: never a write with nothing in it
        if needed_by is not None:
            raise BodyError(
                f"the body{where} is empty: a {needed_by} needs a body, the fields it sets", needs_body(needed_by)
            )
        raise BodyError(
            f"the body{where} is empty", "Nothing was sent. To send no body, leave --data out; else give the JSON."
        )
    try:
        document = strict_json(text)
        return Body(body_bytes(text), document)
    except UnicodeEncodeError:  # a lone surrogate: bytes of the command line that were not UTF-8
        raise BodyError(f"the body{where} is not UTF-8 text", "Nothing was sent. JSON is UTF-8 text.") from None
    except ValueError as error:  # json's, with its line and column
        raise BodyError(f"the body{where} is not JSON: {why_not_json(error)}") from None


def given(data: str, stdin: BinaryIO | None, limit: int = MAX_BODY) -> tuple[str, str]:
    """(where it came from, said in an error; the text) of --data: itself, @FILE, or @- (stdin).

    A file or stdin is read up to `limit` bytes and no further, whatever it is (a regular file,
    /dev/zero, a FIFO, a pipe): past it, BodyError names the limit."""
    if not data.startswith("@"):
        return "", data
    name = data[1:]
    if not name:
        raise BodyError("--data @ names no file", "Nothing was sent. --data @FILE names a file; @- reads stdin.")
    try:
        if name == "-":
            where = " on stdin"
            raw = read_within(stdin or sys.stdin.buffer, limit)
        else:
            where = f" in {name}"
            with Path(name).open("rb") as file:
                raw = read_within(file, limit)
    except TooLong:
        raise BodyError(
            f"the body{where} is larger than {size_text(limit)}, the body limit: it was read no further",
            f"Nothing was sent. A body is held to the limit an answer is (--max-body MB, {size_text(MAX_BODY)} "
            "unless said); send a smaller one, or raise the limit.",
        ) from None
    except OSError as error:
        raise BodyError(
            f"cannot read the body{where}: {error.strerror or error}", "Nothing was sent. --data @FILE names a file."
        ) from None
    try:
        return where, raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise BodyError(
            f"the body{where} is not UTF-8 text: {error}", "Nothing was sent. JSON is UTF-8 text."
        ) from None


class TooLong(Exception):
    """More bytes than the limit: the rest is left unread."""


def read_within(source: BinaryIO, limit: int) -> bytes:
    """Everything `source` holds, if it is at most `limit` bytes; TooLong once one byte more has come.

    Read a chunk at a time, so that an endless source (/dev/zero, a pipe that never ends) costs at
    most `limit` bytes and stops there. A buffered source's short read is its end (io.BufferedIOBase
    reads until the count or the end): a terminal's one ctrl+d ends the body, not a second."""
    chunks: list[bytes] = []
    size = 0
    while size <= limit:
        wanted = min(CHUNK, limit + 1 - size)
        chunk = source.read(wanted)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        size += len(chunk)
        if len(chunk) < wanted and isinstance(source, io.BufferedIOBase):
            return b"".join(chunks)
    raise TooLong


def size_text(limit: int) -> str:
    """`64 MB`: a limit as --max-body takes it (megabytes of 2**20 bytes); bytes when it is not whole."""
    return f"{limit // 2**20} MB" if limit % 2**20 == 0 else f"{limit} bytes"
