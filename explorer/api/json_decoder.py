"""JSON decoded a piece at a time, so that a thread decoding a big body lets the screen run.

json.loads holds the interpreter's lock for the whole of a document: 50 MB is half a second or
more in which no other thread runs, however the work is split between threads. `loads` decodes
the outer two levels of containers here, in Python, and hands each value below them (a list's
item, an entity's field) to json's C decoder one at a time; between two values the interpreter
may switch threads. The result, and what is refused, are json.loads's own: a document that is not
JSON is decoded again by json.loads, for its exact error.

Given the levels of nesting allowed, `loads` measures each piece as it comes and raises `Deeper` past
them. A piece with no more `[` and `{` in its text than the levels left cannot nest deeper, and is not
walked: walking a 50 MB list's every value after decoding it took a second, half its decoding time.
"""

from __future__ import annotations

import json
import re
from typing import Any

LEVELS = 2  # containers decoded here; below them, each value whole by json's C decoder
DECODER = json.JSONDecoder()
SPACE = re.compile(r"[ \t\n\r]*")
BLANK = (" ", "\t", "\n", "\r")


class Deeper(Exception):
    """The document nests deeper than the levels `loads` was given (not a ValueError: that is not JSON)."""


def loads(text: str, levels: int | None = None) -> Any:
    """What json.loads(text) gives or raises, decoded a piece at a time (see the module); Deeper when it
    nests more than `levels` containers deep (None: any depth)."""
    try:
        value, end = decode(text, skip(text, 0), LEVELS, levels)
        if skip(text, end) != len(text):
            raise ValueError("extra data")
    except (ValueError, IndexError):
        return json.loads(text)  # not JSON: json's own words for why (this raises)
    return value


def deeper_than(value: Any, levels: int) -> bool:
    """Whether a JSON value nests more than `levels` containers deep (`[[1]]` is 2 deep).

    Counted without recursion, so any depth json.loads accepted is measured, not a RecursionError.
    """
    stack = [(value, 1)]
    while stack:
        container, depth = stack.pop()
        if type(container) is not dict and type(container) is not list:
            continue
        if depth > levels:
            return True
        for child in container.values() if type(container) is dict else container:
            if type(child) is dict or type(child) is list:
                stack.append((child, depth + 1))
    return False


def skip(text: str, at: int) -> int:
    """Where the next non-blank character is, from `at`."""
    match = SPACE.match(text, at)
    return match.end() if match else at


def decode(text: str, at: int, levels: int, left: int | None) -> tuple[Any, int]:
    """The value at `at` and where it ends: an outer container here (`levels` more of them), anything
    else by json's C decoder; Deeper when it nests more than `left` containers deep."""
    opening = text[at : at + 1]
    if opening in ("[", "{") and left is not None and left < 1:
        raise Deeper
    below = None if left is None else left - 1
    if levels and opening == "[":
        return array(text, skip(text, at + 1), levels - 1, below)
    if levels and opening == "{":
        return mapping(text, skip(text, at + 1), levels - 1, below)
    value, end = DECODER.raw_decode(text, at)
    if left is not None and nests_deeper(text, at, end, value, left):
        raise Deeper
    return value, end


def nests_deeper(text: str, at: int, end: int, value: Any, left: int) -> bool:
    """Whether `value`, decoded from text[at:end], nests more than `left` containers deep: walked only
    when its brackets (in strings too) are more than that, so it could."""
    return text.count("[", at, end) + text.count("{", at, end) > left and deeper_than(value, left)


def array(text: str, at: int, levels: int, left: int | None) -> tuple[list[Any], int]:
    """An array's items from just after its `[`, and where it ends."""
    items: list[Any] = []
    ended = text[at : at + 1] == "]"
    if ended:  # an empty array
        at += 1
    elif not levels:
        return leaves(text, at, left, items)
    while not ended:
        item, at = decode(text, at, levels, left)
        items.append(item)
        at, ended = after_value(text, at, "]")
    return items, at


def leaves(text: str, at: int, left: int | None, items: list[Any]) -> tuple[list[Any], int]:
    """An array's items, each by json's C decoder, from its first item: `array` and `decode` in one
    loop, for the list of a big page (a call less and a match less an item halved the time over
    json.loads)."""
    raw_decode = DECODER.raw_decode
    while True:
        item, end = raw_decode(text, at)
        if left is not None and nests_deeper(text, at, end, item, left):
            raise Deeper
        items.append(item)
        after = text[end : end + 1]
        if after != "," and after != "]":
            end = skip(text, end)
            after = text[end : end + 1]
        if after == "]":
            return items, end + 1
        if after != ",":
            raise ValueError("expecting ',' or ']'")
        at = end + 1
        if text[at : at + 1] in BLANK:
            at = skip(text, at)


def mapping(text: str, at: int, levels: int, left: int | None) -> tuple[dict[str, Any], int]:
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
        fields[name], at = decode(text, skip(text, at + 1), levels, left)
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
