"""A write's body as the command line gives it: `--data` (JSON, `@FILE`, or `@-` for stdin), or
HTTPie-style items after the target (`name=value` a string, `name:=JSON` any JSON value).

What --data gives is sent as it is, byte for byte, once it is known to be JSON (what is previewed is
what goes); items make one object, written by json.dumps. Nothing that is not JSON is sent: not
even NaN or Infinity, which Python's json reads and JSON does not have.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from explorer.api.json_words import why_not_json
from explorer.api.writes import body_bytes

NOT_JSON_HINT = "Nothing was sent. Write the body as JSON; in a shell, put single quotes around it."


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
    """One item (argparse's type): `name=value` as ("name", "value"), `name:=JSON` as ("name", its value)."""
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


def body_of(data: str | None, items: list[tuple[str, Any]], stdin: BinaryIO | None = None) -> Body:
    """The body --data or the items give (none when neither does).

    Raises UsageError for --data and items together, or a field given twice; BodyError for a body
    that is not sent."""
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
    where, text = given(data, stdin)
    if not text.strip():  # `--data "$UNSET"` in a script: never a write with nothing in it
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


def given(data: str, stdin: BinaryIO | None) -> tuple[str, str]:
    """(where it came from, said in an error; the text) of --data: itself, @FILE, or @- (stdin)."""
    if not data.startswith("@"):
        return "", data
    name = data[1:]
    if not name:
        raise BodyError("--data @ names no file", "Nothing was sent. --data @FILE names a file; @- reads stdin.")
    try:
        if name == "-":
            where = " on stdin"
            raw = (stdin or sys.stdin.buffer).read()
        else:
            where = f" in {name}"
            raw = Path(name).read_bytes()
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
