"""`explorer post`, `put`, `patch` and `delete` as scripts and people run them: `main` in this process,
against a sandbox on a real socket which notes every request it is sent (so "nothing was sent" is
checked; tests/commands/conftest.py).

Six run as programs of their own (`subprocess`), at a pseudo-terminal, since only a real terminal
shows them: the preview and its `Send? [y/N]` question, the answer typed, a DELETE's name typed, and
the Retry-After countdown said on the terminal.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import tty

import httpx
import pytest

from explorer.sandbox.links import API_ROOT
from tests.commands.conftest import DEFAULTS, Sandbox, Terminal, at_a_terminal, read_until

READ_ONLY = [
    "explorer post: Not sent: POST is a write, and this session is read-only (the default)",
    "hint: Nothing was sent. To write, turn writes on: --writes, EXPLORER_WRITES=1, or writes = true in the profile.",
]
NO_TERMINAL = [
    "explorer post: stdin is not a terminal: add --yes to send without asking",
    "hint: Nothing was sent. --dry-run prints what would be sent.",
]


def test_a_write_is_refused_while_writes_are_off_and_nothing_is_sent(sandbox):
    run = sandbox.run("post", "/groups", "name=demo", f"orgId={sandbox.org_id()}", "--yes")
    assert (run.code, run.out) == (2, b"")
    assert run.err.splitlines() == READ_ONLY
    assert sandbox.noting.received == []


@pytest.mark.parametrize("writes", [[], ["--writes"]])
def test_a_dry_run_prints_the_request_as_it_goes_and_its_curl_and_sends_nothing(sandbox, writes):
    run = sandbox.run("post", "/groups", "name=demo", "orgId=abc", "--dry-run", "-H", "X-Trace: 1", *writes)
    assert run.code == 0
    assert run.err.splitlines() == [  # how to set the curl's $TOKEN: the command that prints one
        "explorer post: the curl above: it says the token as $TOKEN: set it first, TOKEN=$(explorer token "
        f"--base-url {sandbox.api} --client-id {DEFAULTS.client_id}), which reads the secret from "
        "EXPLORER_CLIENT_SECRET."
    ]
    host = sandbox.url.removeprefix("http://")
    assert run.out.decode().splitlines() == [
        f"POST {sandbox.api}/groups",
        f"host: {host}",
        "accept-encoding: gzip, deflate",
        "connection: keep-alive",
        "user-agent: explorer/0.1.0",
        "x-trace: 1",
        "accept: application/json",
        "content-type: application/json",
        "content-length: 32",
        "authorization: Bearer ***",
        "",
        '{"name": "demo", "orgId": "abc"}',
        "",
        "curl -X POST -H \"Authorization: Bearer $TOKEN\" -H 'User-Agent: explorer/0.1.0' "
        "-H 'X-Trace: 1' -H 'Accept: application/json' -H 'Content-Type: application/json' "
        f'--data-raw \'{{"name": "demo", "orgId": "abc"}}\' {sandbox.api}/groups',
    ]
    assert sandbox.noting.received == []  # not even a token


def test_post_with_yes_creates_and_prints_the_answer_on_stdout(sandbox):
    run = sandbox.run("post", "/groups", "name=demo", f"orgId={sandbox.org_id()}", "--writes", "--yes", "-i")
    assert (run.code, run.err) == (0, "")
    head, _, body = run.out.decode().partition("\r\n\r\n")
    assert head.startswith("HTTP/1.1 201 Created\r\n")
    created = json.loads(body)
    assert (created["name"], created["orgId"]) == ("demo", sandbox.org_id())
    assert sandbox.world.projects[created["id"]].fields["name"] == "demo"
    assert sandbox.writes() == [("POST", f"{API_ROOT}/groups")]


def test_items_make_an_object_strings_with_equals_and_any_json_with_colon_equals(sandbox):
    items = ["name=x=1", "orgId=abc", 'tags:=[{"key": "env", "value": "lab"}]', "withDefaultAlertsSettings:=false"]
    run = sandbox.run("post", "/groups", *items, "--dry-run")
    assert run.code == 0
    body = run.out.decode().split("\n\n")[1]
    assert body == (
        '{"name": "x=1", "orgId": "abc", "tags": [{"key": "env", "value": "lab"}], "withDefaultAlertsSettings": false}'
    )


def test_data_from_a_file_and_from_stdin_is_sent_byte_for_byte(sandbox, tmp_path):
    written = f'{{\n  "name": "from-file",\n  "orgId": "{sandbox.org_id()}"\n}}\n'.encode()
    (tmp_path / "body.json").write_bytes(written)
    from_file = sandbox.run("post", "/groups", "--data", f"@{tmp_path / 'body.json'}", "--writes", "--yes")
    assert (from_file.code, from_file.err) == (0, "")
    assert from_file.json["name"] == "from-file"
    piped = f'{{"name":"from-stdin", "orgId":"{sandbox.org_id()}"}}'.encode()
    from_stdin = sandbox.run("post", "/groups", "--data", "@-", "--writes", "--yes", stdin=piped)
    assert (from_stdin.code, from_stdin.err) == (0, "")
    assert from_stdin.json["name"] == "from-stdin"
    assert [r.body for r in sandbox.noting.received if r.method == "POST" and r.path.endswith("/groups")] == [
        written,
        piped,
    ]


def test_a_patch_changes_the_entity_and_a_get_then_shows_it(sandbox):
    project = sandbox.project_id("staging")
    run = sandbox.run("patch", f"/groups/{project}", "--data", '{"name": "staging-2"}', "--writes", "--yes")
    assert (run.code, run.err) == (0, "")
    assert run.json["name"] == "staging-2"
    assert sandbox.run("get", f"/groups/{project}").json["name"] == "staging-2"


def test_a_put_goes_once_and_its_refusal_is_reported(sandbox):
    project = sandbox.project_id("staging")
    run = sandbox.run("put", f"/groups/{project}", "name=x", "--writes", "--yes")
    assert (run.code, run.out) == (4, b"")
    assert run.err.splitlines()[1:] == [  # the sandbox has no PUT
        f"explorer put: 405 Method Not Allowed · METHOD_NOT_ALLOWED: Method PUT is not allowed on {API_ROOT}/groups/"
        f"{project}. Allowed: DELETE, GET, HEAD, PATCH."
    ]
    assert sandbox.writes() == [("PUT", f"{API_ROOT}/groups/{project}")]


def test_delete_sends_a_delete_and_the_resource_is_gone(sandbox):
    project = sandbox.project_id("empty-sandbox")
    run = sandbox.run("delete", f"/groups/{project}", "--writes", "--yes", "-i")
    assert (run.code, run.err) == (0, "")
    head, _, body = run.out.decode().partition("\r\n\r\n")
    assert head.startswith("HTTP/1.1 204 No Content\r\n")
    assert body == ""
    gone = sandbox.run("get", f"/groups/{project}")
    assert gone.code == 4 and "GROUP_NOT_FOUND" in gone.err
    assert sandbox.writes() == [("DELETE", f"{API_ROOT}/groups/{project}")]


def test_a_delete_answered_204_prints_nothing_to_a_script(sandbox):
    project = sandbox.world.project_named("training-lab")
    database, username = next(iter(project.database_users))
    run = sandbox.run("delete", f"/groups/{project.id}/databaseUsers/{database}/{username}", "--writes", "--yes")
    assert (run.code, run.out, run.err) == (0, b"", "")
    assert (database, username) not in project.database_users


def test_a_refused_write_exits_4_with_the_error_document_on_stderr(sandbox):
    run = sandbox.run("post", "/groups", "name=demo", f"orgId={sandbox.org_id()}", "bogus:=1", "--writes", "--yes")
    assert (run.code, run.out) == (4, b"")
    assert run.err.splitlines() == [
        '{"detail":"Invalid attribute bogus specified.","error":400,"errorCode":"INVALID_ATTRIBUTE",'
        '"parameters":["bogus"],"reason":"Bad Request"}',
        "explorer post: 400 Bad Request · INVALID_ATTRIBUTE: Invalid attribute bogus specified.",
        "hint: The service refused the request as malformed: the detail and parameters name what to change.",
    ]


def test_an_unavailable_service_is_reported_with_its_retry_after_and_the_write_is_not_sent_again(sandbox):
    assert sandbox.run("get", "/orgs").code == 0  # a token now, so the outage hits the write
    httpx.post(sandbox.url + "/_sandbox/unavailable?count=3&retryAfter=7")
    run = sandbox.run("post", "/groups", "name=demo", f"orgId={sandbox.org_id()}", "--writes", "--yes")
    assert (run.code, run.out) == (5, b"")
    assert run.err.splitlines() == [
        '{"detail":"The service is temporarily unavailable. Retry after 7 seconds.","error":503,'
        '"errorCode":"SERVICE_UNAVAILABLE","parameters":[],"reason":"Service Unavailable"}',
        "explorer post: 503 Service Unavailable · SERVICE_UNAVAILABLE: The service is temporarily unavailable. "
        "Retry after 7 seconds.",
        "hint: The service is unavailable: retry in 7 s.",
    ]
    assert sandbox.writes() == [("POST", f"{API_ROOT}/groups")]


def test_without_a_terminal_a_write_needs_yes(sandbox):
    run = sandbox.run("post", "/groups", "name=demo", "--writes")
    assert (run.code, run.out) == (2, b"")
    assert run.err.splitlines() == NO_TERMINAL
    assert sandbox.noting.received == []


def write_config(sandbox: Sandbox, text: str) -> None:
    folder = sandbox.home / "config" / "explorer"
    folder.mkdir(parents=True)
    (folder / "config.toml").write_text(text)
    (folder / "config.toml").chmod(0o600)


def test_a_profile_that_says_writes_false_refuses_writes_even_asked_for(sandbox):
    write_config(
        sandbox,
        f'[profiles.prod]\nbase_url = "{sandbox.api}"\nclient_id = "{DEFAULTS.client_id}"\n'
        f'client_secret = "{DEFAULTS.client_secret}"\nwrites = false\n',
    )
    env = {"EXPLORER_BASE_URL": "", "EXPLORER_CLIENT_ID": "", "EXPLORER_CLIENT_SECRET": ""}
    asked = sandbox.run("delete", "/groups/x", "--profile", "prod", "--writes", "--yes", env=env)
    assert (asked.code, asked.out) == (2, b"")
    assert asked.err.splitlines() == [
        "explorer delete: Writes are off for the profile 'prod' (writes = false): --writes is refused",
        "hint: The profile 'prod' is read-only on purpose. To write, use another profile, or change writes = false "
        f"in {sandbox.home / 'config' / 'explorer' / 'config.toml'}.",
    ]
    unasked = sandbox.run("delete", "/groups/x", "--profile", "prod", "--yes", env=env)
    assert (unasked.code, unasked.out) == (2, b"")
    assert unasked.err.splitlines() == [
        "explorer delete: Not sent: DELETE is a write, and this session is read-only "
        "(the profile 'prod' says writes = false)",
        "hint: Nothing was sent. This profile is read-only on purpose: to write, use another profile.",
    ]
    assert sandbox.noting.received == []


@pytest.mark.parametrize(
    "given, said",
    [
        # json words some errors differently from Python to Python (a trailing comma, on 3.13): not this one
        (["--data", '{"name": }'], "the body is not JSON: expected a value (a string, number, object, array, "
        "true, false or null), at line 1, column 10"),
        (["--data", '{"size": NaN}'], "the body is not JSON: NaN is not JSON"),
        (["--data", "@HOME/missing.json"], "cannot read the body in HOME/missing.json: No such file or directory"),
        (["--data", ""], "the body is empty"),  # `--data "$UNSET"` in a script
        (["--data", "  \n"], "the body is empty"),
        (["--data", "@"], "--data @ names no file"),
    ],
)  # fmt: skip
def test_a_body_that_is_not_json_exits_2_and_nothing_is_sent(sandbox, given, said):
    run = sandbox.run(
        "post", "/groups", *(word.replace("HOME", str(sandbox.home)) for word in given), "--writes", "--yes"
    )
    assert (run.code, run.out) == (2, b"")
    assert run.err.splitlines()[0] == f"explorer post: {said.replace('HOME', str(sandbox.home))}"
    assert sandbox.noting.received == []


def test_a_patch_or_put_without_a_body_exits_2_and_nothing_is_sent(sandbox):
    for method in ("patch", "put"):
        run = sandbox.run(method, "/groups/x", "--writes", "--yes")
        assert (run.code, run.out) == (2, b"")
        assert run.err.splitlines()[0] == f"explorer {method}: a {method.upper()} needs a body: the fields it sets"
    assert sandbox.noting.received == []


@pytest.mark.parametrize("method", ["patch", "put"])
def test_an_empty_body_on_a_patch_or_put_says_it_needs_one_as_leaving_it_out_does(sandbox, method):
    """Not "to send no body, leave --data out": left out, the same command says it needs one."""
    emptied = sandbox.run(method, "/groups/x", "--data", "", "--writes", "--yes")
    left_out = sandbox.run(method, "/groups/x", "--writes", "--yes")
    how = (
        f"hint: Nothing was sent. Give the fields with --data JSON or NAME=VALUE items: explorer {method} TARGET name=…"
    )
    assert (emptied.code, emptied.out) == (2, b"")
    assert emptied.err.splitlines() == [
        f"explorer {method}: the body is empty: a {method.upper()} needs a body, the fields it sets",
        how,
    ]
    assert left_out.err.splitlines() == [f"explorer {method}: a {method.upper()} needs a body: the fields it sets", how]
    assert sandbox.noting.received == []


def test_an_empty_body_on_a_post_says_to_leave_data_out_since_a_post_may_go_without_one(sandbox):
    emptied = sandbox.run("post", "/groups", "--data", "", "--writes", "--yes")
    assert (emptied.code, emptied.out) == (2, b"")
    assert emptied.err.splitlines() == [
        "explorer post: the body is empty",
        "hint: Nothing was sent. To send no body, leave --data out; else give the JSON.",
    ]
    assert sandbox.noting.received == []


@pytest.mark.parametrize(
    "words",
    [
        ["ITEMS", "--writes", "--yes"],  # right after TARGET
        ["--writes", "--yes", "ITEMS"],  # after the flags: `unrecognized arguments: name=x` before
        ["--writes", "name=renamed", "--yes", "tags:=[]"],  # between them
    ],
)
def test_items_are_taken_before_between_and_after_the_flags(sandbox, words):
    project = sandbox.project_id("staging")
    arguments = [word for given in words for word in (["name=renamed", "tags:=[]"] if given == "ITEMS" else [given])]
    run = sandbox.run("patch", f"/groups/{project}", *arguments)
    assert (run.code, run.err) == (0, "")
    assert sandbox.world.projects[project].fields["name"] == "renamed"
    sent = [json.loads(r.body) for r in sandbox.noting.received if r.method == "PATCH"]
    assert sent == [{"name": "renamed", "tags": []}]


def test_an_item_after_the_flags_of_a_post_goes_in_its_body_and_a_delete_still_takes_none(sandbox):
    run = sandbox.run("post", "/groups", "--dry-run", "name=demo", "-H", "X-Trace: 1", "orgId=abc")
    assert run.code == 0
    assert run.out.decode().split("\n\n")[1] == '{"name": "demo", "orgId": "abc"}'
    refused = sandbox.run("delete", "/groups/x", "--writes", "name=x")
    assert refused.code == 2
    assert refused.err.splitlines()[-1] == "explorer delete: error: unrecognized arguments: name=x"


def test_a_body_on_stdin_that_is_not_json_names_where_it_came_from(sandbox):
    run = sandbox.run(
        "patch", "/groups/x", "--data", "@-", "--writes", "--yes", stdin=b'{\n  "name": "x"\n  "tags": []\n}'
    )
    assert (run.code, run.out) == (2, b"")
    assert run.err.splitlines() == [
        "explorer patch: the body on stdin is not JSON: expected , between two items, or the } or ] that closes them, "
        "at line 3, column 3",
        "hint: Nothing was sent. Write the body as JSON; in a shell, put single quotes around it.",
    ]


@pytest.mark.parametrize(
    "arguments, said",
    [
        (["post", "/groups", "tags:=[1,", "--writes"],
         "argument ITEM: the value of tags:= is not JSON: expected a value (a string, number, object, array, "
        "true, false or null), at line 1, column 4"),
        (["post", "/groups", "name=x", "--data", "{}"], "--data and ITEMs do not go together: give the body one way"),
        (["post", "/groups", "name=x", "name=y"], "the field name is given twice"),
        (["post", "/groups", "X-Trace:1"], "argument ITEM: 'X-Trace:1' is not NAME=VALUE (a string) or NAME:=JSON "
         "(any JSON value); a header goes with -H 'NAME: VALUE'"),
        (["delete", "/groups/x", "--data", "{}"], "unrecognized arguments: --data …"),
        (["delete", "/groups/x", "name=x"], "unrecognized arguments: name=x"),
    ],
)  # fmt: skip
def test_usage_errors_exit_2_naming_what_is_wrong(sandbox, arguments, said):
    run = sandbox.run(*arguments)
    assert (run.code, run.out) == (2, b"")
    assert run.err.startswith(f"usage: explorer {arguments[0]} ")
    assert run.err.endswith(f"explorer {arguments[0]}: error: {said}\n")
    assert sandbox.noting.received == []


# At a terminal: stdin and stderr a pseudo-terminal, stdout a pipe --------------------------------


def converse(sandbox: Sandbox, *arguments: str, question: bytes, answer: bytes) -> Terminal:
    """`explorer ARGUMENTS` at a terminal: wait for the question, type the answer."""
    return at_a_terminal(arguments, sandbox.environment(), question=question, answer=answer)


def headers_shown(sandbox: Sandbox, method: str, path: str, length: int | None) -> list[str]:
    """The preview's first lines: the request line and every header as it goes."""
    framing = ["content-type: application/json", f"content-length: {length}"] if length is not None else []
    return [
        f"{method} {sandbox.api}{path}",
        f"host: {sandbox.url.removeprefix('http://')}",
        "accept-encoding: gzip, deflate",
        "connection: keep-alive",
        "user-agent: explorer/0.1.0",
        "accept: application/json",
        *framing,
        "authorization: Bearer ***",
    ]


