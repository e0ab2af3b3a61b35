"""The request editor's own keys: ctrl+a selects all, ctrl+l clears, Enter and closing brackets keep
JSON's indentation, ctrl+e opens the body in $VISUAL or $EDITOR and takes back what it left."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest
from textual import events
from textual.drivers.headless_driver import HeadlessDriver
from textual.widgets import TextArea

from explorer.tui.external_editor import edit_text, editor_command
from explorer.tui.indenting import dedented, line_break
from explorer.tui.screens.editor import EditorScreen
from tests.tui.screen_text import screen_lines
from tests.tui.test_help import help_lines, open_help
from tests.tui.test_writes import choose, editor_lines, editor_text, open_production, set_body


def area_of(explorer) -> TextArea:
    return explorer.app.screen.query_one(TextArea)


async def patch_production(explorer) -> TextArea:
    await open_production(explorer)
    await choose(explorer, "PATCH")
    await explorer.until(lambda: area_of(explorer).has_focus)
    return area_of(explorer)


def type_in_one_breath(explorer, *keys: tuple[str, str | None]) -> None:
    for key, character in keys:
        explorer.app.post_message(events.Key(key, character))


@pytest.mark.screen
async def test_ctrl_a_selects_the_whole_body_and_what_is_typed_replaces_it(open_explorer):
    async with open_explorer(writes=True, size=(120, 40)) as explorer:
        area = await patch_production(explorer)
        assert "^a Select all" in screen_lines(explorer.app)[-1]  # in the footer, by its key
        await explorer.pilot.press("down", "end", "ctrl+a")
        await explorer.until(lambda: area.selected_text == editor_text(explorer))
        await explorer.pilot.press("left_square_bracket", "right_square_bracket")
        await explorer.until(lambda: editor_text(explorer) == "[]")
        assert " line 1: the body: must be an object, not an array" in screen_lines(explorer.app)


@pytest.mark.screen
async def test_ctrl_a_and_the_keys_after_it_in_one_breath_are_done_in_turn(open_explorer):
    """`x`, ctrl+a, `{` and `}` at once, as tmux's send-keys sends them: the `x` is in what is selected,
    and the braces replace it all."""
    async with open_explorer(writes=True, size=(120, 40)) as explorer:
        await patch_production(explorer)
        type_in_one_breath(explorer, ("x", "x"), ("ctrl+a", None), ("left_curly_bracket", "{"))
        type_in_one_breath(explorer, ("right_curly_bracket", "}"))
        await explorer.until(lambda: editor_text(explorer) == "{}")


@pytest.mark.screen
async def test_home_still_goes_to_the_start_of_the_line(open_explorer):
    """ctrl+a is select all here; home (Textual's smart home: the line's text, then column 0) moves."""
    async with open_explorer(writes=True, size=(120, 40)) as explorer:
        area = await patch_production(explorer)
        await explorer.pilot.press("down", "end", "home")
        await explorer.until(lambda: area.cursor_location == (1, 2))
        assert area.selected_text == ""


@pytest.mark.screen
async def test_ctrl_a_then_delete_empties_the_body(open_explorer):
    async with open_explorer(writes=True, size=(120, 40)) as explorer:
        await patch_production(explorer)
        await explorer.pilot.press("ctrl+a", "delete")
        await explorer.until(lambda: editor_text(explorer) == "")
        assert " The body is empty: a PATCH sends the fields it changes" in screen_lines(explorer.app)


@pytest.mark.screen
async def test_ctrl_l_clears_the_body_and_ctrl_z_brings_it_back(open_explorer):
    async with open_explorer(writes=True, size=(120, 40)) as explorer:
        await patch_production(explorer)
        prefilled = editor_text(explorer)
        assert "^l Clear" in screen_lines(explorer.app)[-1]
        await explorer.pilot.press("ctrl+l")
        await explorer.until(lambda: editor_text(explorer) == "")
        await explorer.until(lambda: "The body is cleared: ctrl+z brings it back." in explorer.toasts())
        await explorer.pilot.press("ctrl+z")
        await explorer.until(lambda: editor_text(explorer) == prefilled)


@pytest.mark.screen
async def test_enter_keeps_the_indentation_and_closing_brackets_take_a_level_off(open_explorer):
    """`{`, Enter, `"tags": [`, Enter, `"a"`, Enter, `]`, Enter, `}`: typed without a space, the body
    comes out as json.dumps(…, indent=2) writes it."""
    async with open_explorer(writes=True, size=(120, 40)) as explorer:
        area = await patch_production(explorer)
        set_body(explorer, "")
        keys = ["left_curly_bracket", "enter", *'"tags":', "space", "left_square_bracket", "enter", *'"a"']
        await explorer.pilot.press(*keys, "enter", "right_square_bracket", "enter", "right_curly_bracket")
        want = json.dumps({"tags": ["a"]}, indent=2)
        await explorer.until(lambda: editor_text(explorer) == want)
        assert area.cursor_location == (4, 1)
        assert editor_lines(explorer)[1:6] == ["▊ 1  {", '▊ 2    "tags": [', '▊ 3      "a"', "▊ 4    ]", "▊ 5  }"]


@pytest.mark.screen
async def test_enter_between_braces_puts_the_closing_one_on_its_own_line(open_explorer):
    async with open_explorer(writes=True, size=(120, 40)) as explorer:
        area = await patch_production(explorer)
        set_body(explorer, '{\n  "labels": []\n}')
        area.cursor_location = (1, len('  "labels": ['))
        await explorer.pilot.press("enter")
        await explorer.until(lambda: editor_text(explorer) == '{\n  "labels": [\n    \n  ]\n}')
        assert area.cursor_location == (2, 4)


def fake_editor(tmp_path: Path, writes: str, status: int = 0) -> Path:
    """An editor that writes `writes` over the file it is given, notes the file's path and mode in
    `seen`, and ends with `status`."""
    script = tmp_path / "fake-editor"
    (tmp_path / "new-body").write_text(writes)
    script.write_text(
        "#!/bin/sh\n"
        f'printf "%s %s" "$1" "$(stat -c %a "$1")" > "{tmp_path}/seen"\n'
        f'cat "{tmp_path}/new-body" > "$1"\n'
        f"exit {status}\n"
    )
    script.chmod(0o700)
    return script


@pytest.fixture
def suspendable(monkeypatch):
    """A headless driver that can be suspended, as a terminal's can: Textual's App.suspend runs."""
    monkeypatch.setattr(HeadlessDriver, "can_suspend", property(lambda self: True))
    monkeypatch.setattr(HeadlessDriver, "suspend_application_mode", lambda self: None)
    monkeypatch.setattr(HeadlessDriver, "resume_application_mode", lambda self: None)


@pytest.mark.screen
async def test_ctrl_e_opens_the_body_in_editor_and_takes_back_what_it_left(
    open_explorer, tmp_path, monkeypatch, suspendable
):
    script = fake_editor(tmp_path, '{\n  "name": "from the editor"\n}\n')
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.setenv("EDITOR", str(script))
    async with open_explorer(writes=True, size=(120, 40)) as explorer:
        await patch_production(explorer)
        before = editor_text(explorer)
        assert "^e $EDITOR" in screen_lines(explorer.app)[-1]
        await explorer.pilot.press("ctrl+e")
        await explorer.until(lambda: editor_text(explorer) == '{\n  "name": "from the editor"\n}')
        assert "The body is back from the editor: ctrl+z undoes it." in explorer.toasts()
        path, mode = (tmp_path / "seen").read_text().split()
        assert mode == "600" and not os.path.exists(path)  # the owner's alone, and gone once read
        await explorer.pilot.press("ctrl+z")
        await explorer.until(lambda: editor_text(explorer) == before)


@pytest.mark.screen
async def test_visual_comes_before_editor(open_explorer, tmp_path, monkeypatch, suspendable):
    script = fake_editor(tmp_path, '{"name": "visual"}')
    monkeypatch.setenv("VISUAL", str(script))
    monkeypatch.setenv("EDITOR", str(tmp_path / "no-such-editor"))
    async with open_explorer(writes=True, size=(120, 40)) as explorer:
        await patch_production(explorer)
        await explorer.pilot.press("ctrl+e")
        await explorer.until(lambda: editor_text(explorer) == '{"name": "visual"}')


@pytest.mark.screen
async def test_an_editor_that_fails_leaves_the_body_as_it_was_and_says_so(
    open_explorer, tmp_path, monkeypatch, suspendable
):
    script = fake_editor(tmp_path, '{"name": "half done"}', status=3)
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.setenv("EDITOR", str(script))
    async with open_explorer(writes=True, size=(120, 40)) as explorer:
        await patch_production(explorer)
        before = editor_text(explorer)
        await explorer.pilot.press("ctrl+e")
        said = f"The editor {str(script)!r} ended with status 3: the body is as it was"
        await explorer.until(lambda: said in " ".join(explorer.toasts().split()))
        assert editor_text(explorer) == before


@pytest.mark.screen
async def test_with_no_editor_set_ctrl_e_says_how_to_set_one(open_explorer, monkeypatch, suspendable):
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.delenv("EDITOR", raising=False)
    async with open_explorer(writes=True, size=(120, 40)) as explorer:
        await patch_production(explorer)
        before = editor_text(explorer)
        await explorer.pilot.press("ctrl+e")
        said = "No editor is set: set $VISUAL or $EDITOR"
        await explorer.until(lambda: said in " ".join(explorer.toasts().split()))
        assert editor_text(explorer) == before


@pytest.mark.screen
async def test_in_a_browser_session_ctrl_e_says_there_is_no_terminal_to_hand_over(
    open_explorer, tmp_path, monkeypatch, suspendable
):
    script = fake_editor(tmp_path, '{"name": "never"}')
    monkeypatch.setenv("EDITOR", str(script))
    monkeypatch.setattr(HeadlessDriver, "is_web", property(lambda self: True))
    async with open_explorer(writes=True, size=(120, 40)) as explorer:
        await patch_production(explorer)
        before = editor_text(explorer)
        await explorer.pilot.press("ctrl+e")
        said = "in a browser session (explorer serve) there is no terminal to hand to an editor"
        await explorer.until(lambda: said in " ".join(explorer.toasts().split()))
        assert editor_text(explorer) == before and not (tmp_path / "seen").exists()


@pytest.mark.screen
async def test_where_the_app_cannot_suspend_ctrl_e_says_so(open_explorer, tmp_path, monkeypatch):
    """Textual's headless driver, like a browser's, cannot hand the terminal over (SuspendNotSupported)."""
    script = fake_editor(tmp_path, '{"name": "never"}')
    monkeypatch.setenv("EDITOR", str(script))
    async with open_explorer(writes=True, size=(120, 40)) as explorer:
        await patch_production(explorer)
        await explorer.pilot.press("ctrl+e")
        said = "there is no terminal to hand to an editor. Edit it here; the body is as it was."
        await explorer.until(lambda: said in " ".join(explorer.toasts().split()))
        assert isinstance(explorer.app.screen, EditorScreen) and not (tmp_path / "seen").exists()


def test_an_editor_that_cannot_be_started_is_named_and_nothing_is_taken(tmp_path):
    missing = str(tmp_path / "missing-editor")
    edited = edit_text('{"a": 1}', [missing])
    assert edited.text is None
    assert edited.problem == f"The editor {missing!r} could not be started (it is not found): the body is as it was"


def test_the_editors_arguments_are_kept_and_visual_comes_first():
    assert editor_command({"EDITOR": "code --wait"}) == ["code", "--wait"]
    assert editor_command({"VISUAL": "vim", "EDITOR": "nano"}) == ["vim"]
    assert editor_command({"VISUAL": " ", "EDITOR": "nano"}) == ["nano"]
    assert editor_command({}) is None


def test_the_line_end_an_editor_adds_is_taken_off_only_where_the_body_had_none():
    def saving(text: str):
        def run(command):
            Path(command[-1]).write_text(text)
            return 0

        return run

    assert edit_text('{"a": 1}', ["ed"], saving('{"a": 2}\n')).text == '{"a": 2}'
    assert edit_text('{"a": 1}\n', ["ed"], saving('{"a": 2}\n')).text == '{"a": 2}\n'


def test_a_file_that_is_not_utf8_is_not_taken():
    def run(command):
        Path(command[-1]).write_bytes(b'{"a": "\xff"}')
        return 0

    edited = edit_text('{"a": 1}', ["ed"], run)
    assert (edited.text, edited.problem) == (None, "The editor left text that is not UTF-8: the body is as it was")


def test_the_body_file_is_the_owners_alone():
    modes = []

    def run(command):
        modes.append(stat.S_IMODE(os.stat(command[-1]).st_mode))
        return 0

    edit_text("{}", ["ed"], run)
    assert modes == [0o600]


@pytest.mark.parametrize(
    ("before", "after", "text", "column"),
    [
        ('  "a": 1,', "", "\n  ", 2),  # the line's indentation kept
        ('  "a": {', "", "\n    ", 4),  # a level more after {
        ("[", "", "\n  ", 2),  # and after [
        ('  "a": [', "]", "\n    \n  ", 4),  # between brackets: the closing one on a line of its own
        ('  "a": 1,', '  "b": 2', "\n  ", 2),  # the blanks after the cursor go
        ("    ", "", "\n    ", 4),  # on a blank line: its indentation
    ],
)
def test_line_break(before, after, text, column):
    cut = line_break(before, after, 2)
    assert (cut.text, cut.column) == (text, column)


def test_a_closing_bracket_takes_a_level_off_only_on_a_blank_line():
    assert dedented("    ", "}") == 2
    assert dedented("   ", "]") == 1  # back to the level below: column 2
    assert dedented("  ", "}") == 2
    assert dedented("", "}") is None
    assert dedented('  "a"', "]") is None
    assert dedented("    ", "x") is None


@pytest.mark.screen
async def test_help_says_ctrl_a_and_ctrl_e_are_the_editors_as_remapped(open_explorer):
    """Textual's TextArea has ctrl+a and ctrl+e for the line's start and end: help says what they are here."""
    async with open_explorer(size=(120, 34), app_options={"keymap": {"editor.open_in_editor": "f4"}}) as explorer:
        await open_help(explorer)
        said = "Request editor: ctrl+a selects all, f4 opens $EDITOR (line start and end: home and end)."
        assert said in help_lines(explorer)
