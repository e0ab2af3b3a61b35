"""A one-line field whose keys are done in the order they come: every question the app asks on one
line (the login form's fields, `g`, the JSON pane's search, a watch's condition) is one. What is
pasted into it shows as it is: a bidi override or an escape is drawn as a character that shows."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from rich.control import strip_control_codes
from rich.highlighter import Highlighter
from rich.text import Text
from textual import events
from textual.widgets import Input

from explorer.tui.ordered_bindings import actions_by_key, run_in_turn
from explorer.tui.safe_text import UNSAFE


def one_for_one(match: re.Match[str]) -> str:
    """An unsafe character's stand-in in one character: a control picture (␛), else `�`."""
    code = ord(match.group(0))
    return chr(0x2400 + code) if code < 0x20 else "␡" if code == 0x7F else "\ufffd"


class StandIns(Highlighter):
    """Draws each character a terminal would not show as itself (U+202E, an escape) as one that shows,
    in reverse: one for one, so the cursor and the selection stay where the value says. The value is
    untouched: what is typed is what is sent (or refused, in plain words, on Enter).

    Rich drops a bell or a backspace from a Text before any highlighter sees it, so a pasted BEL
    would be held in the value and shown nowhere. Given the field's value (`value_of`), the stand-ins
    are drawn from that instead, whenever the text is the value with those characters dropped.
    """

    def __init__(self, value_of: Callable[[], str] | None = None) -> None:
        self.value_of = value_of

    def highlight(self, text: Text) -> None:
        plain = text.plain
        if self.value_of is not None:
            value = self.value_of()
            if value != plain and strip_control_codes(value) == plain:
                plain = value
        if UNSAFE.search(plain) is None:
            return
        text.plain = UNSAFE.sub(one_for_one, plain)
        for match in UNSAFE.finditer(plain):
            text.stylize("reverse", match.start(), match.end())


class OrderedInput(Input):
    """An Input that does its editing keys in turn with the characters typed after them.

    Input's editing keys (backspace, ctrl+u, ...) are bindings, which Textual runs once the key has
    gone up to the app, after the characters and pastes that came behind it have been put in: `g`
    then ctrl+u and `/orgs` sent at once left the field empty (`/orgs` went in, then ctrl+u emptied
    it). Here the field runs them itself, when their turn comes.
    """

    EDITING = actions_by_key(Input.BINDINGS)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("highlighter", StandIns(lambda: self.value))
        super().__init__(*args, **kwargs)

    def on_paste(self, event: events.Paste) -> None:
        """Input takes a paste's first line: where there were more, say so (nothing is dropped unsaid)."""
        lines = [line for line in event.text.splitlines() if line.strip()]
        if len(lines) > 1:
            self.notify(
                f"Only the first line of the paste was put in: this field takes one line ({len(lines)} were pasted)",
                severity="warning",
                markup=False,
            )

    async def on_key(self, event: events.Key) -> None:
        """An editing key's action, now: before Input's own handler, which only puts in characters.

        An invisible character typed (U+202E, a zero-width space, as tmux's send-keys or a terminal
        without bracketed paste sends one) is put in too: Input drops what is not printable, which
        sent `/or‮gs` as `/orgs` without a word. In the field it shows, and Enter says what it is."""
        character = event.character
        if character and len(character) == 1 and ord(character) > 0x9F and UNSAFE.match(character):
            event.prevent_default()
            event.stop()
            self.insert_text_at_cursor(character)
            return
        await run_in_turn(self, self.EDITING, event)
