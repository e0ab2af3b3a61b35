"""The request editor's body: a TextArea whose keys are done in the order they come."""

from __future__ import annotations

from textual import events
from textual.widgets import TextArea

from explorer.tui.keys_in_turn import actions_by_key, run_in_turn


class OrderedTextArea(TextArea):
    """A TextArea that does its editing and moving keys in turn with the characters typed after them.

    TextArea's cursor and editing keys (down, end, backspace, ...) are bindings, which Textual runs
    once the key has gone up to the app, after the characters that came behind it have been put in:
    down, end, backspace and `20` sent at once put `20` at the start of the line the cursor was on,
    then moved and deleted. Here the area runs them itself, when their turn comes (as OrderedInput
    does for a one-line field).
    """

    EDITING = actions_by_key(TextArea.BINDINGS)

    async def on_key(self, event: events.Key) -> None:
        """An editing key's action, now: before TextArea's own handler, which only puts in characters."""
        await run_in_turn(self, self.EDITING, event)
