"""A JSON document from a file (a body saved with `s`, a document to compare with): read with a
limit, and said plainly when it cannot be read or is not JSON."""

from __future__ import annotations

from pathlib import Path
from typing import Any, BinaryIO

from explorer.api.json_errors import why_not_json
from explorer.api.values import MAX_DEPTH, TooDeep, json_within

MAX_BYTES = 64 * 2**20  # a file read as a document, at most


def read_document(path: Path, levels: int = MAX_DEPTH) -> Any:
    """The document in a file; ValueError, said in a line naming the file, when there is none (or
    it nests deeper than `levels`: what compares it walks it one call a level)."""
    try:
        with path.expanduser().open("rb") as file:
            return parse(file, f"file {path}", levels)
    except OSError as error:
        raise ValueError(f"file {path} cannot be read: {error.strerror or error}") from None


def parse(source: BinaryIO, name: str, levels: int = MAX_DEPTH) -> Any:
    """The document in an open file or stdin (`said` names it in an error), within `levels` of nesting."""
    data = source.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise ValueError(f"{name} is more than {MAX_BYTES // 2**20} MiB, the most read as a document")
    try:
        return json_within(data, levels)
    except TooDeep as deep:
        raise ValueError(f"{name} is {deep}. {deep.hint}") from None
    except ValueError as error:  # UnicodeDecodeError is one
        raise ValueError(f"{name} is not JSON: {why_not_json(error)}") from None
