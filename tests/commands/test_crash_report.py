"""An unexpected fault in a command: one line on stderr, and a crash report in the user's state
folder, without locals and without a credential from the exception's message."""

from __future__ import annotations

from explorer import cli
from explorer.commands import logout


def test_a_commands_fault_is_one_line_and_a_crash_report(monkeypatch, tmp_path, capsys):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    token = "eyJhbGciOi.secret-part"

    def broken(args):
        held = token  # a local: never written
        raise KeyError(f"Authorization: Bearer {held}")

    monkeypatch.setattr(logout, "run", broken)
    assert cli.main(["logout"]) == 1
    err = capsys.readouterr().err
    (report,) = (tmp_path / "explorer" / "crashes").iterdir()
    assert err == (
        "explorer: unexpected KeyError: 'Authorization: ***' (a bug; please report it)\n"
        f"crash report written to {report} (attach it to the report)\n"
    )
    text = report.read_text()
    assert " crash report: explorer logout\n" in text.splitlines()[0] + "\n"
    assert text.endswith("KeyError: 'Authorization: ***'\n") and "in broken\n" in text
    assert token not in text and (report.stat().st_mode & 0o777) == 0o600