@pytest.mark.subprocess
def test_at_a_terminal_a_patch_shows_what_it_changes_and_asks(sandbox):
    path = f"/groups/{sandbox.project_id('staging')}"
    said = converse(sandbox, "patch", path, "name=staging-2", "tags:=[]", "--writes", question=b"[y/N] ", answer=b"y\n")
    assert said.code == 0
    assert json.loads(said.out)["name"] == "staging-2"
    assert said.shown.split("\n") == [
        *headers_shown(sandbox, "PATCH", path, 33),
        "",
        '{"name": "staging-2", "tags": []}',
        "",
        "What it changes in the entity, fetched just now:",
        '~ .name: "staging" → "staging-2"',
        '- .tags[0]: {"key": "env", "value": "staging"}',
        "",
        "Send? [y/N] ",
    ]
    assert sandbox.writes() == [("PATCH", f"{API_ROOT}{path}")]


@pytest.mark.subprocess
def test_at_a_terminal_a_put_shows_what_it_replaces_and_no_keeps_it_unsent(sandbox):
    path = f"/groups/{sandbox.project_id('staging')}"
    said = converse(sandbox, "put", path, "name=staging-2", "--writes", question=b"[y/N] ", answer=b"n\n")
    assert (said.code, said.out) == (1, b"")
    assert said.shown.split("\n") == [
        *headers_shown(sandbox, "PUT", path, 21),
        "",
        '{"name": "staging-2"}',
        "",
        "What it changes in the entity, fetched just now:",
        "- .clusterCount: 2",
        '~ .name: "staging" → "staging-2"',
        '- .tags: [{"key": "env", "value": "staging"}]',
        "- .withDefaultAlertsSettings: true",
        "",
        "Send? [y/N] explorer put: not sent",
        "",
    ]
    assert sandbox.writes() == []


