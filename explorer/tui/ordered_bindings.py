"""Binding keys done as they come, in turn with the keys typed after them.

Textual runs a binding once its key has gone up to the app, after the keys typed behind it have
reached the widgets below: `ctrl+u` then `/orgs` in one breath emptied a field after `/orgs` was put
in, and Enter then `down` moved a list rather than the editor it opened. The fields (ordered_input,
ordered_text_area) and the act dialog's list run their bindings' actions here instead, in order.
Below the widgets, as cursor_keys.py is.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from textual import events
from textual.binding import Binding, BindingType
from textual.widget import Widget


def actions_by_key(bindings: Iterable[BindingType]) -> dict[str, str]:
    """Each bound key's action (`backspace` → `delete_left`), from a widget class's BINDINGS."""
    return {binding.key: binding.action for binding in Binding.make_bindings(bindings)}


async def run_in_turn(node: Widget, actions: Mapping[str, str], event: events.Key) -> bool:
    """Run the action bound to `event`'s key on `node` now, the key taken; False when none is bound."""
    action = actions.get(event.key)
    if action is None:
        return False
    event.prevent_default()
    event.stop()
    await node.run_action(action)
    return True
