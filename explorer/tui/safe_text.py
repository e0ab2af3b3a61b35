"""Server strings, made safe to show: never markup, and no control character reaches the terminal.

Textual reads a plain `str` as markup (`[@click=app.quit]` would run an action) and passes escape
sequences through. Everything a server sent goes through here and comes out as Text or Content,
with control and bidirectional-format characters replaced by visible stand-ins (explorer/api/unsafe_characters.py,
which the command line uses too).
"""

from __future__ import annotations

import json

from rich.text import Text

from explorer.api.unsafe_characters import UNSAFE, lines, stand_in, visible

__all__ = ["UNSAFE", "brief", "lines", "stand_in", "text", "visible"]


def text(value: object, style: str = "") -> Text:
    """A Rich Text of a server value: literal, one line, controls visible."""
    return Text(visible(value), style=style, no_wrap=True, end="")


def brief(value: object, limit: int) -> str:
    """A server value in at most `limit` characters (and a `…` when cut), visible.

    Labels and cells show a line's worth; measuring or drawing a 50 MB string froze the screen.
    """
    if isinstance(value, str):
        shown = value
    else:  # JSON as written, made a piece at a time and no further than shown: a 50 MB document costs a line
        pieces, size = [], 0
        for piece in json.JSONEncoder(ensure_ascii=False, default=str).iterencode(value):
            pieces.append(piece)
            size += len(piece)
            if size > limit:
                break
        shown = "".join(pieces)
    return visible(shown if len(shown) <= limit else shown[:limit] + "…")
