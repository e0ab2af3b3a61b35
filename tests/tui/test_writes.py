"""Writes on the screen: a lists them, the editor prepares, the preview shows and asks, u undoes."""

from __future__ import annotations

import asyncio
import json
import shlex
from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from textual import events
from textual.widgets import Input, Label, OptionList, Static, TextArea

from explorer.api.config import Credentials
from explorer.api.har import REDACTED
from explorer.api.journal import Journal
from explorer.api.options import Har
from explorer.api.secret import Secret
from explorer.api.session import Session
from explorer.api.writes import WritePolicy
from explorer.connection import replaying
from explorer.sandbox import Settings, create_app
from explorer.sandbox.links import API_ROOT
from explorer.tui.screens.act import ActScreen
from explorer.tui.screens.editor import EditorScreen
from explorer.tui.screens.preview import PreviewScreen
from explorer.tui.widgets.presenter_overlay import PresenterOverlay
from explorer.tui.widgets.watch_view import WatchView
from tests.tui.conftest import explorer_on
from tests.tui.screen_text import region_text, screen_lines
from tests.undescribed import Undescribed


async def open_production(explorer):
    await explorer.open("groups")
    return await explorer.open("groups", "production")


async def choose(explorer, method: str):
    await explorer.pilot.press("a")
    await explorer.until_screen(ActScreen)
    options = explorer.app.screen.query_one(OptionList)
    labels = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
    at = next(i for i, label in enumerate(labels) if label.startswith(method))
    options.highlighted = at
    await explorer.pilot.press("enter")
    await explorer.until_screen(EditorScreen)
    return labels


def editor_text(explorer) -> str:
    return explorer.app.screen.query_one(TextArea).text


def set_body(explorer, text: str) -> None:
    explorer.app.screen.query_one(TextArea).text = text


async def send(explorer, body: str) -> None:
    """In the editor: this body, ctrl+s, and the preview's Enter (its yes)."""
    set_body(explorer, body)
    await explorer.pilot.press("ctrl+s")
    await explorer.until_screen(PreviewScreen)
    await explorer.pilot.press("enter")


def screen_text(explorer) -> str:
    return "\n".join(
        str(getattr(w, "renderable", "") or getattr(w, "content", ""))
        for w in explorer.app.screen.query("Static, Label")
    )


@pytest.mark.screen
async def test_a_lists_the_documented_writes_and_the_read_only_state(explorer):
    await open_production(explorer)
    labels = await choose(explorer, "PATCH")
    assert [label.split()[0] for label in labels] == ["PATCH", "DELETE"]
    assert "read-only (the default)" in screen_text(explorer)


@pytest.mark.screen
async def test_a_at_the_root_says_plainly_that_nothing_can_be_written_there(explorer):
    await explorer.pilot.press("a")
    await explorer.until_screen(ActScreen)
    assert screen_text(explorer).splitlines()[-1] == "Nothing can be written here: the root takes no writes."


@pytest.mark.screen
async def test_the_act_dialog_breaks_the_url_after_a_slash_never_mid_segment(open_explorer):
    async with open_explorer(size=(120, 40), writes=True) as explorer:
        clusters = "https://sandbox.invalid/api/service/v1.0/groups/687b4c139cc9af4ec9546b43/clusters/"
        await explorer.go_to(clusters + "catalog-prod")
        await explorer.pilot.press("a")
        await explorer.until_screen(ActScreen)
        title = explorer.q("Label")
        assert region_text(explorer.app, title).splitlines() == [f"Act on {clusters}", "catalog-prod"]
        await explorer.pilot.resize_terminal(60, 24)
        await explorer.pilot.pause()
        assert region_text(explorer.app, title).splitlines() == [
            "Act on https://sandbox.invalid/api/",
            "service/v1.0/groups/",
            "687b4c139cc9af4ec9546b43/clusters/",
            "catalog-prod",
        ]


@pytest.mark.screen
async def test_a_patch_is_prefilled_previewed_with_its_differences_and_sent_on_enter(open_explorer):
    async with open_explorer(writes=True) as explorer:
        project = await open_production(explorer)
        await choose(explorer, "PATCH")
        prefilled = json.loads(editor_text(explorer))
        assert prefilled["name"] == "production"
        assert "links" not in prefilled and "id" not in prefilled
        set_body(explorer, json.dumps({"name": "production-eu"}, indent=2))
        await explorer.pilot.press("ctrl+s")
        await explorer.until_screen(PreviewScreen)
        shown = screen_text(explorer)
        assert "PATCH https://sandbox.invalid/api/service/v1.0/groups/" in shown
        assert "authorization: Bearer ***" in shown
        assert "content-type: application/json" in shown
        assert '~ .name: "production" → "production-eu"' in shown
        writes_before = explorer.requests()
        await explorer.pilot.press("enter")
        await explorer.until(lambda: "PATCH · 200 OK" in explorer.toasts())
        assert explorer.requests() > writes_before
        log = [e for e in explorer.app.session.log if e.method == "PATCH"]
        assert len(log) == 1 and log[0].status == 200
        await explorer.until(lambda: explorer.node("groups", "production-eu") is not None)  # the tree renamed it
        await explorer.pilot.press("a")  # and it is still the entity in view, to act on again
        await explorer.until_screen(ActScreen)
        assert project.data is not None


@pytest.mark.screen
async def test_the_preview_shows_the_body_line_by_line_its_controls_visible(explorer):
    await open_production(explorer)
    await choose(explorer, "PATCH")
    set_body(explorer, '{\n  "name": "a\u202eb"\n}')
    await explorer.pilot.press("ctrl+s")
    await explorer.until_screen(PreviewScreen)
    shown = str(explorer.app.screen.query_one("#body").render())
    assert shown.splitlines() == ["", "{", '  "name": "a<U+202E>b"', "}"]


