"""A bug ends the explorer with one line on stderr: no traceback, none of its locals."""

from __future__ import annotations

from textual.app import App

from explorer.tui.stopped import run_app


class Broken(App[None]):
    def on_mount(self) -> None:
        secret = "s3cr3t-token-value"  # a local, as Textual's traceback would print it
        raise ValueError(f"bad\x1b[31m value {len(secret)}")


class Leaves(App[None]):
    def on_mount(self) -> None:
        self.exit()


def test_a_bug_is_one_line_without_the_traceback_or_its_locals(capsys):
    assert run_app(Broken(), headless=True) == 1
    err = capsys.readouterr().err
    assert err == "explorer stopped: ValueError: bad␛[31m value 18 (a bug; please report it)\n"


def test_a_normal_exit_says_nothing(capsys):
    assert run_app(Leaves(), headless=True) == 0
    assert capsys.readouterr().err == ""
