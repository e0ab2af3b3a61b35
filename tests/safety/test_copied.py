"""A copied command never carries a secret's value: not a body's (tests/safety/test_classroom.py),
nor a header's or a query parameter's named like a secret (`redaction.is_secret`). A shell variable
named after the field stands in its place, and the notice (or `--dry-run`'s stderr) names it."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
from dataclasses import replace

import pytest

from explorer.api.writes import Outgoing
from explorer.display.shell_forms import as_command, as_curl, in_variables, masked, secrets_in, withheld
from tests.commands.conftest import in_process
from tests.safety.conftest import account_environment
from tests.tui.conftest import open_explorer  # noqa: F401  (the screen test's fixture)
from tests.tui.test_writes import choose, open_production

BASE = "https://h.example/api/service/v1.0"
HEADER_VALUE = "hdr-secret-111111"
QUERY_VALUE = "qp-secret-222222"
TOKEN_VALUE = "qt-secret-333333"
BODY_VALUE = "body-secret-444444"


@pytest.mark.parametrize(
    ("header", "variable"),
    [
        ("X-Api-Key", "X_API_KEY"),
        ("x-API-KEY", "X_API_KEY"),  # any case
        ("X-Auth-Token", "X_AUTH_TOKEN"),
        ("client_secret", "CLIENT_SECRET"),
        ("Proxy-Authorization", "PROXY_AUTHORIZATION"),  # a credential header the HAR redaction takes out
    ],
)
def test_a_secret_named_header_is_copied_as_a_shell_variable(header, variable):
    out = Outgoing("PATCH", f"{BASE}/groups/1", (("Accept", "application/json"), (header, HEADER_VALUE)))
    for command in (as_curl(out), as_command(out, BASE, ("--profile", "lab"))):
        assert HEADER_VALUE not in command
        words = shlex.split(command)
        assert f"{header.title()}: ${variable}" in words
        assert "Accept: application/json" in words  # a header not named like a secret goes as it is
    notice = in_variables(withheld(out))
    assert f"header {header} as ${variable}" in notice
    assert HEADER_VALUE not in notice


@pytest.mark.parametrize(
    ("given", "name", "variable"),
    [
        ("access_token", "access_token", "ACCESS_TOKEN"),
        ("PASSWORD", "PASSWORD", "PASSWORD"),  # any case
        ("pass%77ord", "password", "PASSWORD"),  # percent-encoded
        ("Client%5FSecret", "Client_Secret", "CLIENT_SECRET"),
        ("api+key", "api key", "API_KEY"),  # `+` is a space in a query
    ],
)
def test_a_secret_named_query_parameter_is_copied_as_a_shell_variable(given, name, variable):
    query = f"pretty=true&{given}={QUERY_VALUE}&itemsPerPage=5"
    out = Outgoing("GET", f"{BASE}/groups?{query}", (("Authorization", "Bearer ***"),))
    curl, command = as_curl(out), as_command(out, BASE)
    assert QUERY_VALUE not in curl and QUERY_VALUE not in command
    said = query.replace(QUERY_VALUE, f"${variable}")
    assert shlex.split(curl) == ["curl", "-H", "Authorization: Bearer $TOKEN", f"{BASE}/groups?{said}"]
    assert shlex.split(command) == ["explorer", "get", f"/groups?{said}"]
    assert f"query parameter {name} as ${variable}" in in_variables(withheld(out))


def test_each_field_has_a_variable_of_its_own_never_the_credentials():
    """Two fields of one name, and a field named as a credential's variable ($TOKEN), each its own."""
    url = f"{BASE}/groups?password=p1-secret&password=p2-secret&token=t-secret"
    out = Outgoing("GET", url, (("Authorization", "Bearer ***"), ("X-Token", "h-secret")))
    words = shlex.split(as_curl(out))
    assert words[-1] == f"{BASE}/groups?password=$PASSWORD&password=$PASSWORD_2&token=$TOKEN_2"
    assert words[1:5] == ["-H", "Authorization: Bearer $TOKEN", "-H", "X-Token: $X_TOKEN"]
    assert "secret" not in " ".join(words)
    assert in_variables(withheld(Outgoing("GET", f"{BASE}/groups?tokenType=bearer&x=1", ()))) == ""


@pytest.mark.subprocess
def test_the_shell_puts_each_variable_s_value_where_it_stood():
    """The quoting is the shell's: even where a double-quoted word would expand (a `$`, a backquote)."""
    out = Outgoing(
        "POST",
        f"{BASE}/a$b/groups?access_token={TOKEN_VALUE}&password={QUERY_VALUE}",
        (("X-Api-Key", HEADER_VALUE), ("X-$Odd`Name-Token", HEADER_VALUE)),
    )
    curl = as_curl(out)
    assert HEADER_VALUE not in curl and QUERY_VALUE not in curl and TOKEN_VALUE not in curl
    values = {"ACCESS_TOKEN": "a1", "PASSWORD": "p&1", "X_API_KEY": "k 1", "X_ODD_NAME_TOKEN": "$t1"}
    run = subprocess.run(
        ["sh", "-c", "printf '%s\\n' " + curl.removeprefix("curl ")],
        env={"PATH": os.environ["PATH"], **values},
        capture_output=True,
        text=True,
        check=True,
    )
    assert run.stdout.splitlines() == [
        "-X", "POST", "-H", "X-Api-Key: k 1", "-H", "X-$Odd`Name-Token: $t1",
        f"{BASE}/a$b/groups?access_token=a1&password=p&1",
    ]  # fmt: skip