@pytest.mark.screen
async def test_read_only_prepares_but_never_sends(explorer):
    await open_production(explorer)
    await choose(explorer, "PATCH")
    set_body(explorer, '{"name": "x"}')
    await explorer.pilot.press("ctrl+s")
    await explorer.until_screen(PreviewScreen)
    assert "Not sent: read-only" in screen_text(explorer)
    await explorer.pilot.press("enter")
    await explorer.until(lambda: "Not sent: this session is read-only" in explorer.toasts())  # Enter's answer
    assert isinstance(explorer.app.screen, PreviewScreen)
    assert not [e for e in explorer.app.session.log if e.method == "PATCH"]


@pytest.mark.screen
async def test_a_refused_write_reopens_the_editor_with_the_field_marked_and_the_draft_kept(open_explorer):
    async with open_explorer(writes=True) as explorer:
        await open_production(explorer)
        await choose(explorer, "PATCH")
        body = '{\n  "name": "production",\n  "nonsense": 1\n}'
        await send(explorer, body)
        await explorer.until_screen(EditorScreen)
        assert editor_text(explorer) == body
        problems = str(explorer.app.screen.query_one("#problems").render())
        assert problems.startswith("line 3: 400 Bad Request · INVALID_ATTRIBUTE"), problems


CATALOG = "/groups/687b4c139cc9af4ec9546b43/clusters/catalog-prod"  # the demo's sharded cluster


def editor_lines(explorer) -> list[str]:
    """The body's lines as the editor shows them, its frame's right edge left off."""
    area = explorer.app.screen.query_one(TextArea)
    return [line.rstrip("▎ ") for line in region_text(explorer.app, area).splitlines()]


async def preview_and_back(explorer) -> None:
    await explorer.pilot.press("ctrl+s")
    await explorer.until_screen(PreviewScreen)
    await explorer.pilot.press("escape")
    await explorer.until_screen(EditorScreen)


@pytest.mark.screen
async def test_back_from_the_preview_typing_goes_on_the_line_it_went_before(open_explorer):
    """The tester's keys: line 3 edited, previewed, Esc, then End and BackSpace edit line 3 again."""
    async with open_explorer(writes=True, size=(120, 40)) as explorer:
        await explorer.go_to(CATALOG)
        await choose(explorer, "PATCH")
        await explorer.pilot.press("down", "down", "end", *["backspace"] * 5, *"20.0,")
        await preview_and_back(explorer)
        await explorer.pilot.press("end", *["backspace"] * 5, *'"big",')
        area = explorer.app.screen.query_one(TextArea)
        await explorer.until(lambda: '"big"' in area.text)
        assert editor_lines(explorer)[1:4] == [
            "▊  1  {",
            '▊  2    "backupEnabled": true,',
            '▊  3    "diskSizeGB": "big",',
        ]
        assert " line 3: .diskSizeGB: must be a number, not a string" in screen_lines(explorer.app)


EDIT_LINE_3 = [("down", None), ("down", None), ("end", None), *[("backspace", None)] * 5, *((c, c) for c in "20.0,")]


def type_in_one_breath(explorer, *keys: tuple[str, str | None]) -> None:
    """Keys as a fast typist or tmux's send-keys sends them: all before the app has taken the first."""
    for key, character in keys:
        explorer.app.post_message(events.Key(key, character))


async def line_3_edited(explorer) -> list[str]:
    """The editor's lines once EDIT_LINE_3 has been typed: line 3 edited, the cursor at its end."""
    await explorer.until_screen(EditorScreen)
    await explorer.until(lambda: "20.0," in editor_text(explorer))
    area = explorer.app.screen.query_one(TextArea)
    await explorer.until(lambda: area.has_focus)
    lines = editor_lines(explorer)
    assert lines[1:4] == [
        "▊  1  {",
        '▊  2    "backupEnabled": true,',
        '▊  3    "diskSizeGB": 20.0,',
    ]
    assert area.cursor_location == (2, len('  "diskSizeGB": 20.0,'))
    return lines


@pytest.mark.screen
async def test_keys_typed_in_one_breath_with_the_choice_go_to_the_editor_in_order(open_explorer):
    """Enter on PATCH, then down, down, end, backspaces and `20.0,` at once: each key is the editor's,
    in turn, on the line the cursor is on; none is the list's, none the tree's, none is lost."""
    async with open_explorer(writes=True, size=(120, 40)) as explorer:
        await explorer.go_to(CATALOG)
        await explorer.pilot.press("a")
        await explorer.until_screen(ActScreen)
        options = explorer.app.screen.query_one(OptionList)
        options.highlighted = 0
        assert str(options.get_option_at_index(0).prompt).startswith("PATCH")
        type_in_one_breath(explorer, ("enter", "\r"), *EDIT_LINE_3)
        lines = await line_3_edited(explorer)
        assert lines[4] == '▊  4    "labels": [],'


def held_back(
    step: Callable[..., Awaitable[Any]] | None = None,
) -> tuple[Callable[..., Any], asyncio.Event, asyncio.Event]:
    """A stand-in for an async step of the app, which stops until let go, then does `step` if given:
    (the stand-in, the event set when it is reached, the event that lets it go on)."""
    reached, go_on = asyncio.Event(), asyncio.Event()

    async def stand_in(*args: Any, **kwargs: Any) -> Any:
        reached.set()
        await go_on.wait()
        return None if step is None else await step(*args, **kwargs)

    return stand_in, reached, go_on


