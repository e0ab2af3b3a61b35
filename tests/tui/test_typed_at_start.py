"""Keys typed while the explorer starts, in a real terminal: kept as typed, and acted on once the
root is there (startup_terminal.py, MainScreen.awaits_page)."""

from __future__ import annotations

import sys
import termios
import time

import pytest

from tests.benchmarks.terminal import Terminal
from tests.conftest import ROOT, ended


def keeps_keys(fd: int) -> bool:
    """Whether the explorer keeps keys as typed, before Textual's raw mode: no line editing, Enter
    not turned into ctrl+j, ctrl+c still a signal (Textual's own mode reads it as a key)."""
    attributes = termios.tcgetattr(fd)
    line_mode = attributes[3] & termios.ICANON or attributes[0] & termios.ICRNL
    return not line_mode and bool(attributes[3] & termios.ISIG)


def until_keys_kept(term: Terminal) -> None:
    """Until the explorer keeps keys as typed (30 s at most): long before its screen."""
    deadline = time.monotonic() + 30
    while not keeps_keys(term.main):
        assert time.monotonic() < deadline, "the terminal was never set to keep keys as typed"
        time.sleep(0.002)


@pytest.mark.screen
def test_down_down_enter_typed_as_the_explorer_starts_opens_the_second_relation():
    with Terminal([sys.executable, "-m", "explorer", "--demo"], cwd=ROOT) as term:  # this test's own folders
        before = term.modes_before  # read before the program was started: it changes them at once
        until_keys_kept(term)  # the explorer's first lines run: Python has started
        assert "groups" not in term.text()  # typed long before the screen
        term.press("down", "down", "enter")
        term.shown("explorer — https://sandbox.invalid/api/service/v1.0/groups")
        assert "^[[B" not in term.text() and "^J" not in term.text()
        term.press(b"q")
        assert term.process is not None and term.process.wait(30) == 0
        assert termios.tcgetattr(term.main) == before  # the terminal as it was


@pytest.mark.screen
def test_ctrl_c_while_the_explorer_starts_ends_it_quietly_with_the_terminal_as_it_was():
    """ctrl+c in the first half second (the imports) printed a KeyboardInterrupt traceback."""
    with Terminal([sys.executable, "-m", "explorer", "--demo"], cwd=ROOT) as term:
        before = term.modes_before  # read before the program was started: it changes them at once
        until_keys_kept(term)
        term.press(b"\x03")
        assert term.process is not None and ended(term.process) == 130
        time.sleep(0.2)  # the last bytes read
        assert "Traceback" not in term.text() and "KeyboardInterrupt" not in term.text()
        assert termios.tcgetattr(term.main) == before


@pytest.mark.screen
def test_a_command_run_in_the_background_leaves_the_terminal_alone(tmp_path):
    """`explorer get … &` from a shell: setting the terminal from the background stopped the job
    (SIGTTOU, `Stopped (tty output)`) before it had written a byte."""
    out = tmp_path / "root.json"
    job = f"set -m; {sys.executable} -m explorer get --demo / > {out} & wait $!; echo job ended $?"
    with Terminal(["bash", "--norc", "-c", job], cwd=ROOT) as term:
        term.shown("job ended 0")
    assert out.read_text().startswith("{")
