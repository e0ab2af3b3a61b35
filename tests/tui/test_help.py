"""Help (?): every key, what it does and its id, whole at any width; q, Esc and ? close it."""

from __future__ import annotations

import re

import pytest
from textual.geometry import Region
from textual.widgets import Static

from explorer.tui.keys import key_table
from explorer.tui.screens.help import HelpScreen
from explorer.tui.screens.main import MainScreen
from tests.manual import page, section
from tests.tui.screen_text import screen_text


def help_lines(explorer) -> list[str]:
    """Every line the help dialog draws, those scrolled out of view included."""
    lines = []
    for static in explorer.app.screen.query(Static):
        width, height = static.size
        lines += [strip.text.rstrip() for strip in static.render_lines(Region(0, 0, width, height))]
    return lines


async def open_help(explorer) -> None:
    await explorer.pilot.press("question_mark")
    await explorer.until_screen(HelpScreen)
    await explorer.pilot.pause()


@pytest.mark.screen
@pytest.mark.parametrize("width", [60, 80, 160])
async def test_help_shows_every_id_whole(open_explorer, width):
    async with open_explorer(size=(width, 24)) as explorer:
        await open_help(explorer)
        lines = help_lines(explorer)
        shown = "\n".join(lines)
        for _keys, description, binding_id in key_table({}):
            assert any(binding_id in line.split() for line in lines), f"{binding_id} is not shown whole:\n{shown}"
            assert description in shown, description
        assert "backspace, alt+left" in shown
        rows = {binding_id: keys for keys, _description, binding_id in key_table({})}
        assert (rows["explorer.narrower_tree"], rows["explorer.wider_tree"], rows["explorer.next_page"]) == (
            "<",
            ">",
            "]",
        )
        assert not any("_sign" in line or "square_bracket" in line for line in lines), shown
        assert not any("…" in line for line in lines), shown


def docs_ids() -> list[str]:
    """The ids in the docs' table of keys (`explorer.back`, `compare.noise`...): docs/screen.md."""
    keys = section(page("screen.md"), "## Keys")
    return re.findall(r"`([a-z]+\.[a-z_]+)`", keys)


@pytest.mark.screen
async def test_help_lists_every_key_the_docs_list(open_explorer):
    async with open_explorer(size=(160, 50)) as explorer:
        await open_help(explorer)
        words = {word for line in help_lines(explorer) for word in line.split()}
        ids = docs_ids()
        assert "compare.noise" in ids and len(ids) > 40
        assert [binding_id for binding_id in ids if binding_id not in words] == []


@pytest.mark.screen
async def test_help_shows_the_keys_as_remapped(open_explorer):
    async with open_explorer(size=(60, 24), app_options={"keymap": {"explorer.back": "h,ctrl+b"}}) as explorer:
        await open_help(explorer)
        shown = "\n".join(help_lines(explorer))
        assert "h, ctrl+b" in shown and "backspace, alt+left" not in shown


@pytest.mark.screen
@pytest.mark.parametrize("key", ["q", "escape", "question_mark"])
async def test_help_closes_on_q_escape_and_question_mark(open_explorer, key):
    async with open_explorer(size=(60, 24)) as explorer:
        await open_help(explorer)
        assert "esc, q or ? closes" in screen_text(explorer.app)  # and says so
        await explorer.pilot.press(key)
        await explorer.until_screen(MainScreen)
        assert explorer.app.is_running  # q closed the help, and did not quit


@pytest.mark.screen
async def test_help_names_tab_the_way_back_to_the_tree_from_a_pane(explorer):
    await explorer.open("groups")
    await explorer.pilot.press("2")  # the JSON pane has the keys
    await explorer.until(lambda: type(explorer.app.focused).__name__ == "JsonView")
    await open_help(explorer)
    rows = [line.split() for line in help_lines(explorer)]
    assert ["tab", "Focus", "next:", "tree,", "tabs,", "pane", "explorer.focus_next"] in rows
    await explorer.pilot.press("escape")
    await explorer.until_screen(MainScreen)
    await explorer.pilot.press("tab")  # as help says
    await explorer.until(lambda: explorer.app.focused is explorer.link_tree)


@pytest.mark.screen
async def test_help_says_in_words_what_p_and_e_do_not_only_the_parameter(explorer):
    await open_help(explorer)
    lines = help_lines(explorer)
    said = {line.split()[0]: " ".join(line.split()[1:-1]) for line in lines if line.split()[:1] in (["p"], ["e"])}
    assert said == {
        "p": "Pretty JSON from the service (pretty=true)",
        "e": "The status in the body (envelope=true)",
    }