async def editor_held_back(explorer) -> tuple[asyncio.Event, asyncio.Event]:
    """On CATALOG's act list, its draft file's reading held back: (reached, go_on), that step reached
    and the event that lets it go on. The editor comes once that step is over."""
    await explorer.go_to(CATALOG)
    main = explorer.app.screen
    await explorer.pilot.press("a")
    await explorer.until_screen(ActScreen)
    main.write_flow.drafts.recall, reached, go_on = held_back()
    return reached, go_on


@pytest.mark.screen
async def test_keys_typed_while_the_editor_is_slow_to_come_wait_for_it_and_touch_nothing_below(open_explorer):
    """The editor comes once its draft file has been read, in a thread: on a loaded machine the keys
    after Enter reached the tree below it in the meantime, and `20.0,` was lost. They wait for it."""
    async with open_explorer(writes=True, size=(120, 40)) as explorer:
        reached, go_on = await editor_held_back(explorer)
        main = explorer.app.screen_stack[-2]
        cursor = main.link_tree.cursor_line
        type_in_one_breath(explorer, ("enter", "\r"), *EDIT_LINE_3)
        await explorer.until(reached.is_set)
        await explorer.until(lambda: len(explorer.app.keys.waiting) == len(EDIT_LINE_3))
        assert explorer.app.screen is main
        assert main.link_tree.cursor_line == cursor  # no `down` reached the tree
        go_on.set()
        lines = await line_3_edited(explorer)
        assert lines[4] == '▊  4    "labels": [],'


@pytest.mark.screen
async def test_ctrl_q_typed_while_the_editor_is_on_its_way_quits_at_once(open_explorer):
    async with open_explorer(writes=True, size=(80, 24)) as explorer:
        reached, _ = await editor_held_back(explorer)
        type_in_one_breath(explorer, ("enter", "\r"), ("down", None))
        await explorer.until(reached.is_set)
        await explorer.until(lambda: [key.key for key in explorer.app.keys.waiting] == ["down"])
        type_in_one_breath(explorer, ("ctrl+q", None))
        await explorer.until(lambda: explorer.app.quitting)
        assert [key.key for key in explorer.app.keys.waiting] == ["down"]  # held still: the editor never came


@pytest.mark.screen
async def test_esc_a_and_enter_in_one_breath_choose_in_the_list_while_the_last_draft_is_set_aside(open_explorer):
    """Esc leaves the editor and its flow sets the draft aside, in a thread; `a` cancels that flow.
    The cancelled flow's ending once let the keys waiting for `a`'s list go, and Enter opened the
    tree's line. Now only the flow that asked for the list can say it is not coming."""
    async with open_explorer(writes=True, size=(120, 40)) as explorer:
        await explorer.go_to(CATALOG)
        main = explorer.app.screen
        await choose(explorer, "PATCH")
        session = explorer.app.session
        main.write_flow.drafts.set_aside, setting_aside, set_aside_goes_on = held_back()
        session.load_description, describing, description_goes_on = held_back(session.load_description)
        unfolded = main.link_tree.cursor_node.is_expanded
        type_in_one_breath(explorer, ("escape", None), ("a", "a"), ("enter", "\r"))
        await explorer.until(lambda: setting_aside.is_set() and describing.is_set())
        await explorer.until(lambda: [key.key for key in explorer.app.keys.waiting] == ["enter"])
        set_aside_goes_on.set()
        description_goes_on.set()
        await explorer.until_screen(EditorScreen)  # PATCH, the list's first, chosen by the Enter
        assert main.link_tree.cursor_node.is_expanded == unfolded  # the tree had no Enter


@pytest.mark.screen
async def test_enter_typed_with_ctrl_s_before_the_preview_is_up_sends_nothing(open_explorer):
    """`ctrl+s` and Enter in one breath: the Enter was typed before the preview asked anything, and
    is no answer to it (as the command line empties the terminal's queue before `Send? [y/N]`)."""
    async with open_explorer(writes=True, size=(120, 40)) as explorer:
        await open_production(explorer)
        await choose(explorer, "PATCH")
        set_body(explorer, '{"name": "production-renamed"}')
        type_in_one_breath(explorer, ("ctrl+s", None), ("enter", "\r"))
        await explorer.until_screen(PreviewScreen)
        await explorer.until(lambda: not explorer.app.keys.waiting and explorer.app.keys.current is None)
        assert not [e for e in explorer.app.session.log if e.method == "PATCH"]
        await explorer.pilot.press("enter")  # typed with the preview in view: sent, once
        await explorer.until(lambda: "PATCH · 200 OK: done" in explorer.toasts())
        assert [e.status for e in explorer.app.session.log if e.method == "PATCH"] == [200]


@pytest.mark.screen
async def test_a_and_u_wait_for_the_answer_of_a_write_on_its_way(open_explorer):
    """`u` (or `a`) while a write is on its way once cancelled the flow that sent it: its answer was
    never said, and no undo was made of it. Now they say the answer comes first."""
    async with open_explorer(writes=True, size=(120, 40)) as explorer:
        await open_production(explorer)
        main = explorer.app.screen
        await choose(explorer, "PATCH")
        session = explorer.app.session
        session.send_write, sending, go_on = held_back(session.send_write)
        await send(explorer, '{"name": "production-renamed"}')
        await explorer.until(sending.is_set)
        await explorer.until(lambda: explorer.app.screen is main)
        await explorer.pilot.press("u")
        await explorer.until(lambda: "A write is on its way: its answer comes first." in explorer.toasts())
        await explorer.pilot.press("a")
        assert explorer.app.screen is main
        go_on.set()
        await explorer.until(lambda: "PATCH · 200 OK: done" in explorer.toasts())
        assert main.write_flow.undo is not None  # `u` can put it back now


