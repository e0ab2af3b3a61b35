"""Server strings, made safe to show: never markup, and no control character reaches the terminal.

Textual reads a plain `str` as markup (`[@click=app.quit]` would run an action) and passes escape
sequences through. Everything a server sent goes through here and comes out as Text or Content,
with control and bidirectional-format characters replaced by visible stand-ins.
"""

from __future__ import annotations

import re

from rich.text import Text

# C0 and C1 controls, DEL, and the invisible format characters that reorder or hide text.
UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]")


def stand_in(match: re.Match[str]) -> str:
    char = match.group(0)
    code = ord(char)
    if code < 0x20:
        return chr(0x2400 + code)  # ␀ … ␟ (so a newline shows as ␊, an escape as ␛)
    if code == 0x7F:
        return "␡"
    return f"<U+{code:04X}>"


def visible(value: object) -> str:
    """The value as one line of plain text in which every character shows."""
    return UNSAFE.sub(stand_in, value if isinstance(value, str) else str(value))


def text(value: object, style: str = "") -> Text:
    """A Rich Text of a server value: literal, one line, controls visible."""
    return Text(visible(value), style=style, no_wrap=True, end="")


def lines(value: str) -> list[str]:
    """Multi-line text (a body, an error detail) as lines, each with its controls visible."""
    return [visible(line.replace("\t", "    ")) for line in value.split("\n")]
