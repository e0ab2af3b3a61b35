"""JSON decoded a piece at a time, so that a thread decoding a big body lets the screen run.

json.loads holds the interpreter's lock for the whole of a document: 50 MB is half a second or
more in which no other thread runs, however the work is split between threads. `loads` decodes
the outer two levels of containers here, in Python, and hands each value below them (a list's
item, an entity's field) to json's C decoder one at a time; between two values the interpreter
may switch threads. The result, and what is refused, are json.loads's own: a document that is not
JSON is decoded again by json.loads, for its exact error.
"""

from __future__ import annotations

import json
import re
from typing import Any

LEVELS = 2  # containers decoded here; below them, each value whole by json's C decoder
DECODER = json.JSONDecoder()
SPACE = re.compile(r"[ \t\n\r]*")


def loads(text: str) -> Any:
    """What json.loads(text) gives or raises, decoded a piece at a time (see the module)."""
    try:
        value, end = decode(text, skip(text, 0), LEVELS)
        if skip(text, end) != len(text):
            raise ValueError("extra data")
    except (ValueError, IndexError):
        return json.loads(text)  # not JSON: json's own words for why (this raises)
    return value


def skip(text: str, at: int) -> int:
    """Where the next non-blank character is, from `at`."""
    match = SPACE.match(text, at)
    return match.end() if match else at


def decode(text: str, at: int, levels: int) -> tuple[Any, int]:
    """The value at `at` and where it ends: an outer container here, anything else by json's C decoder."""
    opening = text[at : at + 1]
    if levels and opening == "[":
        return array(text, skip(text, at + 1), levels - 1)
    if levels and opening == "{":
        return mapping(text, skip(text, at + 1), levels - 1)
    return DECODER.raw_decode(text, at)


def array(text: str, at: int, levels: int) -> tuple[list[Any], int]:
    """An array's items from just after its `[`, and where it ends."""
    items: list[Any] = []
    ended = text[at : at + 1] == "]"
    if ended:  # an empty array
        at += 1
    while not ended:
        item, at = decode(text, at, levels)
        items.append(item)
        at, ended = after_value(text, at, "]")
    return items, at


def mapping(text: str, at: int, levels: int) -> tuple[dict[str, Any], int]:
    """An object's fields from just after its `{`, and where it ends."""
    fields: dict[str, Any] = {}
    ended = text[at : at + 1] == "}"
    if ended:  # an empty object
        at += 1
    while not ended:
        if text[at : at + 1] != '"':
            raise ValueError("expecting a name")
        name, at = DECODER.raw_decode(text, at)  # a string: the first character is its quote
        at = skip(text, at)
        if text[at : at + 1] != ":":
            raise ValueError("expecting ':'")
        fields[name], at = decode(text, skip(text, at + 1), levels)
        at, ended = after_value(text, at, "}")
    return fields, at


def after_value(text: str, at: int, closing: str) -> tuple[int, bool]:
    """After a container's value: (just past `closing`, True) at its end, else (the next value, False)."""
    at = skip(text, at)
    if text[at : at + 1] == closing:
        return at + 1, True
    if text[at : at + 1] != ",":
        raise ValueError(f"expecting ',' or '{closing}'")
    return skip(text, at + 1), False
