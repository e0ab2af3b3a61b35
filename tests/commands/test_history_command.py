"""`explorer history`: what the commands sent, kept across runs, listed, searched, shown whole, with
no secret in the file; kept by none when asked not to, or in a replay."""

from __future__ import annotations

import io
import json
import os
import re
import sys
from datetime import datetime

import pytest

from explorer.sandbox.links import API_ROOT
from tests.commands.conftest import DEFAULTS, Sandbox, stream

ISO_TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d")  # what every --json gives a time as


def history_file(sandbox: Sandbox):
    return sandbox.home / "state" / "explorer" / "history.sqlite3"


def listed(sandbox: Sandbox, *arguments: str) -> list[str]:
    """The history as `explorer history --json` lists it: `METHOD STATUS [errorCode] URL` each."""
    run = sandbox.run("history", "--json", *arguments)
    assert run.code == 0, run.err
    return [" ".join(str(e[k]) for k in ("method", "status", "errorCode", "url") if e[k]) for e in run.json]


def into_a_closed_pipe(sandbox: Sandbox, monkeypatch: pytest.MonkeyPatch, *arguments: str) -> tuple[int, str]:
    """`explorer ARGUMENTS` in this process, as `sandbox.run` runs it but with stdout a pipe whose reader
    has gone (`| head -1` once head has its line): each write to it raises BrokenPipeError. The exit
    code and stderr."""
    from explorer.cli import main

    reader, writer = os.pipe()
    os.close(reader)
    environment = sandbox.environment()
    for name in os.environ.keys() - environment.keys():
        monkeypatch.delenv(name)
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    err = io.BytesIO()
    out = stream(open(writer, "wb", buffering=0))  # noqa: SIM115 (closed below): each write goes at once
    monkeypatch.setattr(sys, "stdin", stream(io.BytesIO()))
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", stream(err, "backslashreplace"))
    try:
        code = main(list(arguments))
    finally:
        out.close()
    return code, err.getvalue().decode()


def test_what_the_commands_sent_is_listed_newest_first_and_searched(sandbox):
    project = sandbox.project_id("production")
    assert sandbox.run("get", "/groups").code == 0
    assert sandbox.run("get", f"/groups/{project}/clusters/nope").code == 4
    assert listed(sandbox, "--grep", API_ROOT) == [
        f"GET 404 CLUSTER_NOT_FOUND {sandbox.api}/groups/{project}/clusters/nope",
        f"GET 200 {sandbox.api}/groups",
    ]
    assert listed(sandbox, "--grep", "4xx clusters") == [
        f"GET 404 CLUSTER_NOT_FOUND {sandbox.api}/groups/{project}/clusters/nope"
    ]
    assert listed(sandbox, "--grep", "POST token", "--limit", "1") == [f"POST 200 {sandbox.url}/api/oauth/token"]
    assert listed(sandbox, "--grep", "nothing-like-this") == []
    assert listed(sandbox, "--since", "2000-01-01", "--grep", "clusters") == listed(sandbox, "--grep", "clusters")
    assert listed(sandbox, "--since", "0m") == []  # since now: nothing yet
    lines = sandbox.run("history", "--limit", "2").out.decode().splitlines()
    assert [line.split("  ")[0] for line in lines] == ["#3", "#2"]  # #1 got the token (kept for the next run)
    assert lines[1].endswith(f"  -  GET     200  {sandbox.api}/groups  " + lines[1].rsplit("  ", 1)[1])


def test_an_entry_is_shown_whole_as_it_was_kept_with_its_secrets_taken_out(sandbox):
    assert sandbox.run("get", "/groups/nope").code == 4
    (found,) = sandbox.run("history", "--grep", "INVALID_GROUP_ID", "--json").json
    run = sandbox.run("history", str(found["number"]))
    lines = run.out.decode().splitlines()
    assert run.code == 0
    assert lines[0].startswith(f"#{found['number']}, from the history: as it was at ")
    assert lines[2] == f"GET {sandbox.api}/groups/nope"
    assert "authorization: [redacted by explorer]" in lines
    assert "400 Bad Request" in lines
    assert json.loads(lines[-1])["errorCode"] == "INVALID_GROUP_ID"
    whole = sandbox.run("history", str(found["number"]), "--json").json
    assert whole["errorCode"] == "INVALID_GROUP_ID" and whole["har"]["response"]["status"] == 400
    assert (found["profile"], found["origin"], found["status"]) == (None, sandbox.url, 400)