@pytest.mark.screen
async def test_a_and_the_keys_after_it_in_one_breath_go_to_the_list_then_the_editor(open_explorer):
    """`a`, Enter and the editing keys at once, as tmux's send-keys sends them: the Enter is the list's
    (PATCH, the first), not the tree's, and the rest the editor's, in turn."""
    async with open_explorer(writes=True, size=(120, 40)) as explorer:
        await explorer.go_to(CATALOG)
        unfolded = explorer.link_tree.cursor_node.is_expanded
        type_in_one_breath(explorer, ("a", "a"), ("enter", "\r"), *EDIT_LINE_3)
        lines = await line_3_edited(explorer)
        assert lines[4] == '▊  4    "labels": [],'
        assert explorer.app.screen_stack[1].link_tree.cursor_node.is_expanded == unfolded  # the tree had no Enter


@pytest.mark.screen
async def test_keys_typed_in_one_breath_after_esc_from_the_preview_go_to_the_editor(open_explorer):
    async with open_explorer(writes=True, size=(80, 24)) as explorer:
        await explorer.go_to(CATALOG)
        await choose(explorer, "PATCH")
        await explorer.pilot.press("ctrl+s")
        await explorer.until_screen(PreviewScreen)
        type_in_one_breath(explorer, ("escape", None), *EDIT_LINE_3)
        await line_3_edited(explorer)


@pytest.mark.screen
async def test_back_from_the_preview_the_editor_is_scrolled_and_selected_as_it_was(open_explorer):
    async with open_explorer(writes=True, size=(80, 24)) as explorer:
        await open_production(explorer)
        await choose(explorer, "PATCH")
        set_body(explorer, json.dumps({f"f{n:02}": n for n in range(1, 41)}, indent=2))
        await explorer.pilot.press(*["down"] * 36, *["up"] * 4)  # scrolled down, the cursor above the bottom
        await explorer.pilot.press("end", "left", "shift+left", "shift+left")  # "f32": 32
        before = editor_lines(explorer)
        assert before[1] == '▊ 23    "f22": 22,' and before[-2] == '▊ 37    "f36": 36,'
        await preview_and_back(explorer)
        assert editor_lines(explorer) == before
        await explorer.pilot.press(*"99")  # over the selection
        await explorer.until(lambda: '"f32": 99' in editor_text(explorer))
        assert '▊ 33    "f32": 99,' in editor_lines(explorer)


@pytest.mark.screen
async def test_a_refusal_puts_the_cursor_on_its_field_and_the_preview_leaves_it_where_moved(open_explorer):
    async with open_explorer(writes=True, size=(120, 40)) as explorer:
        await open_production(explorer)
        await choose(explorer, "PATCH")
        await send(explorer, '{\n  "name": "production",\n  "nonsense": 1\n}')
        await explorer.until_screen(EditorScreen)
        await explorer.pilot.press("end", "0")  # on the refused field's line
        await explorer.pilot.press("up")
        await preview_and_back(explorer)
        await explorer.pilot.press("end", "backspace")  # where the cursor was left, not the refused line
        await explorer.until(lambda: '"production"\n' in editor_text(explorer))
        assert editor_lines(explorer)[1:5] == [
            "▊ 1  {",
            '▊ 2    "name": "production"',
            '▊ 3    "nonsense": 10',
            "▊ 4  }",
        ]


@pytest.mark.screen
async def test_a_refused_delete_says_why_and_sends_nothing_more(open_explorer):
    async with open_explorer(writes=True) as explorer:
        await open_production(explorer)  # it holds clusters: the service refuses to delete it
        await choose(explorer, "DELETE")
        await explorer.pilot.press("ctrl+s")
        await explorer.until_screen(PreviewScreen)
        explorer.app.screen.query_one(Input).value = "production"
        await explorer.pilot.press("enter")
        await explorer.until_screen(EditorScreen)
        assert "DELETE · 409 Conflict: refused" in explorer.toasts()
        assert [e.status for e in explorer.app.session.log if e.method == "DELETE"] == [409]


@pytest.mark.screen
async def test_a_draft_set_aside_opens_again_in_the_next_session_its_secret_kept_out(open_explorer, own_folders):
    """The editor closed with Esc: the draft is stored (redacted), and the next explorer opens it again."""
    async with open_explorer(writes=True) as explorer:
        await open_production(explorer)
        await choose(explorer, "PATCH")
        set_body(explorer, '{"name": "draft-9f8e", "password": "s3cret-draft-77"}')
        await explorer.pilot.press("escape")
        await explorer.until(lambda: "Draft kept, in the next session too" in explorer.toasts())
    stored = b"".join(p.read_bytes() for p in own_folders.rglob("drafts.sqlite3*"))
    assert b"draft-9f8e" in stored and b"s3cret-draft-77" not in stored
    async with open_explorer(writes=True) as explorer:  # the next session
        await open_production(explorer)
        await choose(explorer, "PATCH")
        assert json.loads(editor_text(explorer)) == {"name": "draft-9f8e", "password": REDACTED}
        await send(explorer, '{"name": "sent-9f8e"}')
        await explorer.until(lambda: not isinstance(explorer.app.screen, (EditorScreen, PreviewScreen)))
        await explorer.settle()
    async with open_explorer(writes=True) as explorer:  # sent: the draft is done, here and stored
        await open_production(explorer)
        await choose(explorer, "PATCH")
        assert "draft-9f8e" not in editor_text(explorer)


