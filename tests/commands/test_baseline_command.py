"""`explorer baseline` and `explorer diff @NAME PATH`: a resource saved as it was, compared with it
now, and with a baseline another profile saved (staging against production); its secrets out."""

from __future__ import annotations

import json
from datetime import datetime

from explorer.api.baselines import Baselines
from tests.commands.conftest import DEFAULTS, Sandbox
from tests.commands.test_history_command import ISO_TIME, into_a_closed_pipe


def cluster_path(sandbox: Sandbox) -> tuple[str, object]:
    project = sandbox.world.project_named("production")
    cluster = next(iter(project.clusters.values()))
    return f"/groups/{project.id}/clusters/{cluster.name}", cluster


def baselines_file(sandbox: Sandbox):
    return sandbox.home / "state" / "explorer" / "baselines.sqlite3"


def test_a_resource_saved_as_a_baseline_is_compared_with_it_later(sandbox):
    path, cluster = cluster_path(sandbox)
    saved = sandbox.run("baseline", "save", "before-upgrade", path)
    assert (saved.code, saved.out.decode()) == (0, f"Saved before-upgrade: {sandbox.api}{path}\n")
    same = sandbox.run("diff", "@before-upgrade", path)
    assert (same.code, same.out) == (0, b"")

    size = cluster.fields["diskSizeGB"]
    cluster.fields["diskSizeGB"] = 160  # upgraded since
    changed = sandbox.run("diff", "@before-upgrade", path)
    lines = changed.out.decode().splitlines()
    assert changed.code == 1
    assert lines[0].startswith("--- baseline before-upgrade, saved ")
    assert lines[1] == f"+++ GET {sandbox.api}{path}"
    assert f"~ .diskSizeGB: {size} → 160" in lines

    listed = sandbox.run("baseline", "list", "--json").json
    assert [(b["profile"], b["name"], b["url"]) for b in listed] == [(None, "before-upgrade", f"{sandbox.api}{path}")]
    shown = sandbox.run("baseline", "show", "before-upgrade")
    assert json.loads(shown.out)["diskSizeGB"] == size
    gone = sandbox.run("baseline", "delete", "before-upgrade")
    assert (gone.code, gone.out.decode()) == (0, "Deleted before-upgrade.\n")
    missing = sandbox.run("diff", "@before-upgrade", path)
    assert missing.code == 2
    assert "no baseline before-upgrade, and no file before-upgrade (explorer baseline list)" in missing.err


def test_a_baseline_another_profile_saved_is_compared_with_this_service_now(sandbox):
    """What differs between staging and production: staging's baseline, production's resource now."""
    path, cluster = cluster_path(sandbox)
    staging = dict(json.loads(sandbox.run("get", path).out), diskSizeGB=40, name="orders-staging")
    stored = Baselines(baselines_file(sandbox))
    stored.save("staging", "orders", "https://staging.example.com/api/service/v1.0/x", staging, 1_800_000_000)
    stored.close()
    compared = sandbox.run("diff", "@staging:orders", path, "--json")
    assert compared.code == 1
    found = {
        change["path"]: (change.get("old"), change.get("new")) for change in map(json.loads, compared.out.splitlines())
    }
    assert found[".diskSizeGB"] == (40, cluster.fields["diskSizeGB"])
    assert found[".name"] == ("orders-staging", cluster.name)
    alone = sandbox.run("diff", "@orders", path)  # a name alone is this session's profile's: none here
    assert alone.code == 2 and "no baseline orders, and no file orders" in alone.err


def test_a_baseline_keeps_no_secret_and_a_file_named_like_one_is_still_a_file(sandbox, tmp_path, monkeypatch):
    project = sandbox.project_id("production")
    roles = [{"databaseName": "admin", "roleName": "readAnyDatabase"}]
    user = {"databaseName": "admin", "username": "kept", "password": "correct-horse-battery-99", "roles": roles}
    assert (
        sandbox.run("post", f"/groups/{project}/databaseUsers", "--data", json.dumps(user), "--yes", "--writes").code
        == 0
    )
    assert sandbox.run("baseline", "save", "users", f"/groups/{project}/databaseUsers").code == 0
    on_disk = b"".join(p.read_bytes() for p in baselines_file(sandbox).parent.iterdir() if "baselines" in p.name)
    assert b"correct-horse-battery-99" not in on_disk and DEFAULTS.client_secret.encode() not in on_disk

    monkeypatch.chdir(tmp_path)
    (tmp_path / "users").write_text(sandbox.run("get", f"/groups/{project}/databaseUsers").out.decode())
    as_file = sandbox.run("diff", "@users", f"/groups/{project}/databaseUsers")
    assert (as_file.code, as_file.out) == (0, b"")  # the file ./users, fetched just now: the same


def test_usage_errors_name_what_is_wrong(sandbox):
    bad = sandbox.run("baseline", "save", "no spaces", "/groups")
    assert bad.code == 2 and "'no spaces' is not a baseline's name" in bad.err
    words = sandbox.run("baseline", "save", "x")
    assert words.code == 2 and "give save NAME PATH, list, show NAME or delete NAME" in words.err
    none = sandbox.run("baseline", "show", "nothing")
    assert (none.code, none.err) == (1, "explorer baseline: no baseline nothing (explorer baseline list)\n")


def test_list_json_gives_the_time_as_history_does_iso_8601_with_its_offset(sandbox):
    path, _ = cluster_path(sandbox)
    assert sandbox.run("baseline", "save", "before-upgrade", path).code == 0
    (listed,) = sandbox.run("baseline", "list", "--json").json
    assert ISO_TIME.fullmatch(listed["saved"]), listed["saved"]
    assert datetime.fromisoformat(listed["saved"]).utcoffset() is not None


def test_show_prints_the_document_indented_as_journal_does(sandbox):
    """`baseline show` printed the document on one long line; `journal N --json` indents it by 2."""
    path, _ = cluster_path(sandbox)
    assert sandbox.run("baseline", "save", "before-upgrade", path).code == 0
    shown = sandbox.run("baseline", "show", "before-upgrade")
    document = json.loads(shown.out)
    assert shown.code == 0 and document["name"]
    assert shown.out.decode() == json.dumps(document, indent=2) + "\n"


def test_a_reader_that_stops_early_is_not_an_error(sandbox, monkeypatch):
    """`explorer baseline list --json | head` said `explorer baseline: [Errno 32] Broken pipe`, exit 1."""
    path, _ = cluster_path(sandbox)
    assert sandbox.run("baseline", "save", "before-upgrade", path).code == 0
    for words in (["list", "--json"], ["list"], ["delete", "before-upgrade"]):
        assert into_a_closed_pipe(sandbox, monkeypatch, "baseline", *words) == (0, "")