def test_no_token_or_secret_or_password_lands_in_the_history(sandbox):
    project = sandbox.project_id("production")
    roles = [{"databaseName": "admin", "roleName": "readAnyDatabase"}]
    user = {"databaseName": "admin", "username": "kept", "password": "correct-horse-battery-77", "roles": roles}
    created = sandbox.run("post", f"/groups/{project}/databaseUsers", "--data", json.dumps(user), "--yes", "--writes")
    assert created.code == 0, created.err
    clear = sandbox.home / "clear.har"  # the tokens as sent, to look for in the history
    assert sandbox.run("get", "/groups", "--har", str(clear), "--har-unredacted").code == 0
    entries = json.loads(clear.read_text())["log"]["entries"]
    sent = [h["value"] for e in entries for h in e["request"]["headers"] if h["name"] == "authorization"]
    tokens = [value.removeprefix("Bearer ") for value in sent if value.startswith("Bearer ")]
    on_disk = b"".join(p.read_bytes() for p in history_file(sandbox).parent.iterdir())
    assert tokens and listed(sandbox, "--grep", "databaseUsers")[0].startswith("POST 201 ")
    for secret in (*tokens, DEFAULTS.client_secret, "correct-horse-battery-77"):
        assert secret.encode() not in on_disk


@pytest.mark.parametrize("how", ["flag", "config"])
def test_a_session_asked_to_keep_no_history_keeps_none(sandbox, how):
    if how == "config":
        (sandbox.home / "config" / "explorer").mkdir(parents=True)
        (sandbox.home / "config" / "explorer" / "config.toml").write_text("[history]\nkeep = false\n")
    assert sandbox.run("get", "/groups", *(["--no-history"] if how == "flag" else [])).code == 0
    assert not history_file(sandbox).exists()
    run = sandbox.run("history")
    assert (run.code, run.out) == (0, b"")
    assert run.err == f"No history yet: it is kept in {history_file(sandbox)} once a session has had an exchange.\n"


def test_a_bad_history_table_is_named_and_nothing_is_sent(sandbox):
    (sandbox.home / "config" / "explorer").mkdir(parents=True)
    (sandbox.home / "config" / "explorer" / "config.toml").write_text("[history]\nmax_entries = 0\n")
    run = sandbox.run("get", "/groups")
    assert run.code == 1
    assert "history.max_entries must be a whole number from 1 to 1,000,000" in run.err
    assert sandbox.noting.received == []


def test_clear_deletes_every_entry_and_says_how_many(sandbox):
    assert sandbox.run("get", "/groups").code == 0
    count = len(listed(sandbox))
    run = sandbox.run("history", "--clear")
    assert run.out.decode() == f"Deleted {count} entries from {history_file(sandbox)}.\n"
    assert listed(sandbox) == []


def test_usage_errors_name_the_flag(sandbox):
    since = sandbox.run("history", "--since", "yesterday")
    assert since.code == 2 and "argument --since: 'yesterday' is not a time" in since.err
    limit = sandbox.run("history", "--limit", "0")
    assert limit.code == 2 and "--limit: 0 is not from 1 to 500" in limit.err
    missing = sandbox.run("history", "12345")
    assert sandbox.run("get", "/groups").code == 0
    missing = sandbox.run("history", "12345")
    assert (missing.code, missing.err) == (
        1,
        "explorer history: no entry #12345 (never, or dropped as the history grew)\n",
    )


def test_an_entry_number_below_1_is_a_usage_error(sandbox):
    """A new user's `explorer history -5` said `no entry #-5 (never, or dropped …)`, exit 1."""
    assert sandbox.run("get", "/groups").code == 0
    for number in ("0", "-5"):
        run = sandbox.run("history", number)
        assert run.code == 2 and run.out == b""
        assert f"argument N: '{number}' is not a whole number of 1 or more" in run.err


def test_a_reader_that_stops_early_is_not_a_read_error(sandbox, monkeypatch):
    """`explorer history 1 --json | head -1` said `cannot read [Errno 32] Broken pipe`, exit 1."""
    assert sandbox.run("get", "/groups").code == 0
    assert into_a_closed_pipe(sandbox, monkeypatch, "history", "1", "--json") == (0, "")
    assert into_a_closed_pipe(sandbox, monkeypatch, "history", "1") == (0, "")
    assert into_a_closed_pipe(sandbox, monkeypatch, "history", "--json") == (0, "")


def test_json_gives_the_time_in_iso_8601_with_its_offset(sandbox):
    assert sandbox.run("get", "/groups").code == 0
    (entry, *_) = sandbox.run("history", "--json").json
    assert ISO_TIME.fullmatch(entry["started"]) and datetime.fromisoformat(entry["started"]).utcoffset() is not None


def test_a_replay_keeps_no_history(sandbox, tmp_path):
    har = tmp_path / "session.har"
    assert sandbox.run("get", "/groups", "--har", str(har), "--no-history").code == 0
    assert sandbox.run("get", "/groups", "--replay", str(har)).code == 0
    assert not history_file(sandbox).exists()