@pytest.mark.screen
async def test_esc_keeps_the_draft(open_explorer):
    async with open_explorer(writes=True) as explorer:
        await open_production(explorer)
        await choose(explorer, "PATCH")
        set_body(explorer, '{"name": "draft"}')
        await explorer.pilot.press("escape")
        await explorer.until(lambda: not isinstance(explorer.app.screen, EditorScreen))
        kept = "Draft kept, in the next session too: a, then the same write, opens it again."  # no backticks
        await explorer.until(lambda: kept in explorer.toasts())  # said once it is stored
        await choose(explorer, "PATCH")
        assert editor_text(explorer) == '{"name": "draft"}'
        await explorer.pilot.pause()
        assert "Draft kept" not in explorer.toasts()  # said once: not over the draft it spoke of, open again


@pytest.mark.screen
@pytest.mark.parametrize("size", [(80, 24), (60, 24)])
async def test_the_draft_notice_goes_when_the_draft_opens_again_at_once(open_explorer, size):
    """Esc in the editor, then `a` and the same write in one breath: the notice about the draft, still
    on its way when the editor opens again, is not shown over it; a notice said before it stays."""
    async with open_explorer(writes=True, size=size) as explorer:
        await open_production(explorer)
        await choose(explorer, "PATCH")
        set_body(explorer, '{"name": "draft"}')
        explorer.app.notify("Another notice", markup=False)
        await explorer.pilot.press("escape")
        await choose(explorer, "PATCH")
        assert editor_text(explorer) == '{"name": "draft"}'
        await explorer.pilot.pause()
        assert "Draft kept" not in explorer.toasts() and "Another notice" in explorer.toasts()


@pytest.mark.screen
async def test_a_draft_opened_again_has_its_cursor_where_it_was_left(open_explorer):
    async with open_explorer(writes=True) as explorer:
        await open_production(explorer)
        await choose(explorer, "PATCH")
        set_body(explorer, '{\n  "name": "draft"\n}')
        await explorer.pilot.press("down", "end", "left", "left")
        await explorer.pilot.press("escape")
        await explorer.until(lambda: not isinstance(explorer.app.screen, EditorScreen))
        await choose(explorer, "PATCH")
        area = explorer.app.screen.query_one(TextArea)
        assert area.cursor_location == (1, 15)  # after `"draf`, where typing goes on
        await explorer.pilot.press("x")
        assert editor_text(explorer) == '{\n  "name": "drafxt"\n}'


@pytest.mark.screen
async def test_a_delete_asks_for_the_name_typed_out(open_explorer):
    async with open_explorer(writes=True) as explorer:
        await explorer.open("groups")
        project = await explorer.open("groups", "empty-sandbox")
        await choose(explorer, "DELETE")
        await explorer.pilot.press("ctrl+s")
        await explorer.until_screen(PreviewScreen)
        assert "To delete it, type empty-sandbox" in screen_text(explorer)
        await explorer.pilot.press("enter")
        await explorer.until(lambda: "Not sent: that is not empty-sandbox." in screen_text(explorer))  # in the dialog
        assert not [e for e in explorer.app.session.log if e.method == "DELETE"]
        assert explorer.toasts() == ""  # not a notice, which took the lines of the field it speaks of
        explorer.app.screen.query_one(Input).value = project.data.url.rsplit("/", 1)[-1]  # its id does as well
        await explorer.pilot.press("enter")
        await explorer.until(lambda: "DELETE · 204 No Content: done" in explorer.toasts())
        assert [e.status for e in explorer.app.session.log if e.method == "DELETE"] == [204]
        groups = explorer.node("groups")
        await explorer.until(lambda: explorer.screen.navigation.current is groups.data)  # the list, without it
        assert "empty-sandbox" not in [child.data.title for child in groups.children]
        assert explorer.app.screen.sub_title.endswith("/groups")


@pytest.mark.screen
async def test_a_delete_confirmed_by_the_name_and_enter_in_one_breath_is_sent(open_explorer):
    async with open_explorer(writes=True) as explorer:
        await explorer.open("groups")
        await explorer.open("groups", "empty-sandbox")
        await choose(explorer, "DELETE")
        await explorer.pilot.press("ctrl+s")
        await explorer.until_screen(PreviewScreen)
        await explorer.until(lambda: isinstance(explorer.app.focused, Input))
        type_in_one_breath(
            explorer, *[(char if char != "-" else "minus", char) for char in "empty-sandbox"], ("enter", "\r")
        )
        await explorer.until(lambda: "DELETE · 204 No Content: done" in explorer.toasts())
        assert [e.status for e in explorer.app.session.log if e.method == "DELETE"] == [204]


@pytest.mark.screen
async def test_u_undoes_a_patch_after_its_own_preview(open_explorer):
    async with open_explorer(writes=True) as explorer:
        await patch_and_undo(explorer, "Undo the last PATCH or PUT · roles: Project Owner · writes on")


async def rename_production_then_undo(explorer) -> None:
    """A PATCH renaming the production project, sent, then `u`: the undo's editor up."""
    await open_production(explorer)
    await choose(explorer, "PATCH")
    await send(explorer, '{"name": "renamed"}')
    await explorer.until(lambda: "PATCH · 200 OK" in explorer.toasts())
    await explorer.pilot.press("u")
    await explorer.until_screen(EditorScreen)


