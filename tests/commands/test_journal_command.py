"""`explorer journal`: what the write commands did, listed and shown; a PATCH undone from a later run,
refused where the entity changed since (unless --force), and what cannot be undone said."""

from __future__ import annotations

import json
from datetime import datetime

from explorer.sandbox.links import API_ROOT
from tests.commands.conftest import Sandbox
from tests.commands.test_history_command import ISO_TIME, into_a_closed_pipe


def cluster_path(sandbox: Sandbox) -> tuple[str, object]:
    project = sandbox.world.project_named("production")
    cluster = next(iter(project.clusters.values()))
    return f"/groups/{project.id}/clusters/{cluster.name}", cluster


def journal(sandbox: Sandbox, *arguments: str):
    run = sandbox.run("journal", "--json", *arguments)
    assert run.code == 0, run.err
    return run.json


def test_a_scripted_patch_is_noted_with_the_entity_before_and_undone_from_a_later_run(sandbox):
    path, cluster = cluster_path(sandbox)
    size = cluster.fields["diskSizeGB"]
    patched = sandbox.run("patch", path, "diskSizeGB:=80", "--yes", "--writes")
    assert patched.code == 0, patched.err
    (noted,) = journal(sandbox)
    assert (noted["method"], noted["outcome"], noted["status"], noted["undoneBy"]) == ("PATCH", "sent", 200, None)
    whole = journal(sandbox, str(noted["number"]))
    assert (whole["body"], whole["before"]["diskSizeGB"], whole["after"]["diskSizeGB"]) == (
        {"diskSizeGB": 80},
        size,
        80,
    )

    undone = sandbox.run("journal", "undo", str(noted["number"]), "--yes", "--writes")
    assert undone.code == 0, undone.err
    assert cluster.fields["diskSizeGB"] == size
    assert sandbox.writes()[-1] == ("PATCH", f"/api/service/v1.0{path}")
    undo, first = journal(sandbox)
    assert (first["undoneBy"], undo["undoes"], undo["outcome"]) == (undo["number"], first["number"], "sent")
    again = sandbox.run("journal", "undo", str(first["number"]), "--yes", "--writes")
    assert again.code == 2 and f"Write #{first['number']} was undone already, by #{undo['number']}" in again.err

    lines = sandbox.run("journal").out.decode().splitlines()
    assert lines[0].startswith(f"#{undo['number']}  ") and lines[0].endswith(f"  (undoes #{first['number']})")
    assert f"  -  PATCH   sent 200  {sandbox.api}{path}  (undone by #{undo['number']})" in lines[1]


def test_an_undo_is_refused_where_the_entity_changed_since_unless_forced(sandbox):
    path, cluster = cluster_path(sandbox)
    size = cluster.fields["diskSizeGB"]
    assert sandbox.run("patch", path, "diskSizeGB:=80", "--yes", "--writes").code == 0
    (noted,) = journal(sandbox)
    cluster.fields["diskSizeGB"] = 160  # someone else, since
    writes = len(sandbox.writes())
    refused = sandbox.run("journal", "undo", str(noted["number"]), "--yes", "--writes")
    assert refused.code == 1
    assert f"Not sent: diskSizeGB changed since write #{noted['number']} set it" in refused.err
    assert len(sandbox.writes()) == writes
    forced = sandbox.run("journal", "undo", str(noted["number"]), "--yes", "--writes", "--force")
    assert forced.code == 0, forced.err
    assert cluster.fields["diskSizeGB"] == size


def test_what_cannot_be_undone_is_said_and_nothing_is_sent(sandbox):
    project = sandbox.project_id("production")
    body = json.dumps({"ipAddress": "203.0.113.7", "comment": "lab"})
    created = sandbox.run("post", f"/groups/{project}/accessList", "--data", f"[{body}]", "--yes", "--writes")
    assert created.code == 0, created.err
    (noted,) = journal(sandbox)
    writes = len(sandbox.writes())
    refused = sandbox.run("journal", "undo", str(noted["number"]), "--yes", "--writes")
    assert refused.code == 2
    assert f"Write #{noted['number']} is a POST: the journal undoes a PATCH or PUT" in refused.err
    read_only = sandbox.run("patch", cluster_path(sandbox)[0], "diskSizeGB:=80", "--yes")
    assert read_only.code == 2  # refused before it was tried (writes are off): no attempt to note
    assert [entry["number"] for entry in journal(sandbox)] == [noted["number"]]
    assert len(sandbox.writes()) == writes
    missing = sandbox.run("journal", "999")
    assert (missing.code, missing.err) == (1, "explorer journal: no write #999\n")
    usage = sandbox.run("journal", "undo")
    assert usage.code == 2 and "give N (a write's number)" in usage.err


