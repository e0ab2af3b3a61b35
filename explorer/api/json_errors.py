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
    "Invalid \\escape": "a backslash that starts no escape: write \\\\ for a backslash itself",
    "Invalid \\uXXXX escape": "\\u needs four hexadecimal digits, such as \\u00e9",
    "Extra data": "more text after the end of the document: JSON is one value",
}


def plain_words(error: json.JSONDecodeError) -> str:
    """json's reason as a person would say it, without the position (see `line_and_column`)."""
    if not error.doc.strip():
        return "it is empty"
    if closing_after_comma(error) is not None:
        return "a comma before the } or ] that closes: JSON takes none there"
    if error.msg.startswith("Invalid control character"):
        return control_in_string(error.doc[error.pos : error.pos + 1])
    return PLAIN.get(error.msg, error.msg[:1].lower() + error.msg[1:])


def control_in_string(character: str) -> str:
    """A control character inside a string: most often the line's end, where a closing quote is
    missing (`"name": "x` then Enter), not a character to escape."""
    if character in ("\n", "\r"):
        return 'a string not closed on its line: it needs its closing " (a line break in a string is \\n)'
    if character == "\t":
        return "a tab inside a string: write it as \\t"
    code = ord(character) if character else 0
    return f"a control character (U+{code:04X}) inside a string: write it as \\u{code:04x}"


def closing_after_comma(error: json.JSONDecodeError) -> int | None:
    """Where the } or ] after a trailing comma is, when that is the mistake; else None. Python's json
    says it by version: 3.13 names it ("Illegal trailing comma before end of object") at the comma,
    3.11 and 3.12 expect a value or a name at the closing bracket. Both are said at the bracket."""
    doc, at = error.doc, error.pos
    if error.msg.startswith("Illegal trailing comma"):
        at += 1
        while at < len(doc) and doc[at] in " \t\r\n":
            at += 1
        return at
    if doc[at : at + 1] in ("}", "]") and doc[:at].rstrip().endswith(","):
        return at
    return None


def line_and_column(error: json.JSONDecodeError) -> tuple[int, int]:
    """Where the mistake is, counted from 1, the same on every version of Python."""
    at = closing_after_comma(error)
    if at is None:
        return error.lineno, error.colno
    return error.doc.count("\n", 0, at) + 1, at - error.doc.rfind("\n", 0, at)


def why_not_json(error: ValueError) -> str:
    """A ValueError from reading JSON (json's, UnicodeDecodeError, another) said plainly; for
    json's, `…, at line 2, column 27`."""
    if isinstance(error, json.JSONDecodeError):
        if not error.doc.strip():
            return "it is empty"
        line, column = line_and_column(error)
        return f"{plain_words(error)}, at line {line}, column {column}"
    if isinstance(error, UnicodeDecodeError):
        return f"it is not UTF-8 text (byte {error.start + 1} cannot be read)"
    return str(error)