@pytest.mark.screen
async def test_keys_typed_with_u_wait_for_the_undo_s_editor(open_explorer):
    """`u` opens its editor as `a` opens its list, once the description has come: the keys typed with
    it wait for that editor, none reaching the tree."""
    async with open_explorer(writes=True) as explorer:
        await rename_production_then_undo(explorer)
        await explorer.pilot.press("escape")
        await explorer.until(lambda: "The undo was not sent: u makes it again." in explorer.toasts())
        main, session = explorer.app.screen, explorer.app.session
        cursor = main.link_tree.cursor_line
        session.load_description, describing, go_on = held_back(session.load_description)
        type_in_one_breath(explorer, ("u", "u"), ("down", None))
        await explorer.until(describing.is_set)
        await explorer.until(lambda: [key.key for key in explorer.app.keys.waiting] == ["down"])
        assert main.link_tree.cursor_line == cursor
        go_on.set()
        await explorer.until_screen(EditorScreen)
        await explorer.until(lambda: not explorer.app.keys.waiting and explorer.app.keys.current is None)
        assert main.link_tree.cursor_line == cursor  # the `down` was the editor's


@pytest.mark.screen
async def test_the_undo_is_checked_against_the_schema_of_a_patch_there(open_explorer):
    async with open_explorer(writes=True) as explorer:
        await rename_production_then_undo(explorer)
        problems = explorer.app.screen.query_one("#problems", Static)
        assert str(problems.render()) == "✓ JSON, as the API description's schema asks"
        set_body(explorer, '{"name": 7}')
        await explorer.until(lambda: str(problems.render()).startswith("line 1"))
        assert str(problems.render()) == "line 1: .name: must be a string, not a number"


@pytest.mark.screen
async def test_an_undo_left_unsent_is_not_the_next_patch_s_draft(open_explorer):
    """A walk-through found it: `u`, Esc, then `a` → PATCH opened the undo's body as a plain PATCH,
    which, sent from there, would not have been noted as the undo."""
    async with open_explorer(writes=True) as explorer:
        await rename_production_then_undo(explorer)
        assert '"name": "production"' in editor_text(explorer)
        await explorer.pilot.press("escape")
        await explorer.until(lambda: "The undo was not sent: u makes it again." in explorer.toasts())
        await choose(explorer, "PATCH")
        assert '"name": "production"' not in editor_text(explorer)


@pytest.mark.screen
async def test_a_patch_and_its_undo_over_a_real_socket(live_server, clock, tmp_path):
    """And the journal says which undid which."""
    server, switchboard = live_server
    switchboard.app = Undescribed(create_app(Settings()))  # it publishes no /openapi.json, and none is given
    defaults = Settings()
    credentials = Credentials(
        server.url + API_ROOT, client_id=defaults.client_id, client_secret=Secret(defaults.client_secret)
    )
    journal = Journal(tmp_path / "journal.sqlite3")
    session = Session(credentials, writes=WritePolicy(True, "--writes"), har=Har(journal=journal))
    async with explorer_on(session, clock) as explorer:
        await patch_and_undo(  # no API description here: nothing documents a PATCH, nor its schema
            explorer, "Undo the last PATCH or PUT (no PATCH documented here: no schema to check it against) · writes on"
        )
    undo, patch = Journal(tmp_path / "journal.sqlite3").entries()
    assert (patch.document("body"), patch.undone_by) == ({"name": "renamed"}, undo.number)
    assert (undo.document("body"), undo.undoes, undo.outcome) == ({"name": "production"}, patch.number, "sent")


async def patch_and_undo(explorer, about: str) -> None:
    """PATCH production's name, then `u`: the editor (`about` its line under the URL), the preview
    and the service agree at each step."""
    await rename_production_then_undo(explorer)
    assert json.loads(editor_text(explorer)) == {"name": "production"}
    assert str(explorer.app.screen.query_one("#about", Label).render()) == about
    await explorer.pilot.press("ctrl+s")
    await explorer.until_screen(PreviewScreen)
    assert '~ .name: "renamed" → "production"' in screen_text(explorer)
    await explorer.pilot.press("enter")
    await explorer.until(lambda: len([e for e in explorer.app.session.log if e.method == "PATCH"]) == 2)
    patched = [e.url for e in explorer.app.session.log if e.method == "PATCH"]
    project = await explorer.app.session.fetch(patched[-1])
    assert project.json["name"] == "production"


ARCHIVE = "/groups/6a793f532c88faeba59ba0df/clusters/onlineArchives-734/onlineArchives/6a79450d2c88faeba59d4082"


@pytest.mark.screen
async def test_the_real_services_recorded_refusals_reopen_the_editor_saying_why(clock):
    """The recorded 400 and 409 to a PATCH of an online archive, replayed through the screen: the
    entity's GET was recorded 200 and then 404, so the preview cannot fetch it again and says so."""
    folder = Path(__file__).parent.parent / "fixtures" / "real-responses"
    async with explorer_on(replaying(folder, writes=WritePolicy(True, "--writes")), clock) as explorer:
        await explorer.go_to(ARCHIVE)
        await choose(explorer, "PATCH")
        prefilled = json.loads(editor_text(explorer))
        assert prefilled["paused"] is False
        assert "_id" not in prefilled and "groupId" not in prefilled
        body = '{\n  "collName": "test",\n  "paused": true\n}'
        set_body(explorer, body)
        await explorer.pilot.press("ctrl+s")
        await explorer.until_screen(PreviewScreen)
        unfetched = str(explorer.app.screen.query_one("#unfetched", Static).render())
        assert unfetched.strip() == (
            "⚠ It could not be fetched just now (404 Not Found · RESOURCE_NOT_FOUND: Cannot find resource "
            "Online archive with id 6a79450d2c88faeba59d4082.): no difference to show."
        )
        await explorer.pilot.press("enter")
        await explorer.until_screen(EditorScreen)
        assert editor_text(explorer) == body
        assert str(explorer.app.screen.query_one("#problems").render()) == (
            "the service refused it: 400 Bad Request · ONLINE_ARCHIVE_CANNOT_MODIFY_FIELD: "
            "The request contained modifications to immutable fields."
        )
        await explorer.pilot.press("ctrl+s")  # again: the recording's 409, whose detail names `paused`
        await explorer.until_screen(PreviewScreen)
        await explorer.pilot.press("enter")
        await explorer.until(lambda: "PATCH · 409 Conflict" in explorer.toasts())
        assert str(explorer.app.screen.query_one("#problems").render()) == (
            "line 3: 409 Conflict · ONLINE_ARCHIVE_MUST_BE_ACTIVE_TO_PAUSE: "
            "An archive must be in an active state in order to be paused."
        )
        assert [e.status for e in explorer.app.session.log if e.method == "PATCH"] == [400, 409]


