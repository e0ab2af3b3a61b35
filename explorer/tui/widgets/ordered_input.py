"""A one-line field whose keys are done in the order they come: every question the app asks on one
line (the login form's fields, `g`, the JSON pane's search, a watch's condition) is one."""

from __future__ import annotations

from textual import events
from textual.binding import Binding
from textual.widgets import Input


class OrderedInput(Input):
    """An Input that does its editing keys in turn with the characters typed after them.

    Input's editing keys (backspace, ctrl+u, ...) are bindings, which Textual runs once the key has
    gone up to the app, after the characters and pastes that came behind it have been put in: `g`
    then ctrl+u and `/orgs` sent at once left the field empty (`/orgs` went in, then ctrl+u emptied
    it). Here the field runs them itself, when their turn comes.
    """

    EDITING = {binding.key: binding.action for binding in Binding.make_bindings(Input.BINDINGS)}

    async def on_key(self, event: events.Key) -> None:
        """An editing key's action, now: before Input's own handler, which only puts in characters."""
        action = self.EDITING.get(event.key)
        if action is not None:
            event.prevent_default()
            event.stop()
            await self.run_action(action)
