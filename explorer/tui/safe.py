"""Server strings, made safe to show: never markup, and no control character reaches the terminal.

Textual reads a plain `str` as markup (`[@click=app.quit]` would run an action) and passes escape
sequences through. Everything a server sent goes through here and comes out as Text or Content,
with control and bidirectional-format characters replaced by visible stand-ins (explorer/api/visible.py,
which the command line uses too).
"""

from __future__ import annotations

from rich.text import Text

from explorer.api.visible import UNSAFE, lines, stand_in, visible

__all__ = ["UNSAFE", "lines", "stand_in", "text", "visible"]


def text(value: object, style: str = "") -> Text:
    """A Rich Text of a server value: literal, one line, controls visible."""
    return Text(visible(value), style=style, no_wrap=True, end="")