@pytest.mark.screen
async def test_the_presenter_shows_the_write_under_the_key_that_sent_it(open_explorer):
    async with open_explorer(writes=True, app_options={"presenter": True}) as explorer:
        node = await open_production(explorer)
        await choose(explorer, "PATCH")
        set_body(explorer, json.dumps({"name": "production-eu"}))
        await explorer.pilot.press("space")  # typed into the body
        assert explorer.app.presenter_feed.presenter.actions[-1].does == "typing"
        await explorer.pilot.press("ctrl+s")
        await explorer.until_screen(PreviewScreen)
        await explorer.pilot.press("enter")
        await explorer.until(lambda: "PATCH · 200 OK" in explorer.toasts())
        overlay = explorer.app.screen.query_one(PresenterOverlay)  # the main screen's, where it is back
        project = node.data.url.rsplit("/", 1)[-1]
        expected = [
            " ctrl+s  Preview",
            f"  → GET /groups/{project}",
            " enter  Send",
            f"  → PATCH /groups/{project}",
            f"  → GET /groups/{project}",
            "  → GET /groups",
        ]

        def shown() -> list[str]:
            return [line.split("  200 · ")[0] for line in str(overlay.render()).splitlines()][-6:]

        # what the overlay ends with, awaited: the fetches that follow the write (the entity, its list)
        # come after the PATCH's line, and a loaded run read the overlay between them
        await explorer.until(lambda: "  → GET /groups" in shown())
        assert shown() == expected


@pytest.mark.screen
async def test_an_empty_body_is_never_sent(open_explorer):
    async with open_explorer(writes=True) as explorer:
        await open_production(explorer)
        await choose(explorer, "PATCH")
        set_body(explorer, "  ")
        problems = explorer.app.screen.query_one("#problems", Static)
        await explorer.until(lambda: "The body is empty" in str(problems.render()))
        assert str(problems.render()) == "The body is empty: a PATCH sends the fields it changes"
        await explorer.pilot.press("ctrl+s")
        await explorer.until(lambda: "nothing can be sent until it is" in explorer.toasts())
        assert isinstance(explorer.app.screen, EditorScreen)
        assert not [e for e in explorer.app.session.log if e.method == "PATCH"]


@pytest.mark.screen
async def test_a_refusal_stays_on_its_fields_line_while_other_lines_change(open_explorer):
    async with open_explorer(writes=True) as explorer:
        await open_production(explorer)
        await choose(explorer, "PATCH")
        await send(explorer, '{\n  "name": "production",\n  "nonsense": 1\n}')
        await explorer.until_screen(EditorScreen)
        set_body(explorer, '{\n  "orgId": "x",\n  "name": "production",\n  "nonsense": 1\n}')
        problems = explorer.app.screen.query_one("#problems", Static)
        await explorer.until(lambda: str(problems.render()).startswith("line 4: 400 Bad Request · INVALID_ATTRIBUTE"))


@pytest.mark.screen
async def test_the_preview_says_what_the_schema_finds_and_what_changes_first(open_explorer):
    async with open_explorer(writes=True, size=(80, 24)) as explorer:
        await open_production(explorer)
        await choose(explorer, "PATCH")
        set_body(explorer, json.dumps({"name": "production-eu", "nonsense": 1}))
        await explorer.pilot.press("ctrl+s")
        await explorer.until_screen(PreviewScreen)
        first = [str(w.render()) for w in explorer.app.screen.query("VerticalScroll > Static")][:2]
        assert first[0].startswith('Against the entity as fetched just now:\n~ .name: "production" → "production-eu"')
        assert first[1].startswith("⚠ The API description's schema finds 1 problem in the body")


def test_the_editor_shows_a_bidi_override_from_the_service_as_its_escape():
    from explorer.tui.writing import pretty

    document = {"name": "stg \u202eexe.txt", "note": "\x85\ud800"}
    assert pretty(document) == '{\n  "name": "stg \\u202eexe.txt",\n  "note": "\\u0085\\ud800"\n}'
    assert json.loads(pretty(document)) == document


@pytest.mark.screen
async def test_w_on_a_creates_201_watches_what_it_made_not_the_list(open_explorer):
    async with open_explorer(writes=True) as explorer:
        await explorer.open("groups")
        project = explorer.node("groups", "production").data.url
        await explorer.go_to(f"{project}/clusters")
        await choose(explorer, "POST")
        body = json.loads(editor_text(explorer))  # the description's example, named
        await send(explorer, json.dumps({**body, "name": "reporting"}))
        await explorer.until(lambda: "POST · 201" in explorer.toasts())
        await explorer.settle()
        await explorer.pilot.press("w")
        await explorer.until(lambda: isinstance(explorer.app.focused, Input))
        assert "Watch reporting every 5 s until" in screen_text(explorer)
        await explorer.pilot.press("enter")
        await explorer.until(lambda: explorer.screen.watching.running())
        assert [watch.url for watch in explorer.screen.watching.running()] == [f"{project}/clusters/reporting"]
        assert "Watching reporting every 5 s" in explorer.toasts()
        pane = explorer.screen.query_one(WatchView)  # the answer still in view: its watch is the pane's first
        await explorer.until(lambda: pane.text().plain.startswith("◉ Watching reporting"))
        await explorer.pilot.press("1")
        page = explorer.screen.query_one("PageView")
        await explorer.until(lambda: page.region.area > 0)
        assert "CREATING" in region_text(explorer.app, page)  # the 201's cluster, as it was made
        explorer.clock.advance(25)  # the sandbox makes it; the watch's next fetch sees it IDLE
        await explorer.until(lambda: "IDLE" in region_text(explorer.app, page))
        assert "CREATING" not in region_text(explorer.app, page)  # the panes show the new version, as any watch's