@pytest.mark.subprocess
def test_at_a_terminal_yes_sends_it_and_the_status_is_said(sandbox):
    org = sandbox.org_id()
    said = converse(sandbox, "post", "/groups", "name=x", f"orgId={org}", "--writes", question=b"[y/N] ", answer=b"y\n")
    assert said.code == 0
    assert json.loads(said.out)["name"] == "x"
    assert said.shown.endswith('\n\n{"name": "x", "orgId": "' + org + '"}\n\nSend? [y/N] explorer post: 201 Created\n')
    assert sandbox.writes() == [("POST", f"{API_ROOT}/groups")]


@pytest.mark.subprocess
def test_at_a_terminal_a_delete_asks_for_the_name_typed(sandbox):
    path = f"/groups/{sandbox.project_id('empty-sandbox')}"
    refused = converse(sandbox, "delete", path, "--writes", question=b"keeps it): ", answer=b"empty\n")
    assert (refused.code, refused.out) == (1, b"")
    assert refused.shown.split("\n") == [
        *headers_shown(sandbox, "DELETE", path, None),
        "",
        'Type "empty-sandbox" to delete it (anything else keeps it): explorer delete: not sent',
        "",
    ]
    assert sandbox.writes() == []
    deleted = converse(sandbox, "delete", path, "--writes", question=b"keeps it): ", answer=b"empty-sandbox\n")
    assert (deleted.code, deleted.out) == (0, b"")
    assert deleted.shown.endswith("(anything else keeps it): explorer delete: 204 No Content: done\n")
    assert sandbox.writes() == [("DELETE", f"{API_ROOT}{path}")]


