"""Every one-line question takes its keys in the order they come: `g`, the JSON pane's search.

A terminal sends a quick typist's keys (or tmux's send-keys) in one breath. Input's editing keys
are bindings, run once the key has reached the app, after the characters behind them: ctrl+u then
`/orgs` put `/orgs` in, then emptied the field."""

from __future__ import annotations

import pytest
from textual import events
from textual.widgets import Input

from explorer.tui.screens.dialogs import AskScreen
from tests.tui.conftest import Explorer
from tests.tui.screen_text import region_text

QUICK = [
    (["ctrl+u", *"/orgs"], "/orgs"),  # emptied, then typed
    (["ctrl+u", *"/grp", "backspace", "backspace", *"roups"], "/groups"),
    (["ctrl+u", *"/x", "home", "ctrl+k", *"/y"], "/y"),
]


def send_at_once(explorer: Explorer, keys: list[str]) -> None:
    for key in keys:  # all queued at once, as a terminal delivers them
        explorer.app.post_message(events.Key("slash" if key == "/" else key, key if len(key) == 1 else None))


def typed(explorer: Explorer, field: Input) -> str:
    """The field's text line as drawn, without its border (with the ghost text of `g`'s completion)."""
    drawn = region_text(explorer.app, field).splitlines()
    return drawn[len(drawn) // 2].strip(" ▊▎")


async def field_reads(explorer: Explorer, field: Input, value: str) -> None:
    """Wait for the field to hold `value`, and to show it."""
    try:
        await explorer.until(lambda: field.value == value and typed(explorer, field).startswith(value))
    except AssertionError:
        raise AssertionError(f"the field shows {typed(explorer, field)!r}, not {value!r}") from None


@pytest.mark.screen
@pytest.mark.parametrize("keys, value", QUICK)
async def test_go_to_does_its_editing_keys_in_turn_with_the_characters(open_explorer, keys, value):
    async with open_explorer(size=(80, 24)) as explorer:
        await explorer.pilot.press("g")
        await explorer.until(lambda: isinstance(explorer.app.focused, Input))
        field = explorer.app.focused
        await explorer.pilot.press(*"/abc")
        send_at_once(explorer, keys)
        await field_reads(explorer, field, value)


@pytest.mark.screen
@pytest.mark.parametrize("keys, value", QUICK)
async def test_the_json_search_does_its_editing_keys_in_turn_with_the_characters(open_explorer, keys, value):
    async with open_explorer(size=(80, 24)) as explorer:
        await explorer.pilot.press("2", "slash")
        await explorer.until(lambda: isinstance(explorer.app.focused, Input))
        field = explorer.app.focused
        await explorer.pilot.press(*"abc")
        send_at_once(explorer, keys)
        await field_reads(explorer, field, value)


@pytest.mark.screen
async def test_keys_that_reach_a_question_before_its_field_has_the_focus_are_the_fields(explorer):
    asking = AskScreen("Save the body, as received, to:")
    await explorer.app.push_screen(asking)
    asking.set_focus(None)  # as it is for a moment on a loaded machine, before Textual focuses the field
    for character in "a.json":
        asking.post_message(events.Key(character, character))
    await explorer.pilot.pause()
    assert explorer.app.screen is asking and asking.query_one(Input).value == "a.json"