@pytest.mark.screen
async def test_a_write_takes_back_the_tree_s_word_that_a_watch_s_condition_held(open_explorer):
    """`✓ held` beside a cluster said its condition held when last fetched; after a PATCH changed it,
    that is no longer known, and the tree no longer says it (the Watch pane says why)."""
    cluster = ("groups", "production", "clusters", "orders-prod")
    async with open_explorer(writes=True) as explorer:
        for depth in range(1, len(cluster) + 1):
            await explorer.open(*cluster[:depth])
        await explorer.pilot.press("w")
        await explorer.until(lambda: isinstance(explorer.app.focused, Input))
        explorer.app.focused.value = '.stateName == "IDLE"'
        await explorer.pilot.press("enter")
        await explorer.until(lambda: "✓ held" in explorer.node(*cluster).label.plain)
        await choose(explorer, "PATCH")
        await send(explorer, '{"diskSizeGB": 40}')
        await explorer.until(lambda: "PATCH · 200" in explorer.toasts())
        await explorer.settle()
        assert "✓ held" not in explorer.node(*cluster).label.plain
        await explorer.pilot.press("5")
        pane = explorer.screen.query_one(WatchView)
        assert "■ the condition held, then a write changed it" in pane.text().plain


@pytest.mark.screen
async def test_the_editors_curl_trusts_the_authority_the_session_trusts(open_explorer, tmp_path):
    """ctrl+o, as Y: a session that trusts its own CA bundle copies curl with --cacert, shell-quoted."""
    bundle = str(tmp_path / "my ca" / "sandbox-ca.pem")
    async with open_explorer(writes=True) as explorer:
        session = explorer.app.session
        session.credentials = replace(session.credentials, ca_bundle=bundle)  # as a login with one
        await open_production(explorer)
        await choose(explorer, "PATCH")
        await explorer.pilot.press("ctrl+o")
        await explorer.until(lambda: "Copied" in explorer.toasts())
        assert shlex.split(explorer.app.clipboard)[:5] == ["curl", "-X", "PATCH", "--cacert", bundle]


@pytest.mark.screen
async def test_a_notice_in_the_editor_takes_its_lines_from_the_body_never_covers_it(open_explorer):
    async with open_explorer(size=(80, 24), writes=True) as explorer:
        await open_production(explorer)
        await choose(explorer, "PATCH")
        await explorer.pilot.press("ctrl+o")  # Copied …: a notice of four lines
        await explorer.until(lambda: "Copied" in explorer.toasts())
        await explorer.pilot.pause()
        await explorer.pilot.pause()
        lines = screen_lines(explorer.app)
        area = explorer.app.screen.query_one(TextArea).region
        assert set(lines[area.bottom - 1].strip()) == {"▊", "▁", "▎"}, lines[area.bottom - 1]  # its border, whole
        toast = explorer.app.screen.query_one("Toast").region
        assert toast.y > area.bottom, (toast, area)
        assert "✓ JSON, as the API description's schema asks" in lines[area.bottom]  # the check, still said


@pytest.mark.screen
async def test_a_long_body_is_plain_text_checked_in_a_thread_and_ctrl_s_waits_for_its_check(open_explorer):
    from explorer.tui.screens.editor import CHECKED_AT_ONCE, HIGHLIGHTED

    long = json.dumps({"name": "production", "tags": [{"key": f"k{i}", "value": "v"} for i in range(3000)]}, indent=2)
    assert len(long) > CHECKED_AT_ONCE > HIGHLIGHTED
    async with open_explorer(writes=True) as explorer:
        await open_production(explorer)
        await choose(explorer, "PATCH")
        set_body(explorer, long)
        problems = explorer.app.screen.query_one("#problems", Static)
        await explorer.until(lambda: explorer.app.screen.checked == long)
        editor = explorer.app.screen
        area = editor.query_one(TextArea)
        area.insert("x", (0, 0))
        editor.action_preview()  # ctrl+s before the editor has heard of the x: it checks the body as it is
        await explorer.until(lambda: "The body is not JSON: nothing can be sent until it is." in explorer.toasts())
        assert isinstance(explorer.app.screen, EditorScreen)
        await explorer.until(lambda: str(problems.render()).startswith("line 1: not JSON"))
        await explorer.pilot.press("escape")  # the draft is kept, and opens again: long, so plain
        await choose(explorer, "PATCH")
        assert editor_text(explorer) == "x" + long
        assert explorer.app.screen.query_one(TextArea).language is None
        assert str(explorer.app.screen.query_one("#about", Label).render()).endswith(
            "not highlighted: over 10,000 characters"
        )


@pytest.mark.screen
async def test_a_short_body_is_highlighted_and_says_nothing_of_it(open_explorer):
    async with open_explorer(writes=True) as explorer:
        await open_production(explorer)
        await choose(explorer, "PATCH")
        assert explorer.app.screen.query_one(TextArea).language == "json"
        assert "highlighted" not in str(explorer.app.screen.query_one("#about", Label).render())
