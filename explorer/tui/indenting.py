"""Where Enter and a closing bracket put the request editor's text: JSON's indentation kept as it is typed.

Enter keeps the indentation of the line it breaks, one level more after a `{` or `[` that ends the
text before the cursor (and, between `{` and `}`, puts the `}` on a line of its own under its `{`);
a `}` or `]` typed where only blanks stand before the cursor takes one level off first. Plain text
in, plain text out: the editor's body (ordered_text_area.py) applies it.
"""

from __future__ import annotations

from dataclasses import dataclass

INDENT = 2  # spaces a level: the house's JSON (json.dumps(…, indent=2), the editor's prefill)
OPENING = {"{": "}", "[": "]"}
CLOSING = frozenset(OPENING.values())


@dataclass(frozen=True)
class LineBreak:
    """What Enter puts in: `text` (from the line break on), over the `swallowed` blanks that stood after
    the cursor, the cursor then at `column` of the line below."""

    text: str
    swallowed: int
    column: int


def leading_blanks(text: str) -> str:
    """The spaces and tabs `text` starts with."""
    return text[: len(text) - len(text.lstrip(" \t"))]


def line_break(before: str, after: str, width: int = INDENT) -> LineBreak:
    """Enter between `before` and `after` (the line's text either side of the cursor).

    Args:
        before: The line's text before the cursor.
        after: The line's text after the cursor (or after the selection Enter replaces).
        width: Spaces a level of indentation.

    Returns:
        The line break with the indentation the new line starts with; the blanks after the cursor
        are replaced (the text after them starts at the indentation).
    """
    indent = leading_blanks(before)
    rest = after.lstrip(" \t")
    swallowed = len(after) - len(rest)
    opener = before.rstrip()[-1:]
    if opener not in OPENING:
        return LineBreak("\n" + indent, swallowed, len(indent))
    inner = indent + " " * width
    if rest[:1] == OPENING[opener]:  # `{|}`: the closing bracket under its opening one
        return LineBreak(f"\n{inner}\n{indent}", swallowed, len(inner))
    return LineBreak("\n" + inner, swallowed, len(inner))


def dedented(before: str, character: str, width: int = INDENT) -> int | None:
    """How many blanks a closing bracket takes off, typed after `before` (the line's text before the
    cursor); None when it takes none (not a `}` or `]`, or text stands before it on its line).

    Args:
        before: The line's text before the cursor.
        character: The character typed.
        width: Spaces a level of indentation.

    Returns:
        The number of blanks just before the cursor to remove: back to the level below.
    """
    if character not in CLOSING or not before or before.strip(" \t"):
        return None
    return len(before) - ((len(before) - 1) // width) * width
