"""What a body holds, whatever its label says: JSON, a form, or text; JSON read with every field of
every object, a name given twice kept twice, and written back so.

A JSON reader keeps the last of two fields with one name: `{"password": "…", "password": null}`
reads as `{"password": null}`. A redaction that looked only at what json.loads gives would see no
password, and write the body back as it came, the password in it. So an object that gives a name
twice is read as `Pairs`, its fields in order, each one there to be looked at; and a document that
holds one is written again (`written`), never as it came.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl

from explorer.api.values import MAX_DEPTH_LIMIT, TooDeep

# A form's shape: name=value pairs joined by &, nothing in it unencoded that a form would encode.
FORM = re.compile(r"[^\s&=]+=[^\s&]*(?:&+[^\s&=]+(?:=[^\s&]*)?)*&*")


class Pairs(list[tuple[str, Any]]):
    """A JSON object that gives a name more than once: its fields in order, every one kept."""


@dataclass
class Read:
    """What a body parses as: "json" (its document), "form" (its pairs), "deep" (JSON too deep to
    walk), or "text" (neither); `twice` when an object in the JSON gives a name twice (see Pairs)."""

    kind: str
    document: Any = None
    twice: bool = False


def read(text: str) -> Read:
    """What a body holds, whatever its Content-Type says.

    Args:
        text: The body, decoded.

    Returns:
        Its Read: JSON first, then a form's shape, else text.
    """
    try:
        document, twice = parsed(text)
    except TooDeep:
        return Read("deep")
    except ValueError:
        pass
    else:
        return Read("json", document, twice)
    if is_form(text):
        return Read("form", parse_qsl(text.strip(), keep_blank_values=True))
    return Read("text")


def parsed(text: str | bytes) -> tuple[Any, bool]:
    """A JSON document with every field of every object (an object that gives a name twice as Pairs),
    within MAX_DEPTH_LIMIT levels of nesting (what walks it walks one call a level).

    Args:
        text: The JSON, as json.loads takes it.

    Returns:
        The document, and whether an object in it gives a name twice.

    Raises:
        TooDeep: It nests deeper than MAX_DEPTH_LIMIT.
        ValueError: It is not JSON.
    """
    twice: list[bool] = []

    def fields(pairs: list[tuple[str, Any]]) -> dict[str, Any] | Pairs:
        one = dict(pairs)
        if len(one) == len(pairs):
            return one
        twice.append(True)
        return Pairs(pairs)

    try:
        document = json.loads(text, object_pairs_hook=fields)
    except RecursionError:
        raise TooDeep(MAX_DEPTH_LIMIT) from None
    if deeper(document, MAX_DEPTH_LIMIT):
        raise TooDeep(MAX_DEPTH_LIMIT)
    return document, bool(twice)


def deeper(value: Any, levels: int) -> bool:
    """Whether a document nests more than `levels` containers deep (Pairs too), counted without recursion."""
    stack = [(value, 1)]
    while stack:
        container, depth = stack.pop()
        if not isinstance(container, dict | list):
            continue
        if depth > levels:
            return True
        children = (item for _, item in fields_of(container)) if isinstance(container, dict | Pairs) else container
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return False


def written(value: Any, *, twice: bool, ascii: bool = True) -> str:
    r"""A document as JSON text: by json.dumps, or field by field when it holds Pairs (`twice`).

    Args:
        value: The document.
        twice: Whether it holds Pairs (an object that gives a name twice).
        ascii: Whether what is not ASCII is written as \u escapes (json.dumps's ensure_ascii).

    Returns:
        The JSON text.
    """
    if not twice:
        return json.dumps(value, ensure_ascii=ascii)
    if isinstance(value, dict | Pairs):
        inner = (
            f"{json.dumps(key, ensure_ascii=ascii)}: {written(item, twice=True, ascii=ascii)}"
            for key, item in fields_of(value)
        )
        return "{" + ", ".join(inner) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(written(item, twice=True, ascii=ascii) for item in value) + "]"
    return json.dumps(value, ensure_ascii=ascii)


def fields_of(value: dict[str, Any] | Pairs) -> Iterable[tuple[str, Any]]:
    """An object's fields, in order: every one of a name given twice (Pairs)."""
    return value if isinstance(value, Pairs) else value.items()


def is_form(text: str) -> bool:
    """Whether a text has a form's shape (application/x-www-form-urlencoded): `name=value&…`."""
    return FORM.fullmatch(text.strip()) is not None