def test_a_write_noted_for_one_service_is_not_undone_on_another(sandbox):
    path, _ = cluster_path(sandbox)
    assert sandbox.run("patch", path, "diskSizeGB:=80", "--yes", "--writes").code == 0
    (noted,) = journal(sandbox)
    elsewhere = sandbox.run("journal", "undo", str(noted["number"]), "--yes", "--writes", "--demo")
    assert elsewhere.code == 2
    assert (
        f"Not sent: write #{noted['number']} went to {sandbox.url}; this session is on https://sandbox.invalid:443"
        in (elsewhere.err)
    )


def test_a_state_folder_that_cannot_be_made_stops_the_write_with_words_not_a_crash(sandbox):
    """An attack found a state folder the user cannot write crashing the command (PermissionError)."""
    (sandbox.home / "not-a-folder").write_text("")
    path, _ = cluster_path(sandbox)
    env = {"XDG_STATE_HOME": str(sandbox.home / "not-a-folder")}
    patched = sandbox.run("patch", path, "diskSizeGB:=80", "--yes", "--writes", env=env)
    assert patched.code == 1
    assert "explorer patch: Not sent: the journal of writes cannot note it (Not a directory)" in patched.err
    assert sandbox.writes() == []


def test_an_undo_whose_entity_cannot_be_fetched_is_refused_not_a_crash(sandbox):
    """An attack dropped the undo's GET: the command crashed (`unexpected ApiError`) before it."""
    path, _ = cluster_path(sandbox)
    assert sandbox.run("patch", path, "diskSizeGB:=80", "--yes", "--writes").code == 0
    (noted,) = journal(sandbox)
    # no answer within a deadline of a microsecond: the fetch raises, as a dropped connection makes it
    undone = sandbox.run("journal", "undo", str(noted["number"]), "--yes", "--writes", "--deadline", "0.000001")
    assert undone.code == 1, undone.err
    assert "unexpected" not in undone.err
    assert "explorer journal undo: Not sent: the entity cannot be fetched to compare: " in undone.err
    assert sandbox.writes() == [("PATCH", f"{API_ROOT}{path}")]  # the patch; no undo


def test_a_limit_not_from_1_to_500_is_a_usage_error_as_in_history(sandbox):
    """A new user's `journal --limit 0` said `No writes noted.` (exit 0), writes noted; `--limit -3` listed all."""
    path, _ = cluster_path(sandbox)
    for size in (80, 90):
        assert sandbox.run("patch", path, f"diskSizeGB:={size}", "--yes", "--writes").code == 0
    assert len(journal(sandbox, "--limit", "1")) == 1 and len(journal(sandbox, "--limit", "500")) == 2
    for limit in ("0", "-3", "501"):
        run = sandbox.run("journal", "--limit", limit)
        history = sandbox.run("history", "--limit", limit)
        assert (run.code, run.out, history.code) == (2, b"", 2)
        assert f"argument --limit: {limit} is not from 1 to 500" in run.err
        assert run.err.split("error: ")[1] == history.err.split("error: ")[1]


def test_a_write_number_below_1_is_a_usage_error(sandbox):
    path, _ = cluster_path(sandbox)
    assert sandbox.run("patch", path, "diskSizeGB:=80", "--yes", "--writes").code == 0
    writes = len(sandbox.writes())
    for words in (["0"], ["undo", "0"], ["-5"], ["²"]):
        run = sandbox.run("journal", *words, "--yes", "--writes")
        assert run.code == 2 and run.out == b"", run.err
        assert f"N: '{words[-1]}' is not a whole number of 1 or more" in run.err
    assert len(sandbox.writes()) == writes


def test_a_reader_that_stops_early_is_not_a_read_error(sandbox, monkeypatch):
    """`explorer journal --json | head` said `cannot read [Errno 32] Broken pipe`, exit 1."""
    path, _ = cluster_path(sandbox)
    assert sandbox.run("patch", path, "diskSizeGB:=80", "--yes", "--writes").code == 0
    assert into_a_closed_pipe(sandbox, monkeypatch, "journal", "--json") == (0, "")
    assert into_a_closed_pipe(sandbox, monkeypatch, "journal") == (0, "")
    assert into_a_closed_pipe(sandbox, monkeypatch, "journal", "1", "--json") == (0, "")


def test_json_gives_the_time_as_history_does_iso_8601_with_its_offset(sandbox):
    path, _ = cluster_path(sandbox)
    assert sandbox.run("patch", path, "diskSizeGB:=80", "--yes", "--writes").code == 0
    (noted,) = journal(sandbox)
    assert ISO_TIME.fullmatch(noted["at"]), noted["at"]
    assert datetime.fromisoformat(noted["at"]).utcoffset() is not None
    assert journal(sandbox, str(noted["number"]))["at"] == noted["at"]
