"""Why a text is not JSON, in plain words and always with its line and column.

Python's json says `Expecting value: line 1 column 1 (char 0)` and `Invalid control character at`:
its parser's words. Every reader of JSON a person typed or saved (a body, a file to compare, an
answer shown) says them through `why_not_json`, so the same mistake reads the same everywhere.
"""

from __future__ import annotations

import json

PLAIN = {
    "Expecting value": "expected a value (a string, number, object, array, true, false or null)",
    "Expecting property name enclosed in double quotes": 'expected a name in double quotes, such as "name"',
    "Expecting ':' delimiter": "expected : between a name and its value",
    "Expecting ',' delimiter": "expected , between two items, or the } or ] that closes them",
    "Unterminated string starting at": 'a string that is not closed: it needs its closing "',
    "Invalid control character at": "a control character inside a string: write it as \\n or \\u0009",
    "Invalid \\escape": "a backslash that starts no escape: write \\\\ for a backslash itself",
    "Invalid \\uXXXX escape": "\\u needs four hexadecimal digits, such as \\u00e9",
    "Extra data": "more text after the end of the document: JSON is one value",
}


def plain_words(error: json.JSONDecodeError) -> str:
    """json's reason as a person would say it, without the position (see `why_not_json`)."""
    if not error.doc.strip():
        return "it is empty"
    before = error.doc[: error.pos].rstrip()
    if error.doc[error.pos : error.pos + 1] in ("}", "]") and before.endswith(","):
        return "a comma before the } or ] that closes: JSON takes none there"
    return PLAIN.get(error.msg, error.msg[:1].lower() + error.msg[1:])


def why_not_json(error: ValueError) -> str:
    """A ValueError from reading JSON (json's, UnicodeDecodeError, another) said plainly; for
    json's, `…, at line 2, column 27`."""
    if isinstance(error, json.JSONDecodeError):
        if not error.doc.strip():
            return "it is empty"
        return f"{plain_words(error)}, at line {error.lineno}, column {error.colno}"
    if isinstance(error, UnicodeDecodeError):
        return f"it is not UTF-8 text (byte {error.start + 1} cannot be read)"
    return str(error)
