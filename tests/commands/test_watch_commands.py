"""`explorer get --watch` and `explorer diff` as scripts use them: `main` in this process, against a
sandbox on a real socket whose world changes once it has answered the watch's first fetch
(tests/commands/conftest.py).

Two run as programs of their own (`subprocess`): a watch stopped by ctrl+c, since only a process gets
the signal and ends with its status; and a diff whose reader closes the pipe early (`| head -1`),
which only a real pipe shows.
"""

from __future__ import annotations

import json
import os
import re
import select
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from explorer.sandbox.links import API_ROOT
from tests.commands.conftest import Sandbox
from tests.conftest import ended

CLUSTER = "/groups/{project}/clusters/{name}"


def cluster_of(sandbox: Sandbox) -> tuple[str, object]:
    project = sandbox.world.project_named("production")
    cluster = next(iter(project.clusters.values()))
    return CLUSTER.format(project=project.id, name=cluster.name), cluster


@contextmanager
def started(sandbox: Sandbox, *arguments: str) -> Iterator[subprocess.Popen[bytes]]:
    """`explorer ARGUMENTS` as a program of its own; killed at the end if it is still running (a test
    that failed leaves no watch behind)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "explorer", *arguments],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=sandbox.environment(),
    )
    try:
        yield process
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()


def first_line(process: subprocess.Popen[bytes], within: float = 30.0) -> bytes:
    """The first line the program writes, within `within` seconds: one that writes none fails the test."""
    assert process.stdout is not None
    deadline, line = time.monotonic() + within, b""
    while not line.endswith(b"\n"):
        left = deadline - time.monotonic()
        assert left > 0, f"the program wrote {line!r}, and no whole line in {within:g} s"
        ready, _, _ = select.select([process.stdout], [], [], left)
        if ready:
            chunk = os.read(process.stdout.fileno(), 1)  # a byte at a time: nothing read past the line
            assert chunk, f"the program ended after {line!r}"
            line += chunk
    return line


@pytest.mark.slow  # a second between two fetches
def test_watch_prints_the_document_then_each_change_and_exits_0_when_the_condition_holds(sandbox):
    path, cluster = cluster_of(sandbox)
    cluster.fields["stateName"] = "UPDATING"
    sandbox.answered(path, lambda: cluster.fields.update(stateName="IDLE", diskSizeGB=40.0))
    run = sandbox.run("get", path, "--watch", "--every", "1", "--until", '.stateName == "IDLE"', "--for", "30")
    first, *lines = run.out.decode().splitlines()
    document = json.loads(first)
    assert document["stateName"] == "UPDATING"
    assert [line[8:] for line in lines] == ["  ~ .diskSizeGB: 10.0 → 40.0", '  ~ .stateName: "UPDATING" → "IDLE"']
    assert all(time.strptime(line[:8], "%H:%M:%S") for line in lines)
    assert run.err == 'explorer get: the condition holds: .stateName == "IDLE"\n'
    assert run.code == 0


@pytest.mark.slow  # a second between two fetches
def test_watch_as_json_lines_gives_each_change_with_its_time_and_old_and_new(sandbox):
    path, cluster = cluster_of(sandbox)
    cluster.fields["stateName"] = "UPDATING"
    sandbox.answered(path, lambda: cluster.fields.update(stateName="IDLE"))
    run = sandbox.run(
        "get", path, "--watch", "--json", "--every", "1", "--until", '.stateName == "IDLE"', "--for", "30"
    )
    head, *rest = run.out.decode().splitlines()
    first = json.loads(head)
    assert (first["status"], first["document"]["stateName"]) == (200, "UPDATING")
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", first["at"])
    (row,) = [json.loads(line) for line in rest]
    assert {k: v for k, v in row.items() if k != "at"} == {
        "path": ".stateName",
        "kind": "changed",
        "old": "UPDATING",
        "new": "IDLE",
    }
    assert run.code == 0


@pytest.mark.slow  # the watch's four seconds
def test_a_change_from_the_server_is_printed_with_its_controls_visible(sandbox):
    path, cluster = cluster_of(sandbox)
    sandbox.answered(path, lambda: cluster.fields.update(stateName="IDLE\x1b[2J\u202e"))
    run = sandbox.run("get", path, "--watch", "--every", "1", "--for", "4")
    _, changes = run.out.decode().split("\n", 1)
    # the escape as JSON writes it, the override named: neither does anything to the terminal
    assert changes[8:] == '  ~ .stateName: "IDLE" → "IDLE\\u001b[2J<U+202E>"\n'
    assert run.err.startswith("explorer get: --for 4 s ran out before the resource was deleted (2 versions seen in ")
    assert run.code == 1


@pytest.mark.slow  # the watch's two seconds
def test_the_first_version_is_fetched_once_then_the_watch_waits(sandbox):
    path, _ = cluster_of(sandbox)
    run = sandbox.run("get", path, "--watch", "--every", "5", "--for", "2")
    assert run.code == 1
    assert run.err.endswith("(1 version seen in 1 fetch)\n")
    assert [r.path for r in sandbox.noting.received if r.path.endswith(path)] == [API_ROOT + path]


@pytest.mark.slow  # a second between two fetches
def test_a_watch_ends_when_the_resource_is_deleted(sandbox):
    path, cluster = cluster_of(sandbox)
    project = sandbox.world.project_named("production")
    sandbox.answered(path, lambda: project.clusters.pop(cluster.name))
    run = sandbox.run("get", path, "--watch", "--every", "1", "--for", "30")
    _, changes = run.out.decode().split("\n", 1)
    assert changes[8:] == "  deleted: the resource answers 404 Not Found\n"
    assert (run.code, run.err) == (0, "")


@pytest.mark.slow  # a second between two fetches
def test_deleted_before_the_condition_held_is_an_error(sandbox):
    path, cluster = cluster_of(sandbox)
    cluster.fields["stateName"] = "UPDATING"
    project = sandbox.world.project_named("production")
    sandbox.answered(path, lambda: project.clusters.pop(cluster.name))
    run = sandbox.run("get", path, "--watch", "--every", "1", "--until", '.stateName == "IDLE"', "--for", "30")
    assert run.err == 'explorer get: deleted before the condition held: .stateName == "IDLE"\n'
    assert run.code == 4


@pytest.mark.subprocess
def test_ctrl_c_stops_a_watch_with_130_and_nothing_more_said(sandbox):
    """A watch with no end is stopped with ctrl+c: SIGINT to the process, which ends as a shell expects
    of an interrupted program (128 + 2), without a traceback or another word."""
    path, _ = cluster_of(sandbox)
    with started(sandbox, "get", path, "--watch", "--every", "1", "--for", "120") as process:
        assert json.loads(first_line(process))["name"] == path.rsplit("/", 1)[1]
        process.send_signal(signal.SIGINT)
        ended(process)
        out, err = process.communicate()
    assert (process.returncode, out, err) == (130, b"", b"")


def test_a_watch_of_what_is_not_there_is_an_error_at_once(sandbox):
    run = sandbox.run("get", "/groups/000000000000000000000000", "--watch")
    assert run.code == 4
    assert "explorer get: 404 Not Found · GROUP_NOT_FOUND" in run.err
    assert run.out == b""


@pytest.mark.slow  # jq runs in a Python process of its own, started for the watch
def test_a_condition_that_fails_on_the_document_stops_the_watch_and_says_why(sandbox):
    path, _ = cluster_of(sandbox)
    run = sandbox.run("get", path, "--watch", "--until", ".stateName.x", "--for", "30")
    assert run.code == 4
    assert run.err == 'explorer get: the watch stopped: the condition failed: Cannot index string with string ("x")\n'


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        (["--until", ".a"], "explorer get: error: --until goes only with --watch"),
        (["--every", "1", "--json"], "explorer get: error: --every and --json go only with --watch"),
        (["--watch", "--until", ".a =="], "explorer get: error: argument --until: '.a ==' is not a jq program: "),
        (["--watch", "--every", "0.5"], "explorer get: error: argument --every: '0.5' is too often: at least 1 s"),
        (["--watch", "--all"], "explorer get: error: --watch shows one document and its changes: not with --all"),
    ],
)
def test_watch_flags_misused_exit_2_and_send_nothing(sandbox, arguments, said):
    run = sandbox.run("get", "/groups", *arguments)
    assert run.code == 2
    assert said in run.err
    assert sandbox.noting.received == []


# explorer diff -------------------------------------------------------------------------------------


def test_diff_of_two_clusters_prints_each_difference_and_exits_1(sandbox):
    project = sandbox.world.project_named("production")
    first, second = list(project.clusters)[:2]
    run = sandbox.run(
        "diff",
        CLUSTER.format(project=project.id, name=first),
        CLUSTER.format(project=project.id, name=second),
        "--hide-noise",
    )
    lines = run.out.decode().splitlines()
    assert lines[0] == f"--- GET {sandbox.api}{CLUSTER.format(project=project.id, name=first)}"
    assert lines[1] == f"+++ GET {sandbox.api}{CLUSTER.format(project=project.id, name=second)}"
    assert f'~ .name: "{first}" → "{second}"' in lines
    assert not any(".links" in line or "createDate" in line for line in lines)
    assert run.err.startswith("explorer diff: ") and run.err.endswith(
        " in links and timestamps left out (--hide-noise)\n"
    )
    assert run.code == 1


def test_diff_of_a_resource_and_its_saved_body_is_0_when_nothing_changed(sandbox, tmp_path):
    path, cluster = cluster_of(sandbox)
    saved = tmp_path / "saved.json"
    saved.write_bytes(sandbox.run("get", path).out)
    assert (sandbox.run("diff", str(saved), path).code, sandbox.run("diff", str(saved), path).out) == (0, b"")
    cluster.fields["diskSizeGB"] = 80.0
    run = sandbox.run("diff", f"@{saved}", path, "--json")
    assert [json.loads(line) for line in run.out.decode().splitlines()] == [
        {"path": ".diskSizeGB", "kind": "changed", "old": 10.0, "new": 80.0}
    ]
    assert run.code == 1


def test_diff_reads_stdin_and_says_what_is_not_json(sandbox, tmp_path):
    other = tmp_path / "b.json"
    other.write_text('{"a": 1}')
    run = sandbox.run("diff", "-", str(other), stdin=b'{"a": 2}')
    assert (run.code, run.out.decode()) == (1, f"--- stdin\n+++ file {other}\n~ .a: 2 → 1\n")
    run = sandbox.run("diff", "-", str(other), stdin=b"{nope")
    assert (run.code, run.err) == (
        2,
        'explorer diff: stdin is not JSON: expected a name in double quotes, such as "name", at line 1, column 2\n',
    )
    run = sandbox.run("diff", str(tmp_path / "missing.json"), str(other))
    assert (run.code, run.err) == (2, f"explorer diff: file {tmp_path / 'missing.json'} does not exist\n")
    assert sandbox.noting.received == []


def test_diff_of_a_path_that_fails_is_trouble_with_the_error_said(sandbox, tmp_path):
    other = tmp_path / "b.json"
    other.write_text("{}")
    run = sandbox.run("diff", "/groups/000000000000000000000000", str(other))
    assert run.code == 2
    assert "explorer diff: 404 Not Found · GROUP_NOT_FOUND" in run.err
    assert run.out == b""


def test_diff_prints_every_value_whole(sandbox, tmp_path):
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    long = "https://sandbox.invalid/api/service/v1.0/groups/687b4c139cc9af4ec9546b43/clusters/"
    first.write_text(json.dumps({"href": long + "orders-prod"}))
    second.write_text(json.dumps({"href": long + "catalog-prod"}))
    run = sandbox.run("diff", str(first), str(second))
    assert run.out.decode().splitlines()[2] == f'~ .href: "{long}orders-prod" → "{long}catalog-prod"'


@pytest.mark.subprocess
def test_diff_into_a_pipe_closed_early_still_exits_1(sandbox, tmp_path):
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    first.write_text(json.dumps({f"key{n}": n for n in range(50_000)}))
    second.write_text("{}")
    with started(sandbox, "diff", str(first), str(second)) as process:
        assert first_line(process).startswith(b"--- file ")
        process.stdout.close()  # as `| head -1` does
        _, err = process.communicate(timeout=30)
    assert (process.returncode, err) == (1, b"")