def test_a_cluster_delete_is_accepted_and_goes_on(sandbox):
    project = sandbox.world.project_named("staging")
    name = next(iter(project.clusters))
    path = f"/groups/{project.id}/clusters/{name}"
    run = sandbox.run("delete", path, "--writes", "--yes", "-i")
    assert (run.code, run.err) == (0, "")
    head, _, body = run.out.decode().partition("\r\n\r\n")
    assert head.startswith("HTTP/1.1 202 Accepted\r\n")
    assert body == ""
    assert sandbox.run("get", path).json["stateName"] == "DELETING"


@pytest.mark.subprocess
def test_at_a_terminal_an_accepted_delete_is_said_so(sandbox):
    project = sandbox.world.project_named("analytics")
    name = next(iter(project.clusters))
    path = f"/groups/{project.id}/clusters/{name}"
    said = converse(sandbox, "delete", path, "--writes", question=b"keeps it): ", answer=name.encode() + b"\n")
    assert (said.code, said.out) == (0, b"")
    assert said.shown.endswith(
        f'Type "{name}" to delete it (anything else keeps it): explorer delete: 202 Accepted: the service goes on '
        "with it\n"
    )
    assert sandbox.writes() == [("DELETE", f"{API_ROOT}{path}")]


@pytest.mark.subprocess
def test_get_at_a_terminal_says_it_waits_for_a_retry_after_and_how_long(sandbox):
    assert sandbox.run("get", "/orgs").code == 0  # a token now, so the outage hits the read
    httpx.post(sandbox.url + "/_sandbox/unavailable?count=1&retryAfter=2")
    primary, secondary = os.openpty()
    tty.setraw(secondary)
    process = subprocess.Popen(
        [sys.executable, "-m", "explorer", "get", "/orgs"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=secondary,
        env=sandbox.environment(),
    )
    os.close(secondary)
    try:
        shown = read_until(primary, b"", time.monotonic() + 60)
        out, _ = process.communicate(timeout=30)
    finally:
        process.kill()
        os.close(primary)
    assert shown.decode() == "explorer get: waiting 2 s for the 503's Retry-After…\n"  # raw: no \r added
    assert process.returncode == 0 and json.loads(out)["results"]
    httpx.post(sandbox.url + "/_sandbox/unavailable?count=1&retryAfter=2")
    piped = sandbox.run("get", "/orgs")  # in a pipe: silent, as before
    assert (piped.code, piped.err) == (0, "")
