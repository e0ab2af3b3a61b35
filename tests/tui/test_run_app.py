"""A bug ends the explorer with one line on stderr and a crash report: no traceback on the terminal,
none of its locals anywhere, no credential from an exception's message."""

from __future__ import annotations

from textual.app import App

from explorer.tui.run_app import run_app

SECRET = "s3cr3t-token-value"


class Broken(App[None]):
    def on_mount(self) -> None:
        secret = SECRET  # a local, as Textual's traceback would print it
        raise ValueError(f"bad\x1b[31m value {len(secret)}")


class LeaksInItsMessage(App[None]):
    def on_mount(self) -> None:
        raise RuntimeError(
            f"refused {{'Authorization': 'Bearer {SECRET}'}} at https://user:{SECRET}@host/?token={SECRET}"
        )


class Leaves(App[None]):
    def on_mount(self) -> None:
        self.exit()


def test_a_bug_is_one_line_and_a_crash_report_without_locals(capsys, tmp_path):
    assert run_app(Broken(), crash_folder=tmp_path, headless=True) == 1
    err = capsys.readouterr().err
    (report,) = tmp_path.iterdir()
    assert err == (
        "explorer stopped: ValueError: bad␛[31m value 18 (a bug; please report it)\n"
        f"crash report written to {report} (attach it to the report)\n"
    )
    text = report.read_text()
    assert text.startswith("explorer ") and " crash report: the explorer screen\n" in text
    assert "Traceback (most recent call last):" in text and 'in on_mount\n    raise ValueError(f"bad' in text
    assert text.endswith("ValueError: bad␛[31m value 18\n")
    assert SECRET not in text and "\x1b" not in text


def test_a_credential_in_an_exceptions_message_is_not_written(capsys, tmp_path):
    assert run_app(LeaksInItsMessage(), crash_folder=tmp_path, headless=True) == 1
    err = capsys.readouterr().err
    (report,) = tmp_path.iterdir()
    assert SECRET not in err and SECRET not in report.read_text()
    assert "RuntimeError: refused {'Authorization': '***'} at https://***@host/?token=*** (a bug" in err


def test_a_crash_report_that_cannot_be_written_is_said(capsys, tmp_path):
    blocked = tmp_path / "file"
    blocked.write_text("")
    assert run_app(Broken(), crash_folder=blocked / "crashes", headless=True) == 1
    assert capsys.readouterr().err.splitlines()[-1] == f"no crash report: {blocked}/crashes cannot be written to"


def test_a_normal_exit_says_nothing(capsys, tmp_path):
    assert run_app(Leaves(), crash_folder=tmp_path, headless=True) == 0
    assert capsys.readouterr().err == ""
    assert list(tmp_path.iterdir()) == []