def test_a_dry_run_prints_no_secret_value_and_says_the_variables(server, tmp_path):
    body = json.dumps({"name": "demo", "password": BODY_VALUE})
    run = in_process(
        [
            "post",
            "/groups",
            "--dry-run",
            "-H",
            f"X-Api-Key: {HEADER_VALUE}",
            "-q",
            f"password={QUERY_VALUE}",
            "-q",
            f"access_token={TOKEN_VALUE}",
            "--data",
            body,
        ],
        account_environment(server, tmp_path),
    )
    out = run.out.decode()
    assert run.code == 0, run.err
    for value in (HEADER_VALUE, QUERY_VALUE, TOKEN_VALUE, BODY_VALUE):
        assert value not in out and value not in run.err
    shown = out.splitlines()
    assert shown[0] == f"POST {server.url}/groups?password=***&access_token=***"
    assert "x-api-key: ***" in shown
    curl = shlex.split(shown[-1])
    assert "X-Api-Key: $X_API_KEY" in curl
    assert curl[-3:] == ["--data-binary", "@-", f"{server.url}/groups?password=$PASSWORD&access_token=$ACCESS_TOKEN"]
    assert "header x-api-key as $X_API_KEY" in run.err  # as httpx sends it
    assert "query parameter password as $PASSWORD, query parameter access_token as $ACCESS_TOKEN" in run.err
    assert "its body holds a secret (password)" in run.err
    assert server.arrivals == []  # nothing sent, not even a token request


@pytest.mark.screen
async def test_y_and_c_on_a_page_fetched_with_a_token_in_its_query_copy_a_variable_and_say_so(open_explorer):  # noqa: F811
    async with open_explorer() as explorer:
        await explorer.go_to(f"/orgs?access_token={TOKEN_VALUE}")
        assert TOKEN_VALUE in explorer.app.session.log[-1].url  # it went (the person typed it)
        for key, said in (("Y", "https://sandbox.invalid/api/service/v1.0/orgs"), ("C", "/orgs")):
            explorer.app.clear_notifications()
            await explorer.pilot.press(key)
            await explorer.until(lambda: "query parameter access_token as $ACCESS_TOKEN" in explorer.toasts())
            assert TOKEN_VALUE not in explorer.app.clipboard and TOKEN_VALUE not in explorer.toasts()
            assert f"{said}?access_token=$ACCESS_TOKEN" in shlex.split(explorer.app.clipboard)


@pytest.mark.parametrize(
    "body",
    [
        '{"name": "u", "password": "' + BODY_VALUE + '", "password": null}',  # a reader keeps the last: null
        '{"ldap": {"bindPassword": "' + BODY_VALUE + '", "bindPassword": ""}}',
        '{"apiKey": {"value": "' + BODY_VALUE + '"}}',  # a secret-named field holding an object
    ],
)
def test_a_body_whose_secret_a_later_field_of_its_name_hides_is_not_copied(body):
    out = Outgoing("POST", f"{BASE}/groups/1/databaseUsers", (("Content-Type", "application/json"),), body.encode())
    assert secrets_in(out)
    for command in (as_curl(out), as_command(out, BASE)):
        assert BODY_VALUE not in command
        assert "@-" in shlex.split(command)
    assert BODY_VALUE.encode() not in masked(out).body  # what --dry-run prints


@pytest.mark.screen
async def test_y_and_the_editors_curl_say_how_to_set_the_token_they_copy_as_a_variable(open_explorer):  # noqa: F811
    """The copy says `$TOKEN`, never its value; the notice says the command that sets it, with the flags
    that reach the same service (the profile), or that the demo's sandbox is out of curl's reach."""
    async with open_explorer(writes=True) as explorer:
        await explorer.open("orgs")
        token = explorer.app.session.auth.token.value.reveal()
        await explorer.pilot.press("Y")
        await explorer.until(lambda: "Copied curl" in explorer.toasts())
        assert (
            "It says the token as $TOKEN, but the demo's sandbox runs inside the explorer, where curl cannot reach "
            "it: explorer sandbox serves one curl can." in explorer.toasts()
        )
        session = explorer.app.session  # as a session of a profile's, on the service itself
        session.backend, session.credentials = None, replace(session.credentials, profile="lab")
        for key in ("Y", "ctrl+o"):
            explorer.app.clear_notifications()
            if key == "ctrl+o":
                await open_production(explorer)
                await choose(explorer, "PATCH")
            await explorer.pilot.press(key)
            await explorer.until(lambda: "Copied curl" in explorer.toasts())
            assert "It says the token as $TOKEN: set it first, TOKEN=$(explorer token --profile lab)." in (
                explorer.toasts()
            )
            assert token not in explorer.app.clipboard and token not in explorer.toasts()
            assert '"Authorization: Bearer $TOKEN"' in explorer.app.clipboard
