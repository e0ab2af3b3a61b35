"""`explorer get` and `explorer logout` as scripts run them: `main` in this process, against a sandbox on a
real socket (tests/commands/conftest.py).

Three run as programs of their own (`subprocess`): the installed `explorer` script, whose exit code is
what a shell reads; a reader that stops early (`| head`), which only a real pipe shows; and the final
newline a terminal gets, which only a pseudo-terminal shows.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import sysconfig
from pathlib import Path

import httpx
import pytest

from explorer.sandbox import Settings, create_app
from explorer.sandbox.links import API_ROOT
from tests.commands.conftest import DEFAULTS, Run, Sandbox, in_process, script_environment, serve


def test_the_body_goes_to_stdout_exactly_as_received(sandbox):
    run = sandbox.run("get", "/orgs", "--pretty")
    direct = httpx.get(
        sandbox.url + API_ROOT + "/orgs?pretty=true", auth=httpx.DigestAuth(DEFAULTS.public_key, DEFAULTS.private_key)
    )
    assert run.code == 0 and run.err == ""
    assert run.out == direct.content


def test_query_envelope_and_include(sandbox):
    assert len(sandbox.run("get", "/orgs", "-q", "itemsPerPage=1").json["results"]) == 1
    assert sandbox.run("get", "/orgs", "--envelope").json["status"] == 200
    included = sandbox.run("get", "/orgs", "--include").out.decode()
    head, _, body = included.partition("\r\n\r\n")
    assert head.startswith("HTTP/1.1 200 OK\r\n")
    assert "content-type: application/vnd.service.2023-01-01+json;charset=utf-8" in head
    assert json.loads(body)["totalCount"] == 2


def test_all_follows_next_at_500_a_page_into_one_array(sandbox):
    project = sandbox.app.state.sandbox.world.project_named("production").id
    run = sandbox.run("get", f"/groups/{project}/events", "--all")
    assert run.code == 0
    assert len(run.json) == 1234 and len({e["id"] for e in run.json}) == 1234


def test_an_http_error_exits_4_with_the_document_and_hint_on_stderr(sandbox):
    run = sandbox.run("get", "/groups/111111111111111111111111")
    assert run.code == 4
    assert run.out == b""
    assert '"errorCode":"GROUP_NOT_FOUND"' in run.err
    assert "explorer get: 404 Not Found · GROUP_NOT_FOUND: No group with ID 111111111111111111111111 exists." in run.err
    assert "Traceback" not in run.err


@pytest.mark.subprocess
def test_the_installed_script_exits_with_the_code_of_the_command(sandbox):
    """The `explorer` script pip installed, as a shell runs it: its exit status is what the command
    returned, or a usage error's 2 (argparse's SystemExit), and nothing but the command's words is said."""
    script = Path(sysconfig.get_path("scripts")) / "explorer"
    assert script.is_file(), f"no {script}: install the project (pip install -e .), which makes the script"
    shell = [(["get", "/orgs"], 0), (["get", "/groups/111111111111111111111111"], 4), (["get"], 2)]
    done = [
        subprocess.run([script, *words], capture_output=True, env=sandbox.environment(), timeout=60)
        for words, _ in shell
    ]
    assert [d.returncode for d in done] == [code for _, code in shell]
    assert json.loads(done[0].stdout)["totalCount"] == 2 and done[0].stderr == b""
    assert "explorer get: 404 Not Found · GROUP_NOT_FOUND".encode() in done[1].stderr
    assert done[2].stderr.startswith(b"usage: explorer get ")


@pytest.mark.slow  # the Retry-After seconds, waited
def test_a_server_error_exits_5_after_the_retries(sandbox):
    assert sandbox.run("get", "/orgs").code == 0  # a token now, so the outage hits the read
    httpx.post(sandbox.url + "/_sandbox/unavailable?count=3&retryAfter=1")
    run = sandbox.run("get", "/orgs")
    assert run.code == 5
    assert "503 Service Unavailable" in run.err and "hint: The service is unavailable: retry in 1 s." in run.err


def test_a_refused_connection_exits_1(tmp_path):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    run = Sandbox(None, f"http://127.0.0.1:{port}", tmp_path).run("get", "/orgs")
    assert run.code == 1
    assert f"Connection refused by 127.0.0.1:{port}" in run.err
    assert "hint:" in run.err and "Traceback" not in run.err


@pytest.mark.parametrize(
    "arguments, env, message",
    [
        (
            ["get", "/orgs"],
            {"EXPLORER_BASE_URL": "http://api.example.com"},
            "Refusing plain http:// to api.example.com",
        ),
        (["get", "/orgs"], {"EXPLORER_CLIENT_SECRET": ""}, "No credentials for"),
        (["get", "/orgs", "--profile", "nope"], {}, "No profile 'nope'"),
        (["get", "https://elsewhere.example/api/x"], {}, "the credentials go only to 127.0.0.1"),
    ],
)
def test_configuration_and_safety_refusals_exit_1(sandbox, arguments, env, message):
    run = sandbox.run(*arguments, env=env)
    assert run.code == 1
    assert message in run.err
    assert "Traceback" not in run.err


@pytest.mark.parametrize("arguments", [["get"], ["get", "/orgs", "--query", "novalue"], ["get", "/orgs", "--bogus"]])
def test_usage_errors_exit_2(sandbox, arguments):
    run = sandbox.run(*arguments)
    assert run.code == 2 and "usage:" in run.err


def test_one_shot_runs_reuse_a_cached_token_under_a_low_token_limit(sandbox):
    for _ in range(6):  # the token endpoints allow 3 a minute here
        assert sandbox.run("get", "/orgs").code == 0
    assert sandbox.live_tokens() == 1
    [cached] = sandbox.cached()
    assert oct(cached.stat().st_mode & 0o777) == "0o600"


def test_no_token_cache_gets_and_revokes_a_token_per_call(sandbox):
    assert sandbox.run("get", "/orgs", "--no-token-cache").code == 0
    assert sandbox.live_tokens() == 0 and sandbox.cached() == []


def test_logout_revokes_the_cached_token_and_deletes_its_file(sandbox):
    sandbox.run("get", "/orgs")
    run = sandbox.run("logout")
    assert run.code == 0
    assert run.out.decode().startswith(f"Logged out of 127.0.0.1 as {DEFAULTS.client_id}")
    assert sandbox.live_tokens() == 0 and sandbox.cached() == []
    again = sandbox.run("logout")
    assert again.code == 0 and "No cached token" in again.out.decode()


def test_no_secret_or_token_reaches_any_output(sandbox, monkeypatch):
    known = "KNOWN-TOKEN-VALUE-42"
    monkeypatch.setattr("explorer.sandbox.tokens.secrets.token_urlsafe", lambda size: known)
    runs = [sandbox.run("get", "/orgs", "-i"), sandbox.run("get", "/groups/nope")]
    cache_text = b"".join(p.read_bytes() for p in sandbox.cached())
    runs.append(sandbox.run("logout"))
    everything = b"".join(r.out + r.err.encode() for r in runs) + cache_text
    assert sandbox.app.state.sandbox.tokens.tokens  # a token was issued, and it was the known one
    assert DEFAULTS.client_secret.encode() not in everything
    assert known.encode() not in everything
    assert b"sbx_" not in everything


@pytest.mark.parametrize("arguments", [["get", "--demo", "/orgs"], ["--demo", "get", "/orgs"]])
def test_demo_anywhere_needs_nothing_set_up(tmp_path, arguments):
    run = Sandbox(None, "https://unused.invalid", tmp_path).run(
        *arguments, env={"EXPLORER_BASE_URL": "", "EXPLORER_CLIENT_ID": "", "EXPLORER_CLIENT_SECRET": ""}
    )
    assert run.code == 0, run.err
    assert run.json["totalCount"] == 2
    assert run.json["links"][0]["href"].startswith("https://sandbox.invalid/")


def test_https_with_the_sandbox_authority(tmp_path):
    for sandbox in serve(tmp_path, tls=True):
        assert sandbox.run("get", "/orgs").code == 0
        untrusted = sandbox.run("get", "/orgs", env={"EXPLORER_CA_BUNDLE": ""})
        assert (untrusted.code, untrusted.err.splitlines()) == (
            1,
            [
                "explorer get: The certificate of 127.0.0.1 is signed by an authority this computer does not trust",
                "hint: The certificate is not trusted: name its authority (for the sandbox, its sandbox-ca.pem). "
                "--ca-bundle FILE names it (EXPLORER_CA_BUNDLE, or ca_bundle in the profile).",
            ],
        )


def test_plain_http_to_the_https_sandbox_says_it_seems_to_speak_https(tmp_path):
    for sandbox in serve(tmp_path, tls=True):
        plain = sandbox.url.replace("https://", "http://")
        run = sandbox.run("get", "/orgs", env={"EXPLORER_BASE_URL": plain + API_ROOT})
        assert run.code == 1
        assert run.err == (
            "explorer get: 127.0.0.1 hung up on plain HTTP without an answer: it seems to speak HTTPS\n"
            f"hint: Try {sandbox.url} in the base URL (the explorer's sandbox serves HTTPS unless told not to).\n"
        )


async def test_a_redirect_exits_3(monkeypatch, capsysbinary):
    from explorer.api.config import Credentials
    from explorer.api.secret import Secret
    from explorer.api.session import Session
    from explorer.cli import parser
    from explorer.commands import get

    moved = httpx.Response(302, headers={"location": "https://h.example/elsewhere"}, content=b"")
    session = Session(
        Credentials("https://h.example/api/service/v1.0", public_key="p", private_key=Secret("k")),
        transport=httpx.MockTransport(lambda request: moved),
    )
    monkeypatch.setattr(get, "open_session", lambda args, **_: session)
    code = await get.get(parser().parse_args(["get", "/orgs"]))
    assert code == 3


@pytest.mark.subprocess
def test_a_reader_that_stops_early_is_not_an_error():
    # `explorer get … | head`: the write fails with EPIPE once head has what it wants.
    script = (
        "import explorer.commands.get as get\n"
        "def closed(args): raise BrokenPipeError\n"
        "get.run = closed\n"
        "from explorer.cli import main\n"
        "raise SystemExit(main(['get', '--demo', '/orgs']))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stderr) == (0, "")


def demo(*arguments: str) -> Run:
    """`explorer get --demo …` in this process: the in-process sandbox, stdout and stderr as written."""
    return in_process(["get", "--demo", *arguments], script_environment({}))


def demo_project_id() -> str:
    return create_app(Settings()).state.sandbox.world.project_named("production").id


def test_include_on_an_http_error_prints_the_status_and_headers_then_the_error():
    run = demo("-i", "/groups/111111111111111111111111")
    assert run.code == 4
    head = run.out.decode()
    assert head.startswith("HTTP/1.1 404 Not Found\r\n") and head.endswith("\r\n\r\n")
    assert "content-type: application/json" in head
    assert "ratelimit-limit: 100" in head.lower()
    assert run.err.splitlines() == [
        '{"detail":"No group with ID 111111111111111111111111 exists.","error":404,"errorCode":"GROUP_NOT_FOUND",'
        '"parameters":["111111111111111111111111"],"reason":"Not Found"}',
        "explorer get: 404 Not Found · GROUP_NOT_FOUND: No group with ID 111111111111111111111111 exists.",
        "hint: Nothing is there: check the IDs in the path, or reach it by following links from the root.",
    ]


@pytest.mark.slow  # the Retry-After seconds, waited
def test_include_shows_retry_after_when_the_service_is_unavailable(sandbox):
    assert sandbox.run("get", "/orgs").code == 0  # a token now, so the outage hits the read
    httpx.post(sandbox.url + "/_sandbox/unavailable?count=3&retryAfter=1")
    run = sandbox.run("get", "-i", "/orgs")
    assert run.code == 5
    assert run.out.startswith(b"HTTP/1.1 503 Service Unavailable\r\n")
    assert b"\r\nretry-after: 1\r\n" in run.out.lower()
    assert "hint: The service is unavailable: retry in 1 s." in run.err


def test_all_on_an_entity_prints_the_entity_as_received():
    project = demo_project_id()
    run = demo(f"/groups/{project}", "--all")
    assert (run.code, run.err) == (0, "")
    assert run.json["id"] == project and run.json["name"] == "production"
    assert run.out == demo(f"/groups/{project}").out


@pytest.mark.slow
def test_all_never_sends_the_page_size_to_what_is_not_a_list(monkeypatch):
    from explorer.api.session import Session

    sent: list[str] = []
    fetch = Session.fetch

    async def recording(self, target, **options):
        resource = await fetch(self, target, **options)
        sent.append(resource.url)
        return resource

    monkeypatch.setattr(Session, "fetch", recording)
    project = demo_project_id()
    assert demo(f"/groups/{project}", "--all", "--pretty").code == 0
    assert demo("/orgs", "--all").json[0]["name"]
    events = demo(f"/groups/{project}/events", "--all").json
    assert len(events) == 1234 and len({e["id"] for e in events}) == 1234
    assert [url.split("/v1.0")[1] for url in sent] == [
        f"/groups/{project}?pretty=true",
        "/orgs",  # one page: nothing more to ask for
        f"/groups/{project}/events",  # more than a page: again, at 500 per page
        f"/groups/{project}/events?itemsPerPage=500",
        f"/groups/{project}/events?includeCount=true&pageNum=2&itemsPerPage=500",
        f"/groups/{project}/events?includeCount=true&pageNum=3&itemsPerPage=500",
    ]


def test_all_keeps_the_page_size_and_page_asked_for():
    project = demo_project_id()
    run = demo(f"/groups/{project}/events", "--all", "-q", "pageNum=12")
    assert run.code == 0
    assert len(run.json) == 1234 - 11 * 100  # pages of 100 (the default), from the 12th on


def test_an_unknown_flag_to_a_command_shows_that_commands_usage():
    run = demo("/orgs", "--bogus")
    assert run.code == 2 and run.err.startswith("usage: explorer get ")
    assert run.err.endswith("explorer get: error: unrecognized arguments: --bogus\n"), run.err


def test_all_with_include_is_a_usage_error():
    run = demo("/orgs", "--all", "-i")
    assert run.code == 2
    assert "argument --include/-i: not allowed with argument --all" in run.err


@pytest.mark.parametrize("value", ["-1", "0", "nan", "inf", "-inf", "soon"])
def test_a_timeout_that_is_not_a_positive_number_of_seconds_is_a_usage_error(capsysbinary, value):
    from explorer.cli import parser

    for arguments in (["get", "/orgs", f"--timeout={value}"], [f"--timeout={value}"]):
        with pytest.raises(SystemExit) as exited:
            parser().parse_args(arguments)
        assert exited.value.code == 2
        err = capsysbinary.readouterr().err.decode()
        assert f"argument --timeout: {value!r} is not a number of seconds above 0" in err


def test_a_fractional_timeout_is_taken(capsysbinary):
    from explorer.cli import parser

    assert parser().parse_args(["get", "/orgs", "--timeout", "0.5"]).timeout == 0.5


SECRET = "mdb_sa_sk_not-to-be-seen"


def usage_error(*arguments: str) -> str:
    """`explorer ARGUMENTS` as main runs it: a usage error (exit 2), its stderr."""
    run = in_process(arguments, script_environment({}))
    assert (run.code, run.out) == (2, b"")
    return run.err


@pytest.mark.parametrize("command", [[], ["get", "/orgs"], ["logout"]])
@pytest.mark.parametrize(
    "flag, variable",
    [("--client-secret", "EXPLORER_CLIENT_SECRET"), ("--private-key", "EXPLORER_PRIVATE_KEY")],
)
@pytest.mark.parametrize("form", ["apart", "joined", "abbreviated", "alone"])
def test_a_secret_given_as_a_flag_is_a_usage_error_that_never_repeats_it(command, flag, variable, form):
    given = {
        "apart": [flag, SECRET],
        "joined": [f"{flag}={SECRET}"],
        "abbreviated": [flag[:-2], SECRET],
        "alone": [flag],
    }[form]
    err = usage_error("--base-url", "http://127.0.0.1:8080", "--client-id", "id", *command, *given)
    assert SECRET not in err
    assert f"argument {flag}: secrets have no flag (other users can see a command line): set {variable}" in err
    assert ("login form" in err) == (not command)  # only the explorer screen has one
    assert "invalid choice" not in err


def test_the_sandbox_still_takes_its_own_secrets_as_flags():
    from explorer.cli import parser

    args = parser().parse_args(["sandbox", "--client-secret", "class-secret", "--private-key", "class-key"])
    assert (args.client_secret, args.private_key) == ("class-secret", "class-key")


@pytest.mark.parametrize(
    "arguments, said",
    [
        (["--secret", SECRET], "explorer: error: unrecognized arguments: --secret …"),
        (["--secret=" + SECRET], "explorer: error: unrecognized arguments: --secret=…"),
        (
            ["--client=" + SECRET],
            "explorer: error: ambiguous option: --client=… could match --client-id, --client-secret",
        ),
        (["get", "/orgs", "--secret", SECRET], "explorer get: error: unrecognized arguments: --secret …"),
        (["get", "/orgs", "--key=" + SECRET, "extra"], "explorer get: error: unrecognized arguments: --key=… extra"),
    ],
)
def test_the_value_of_a_flag_it_does_not_know_is_never_repeated(arguments, said):
    err = usage_error(*arguments)
    assert SECRET not in err
    assert err.endswith(said + "\n"), err


@pytest.mark.parametrize(
    "arguments",
    [
        ["get", "--demo", "/groups", "-H", "X-A: é"],
        ["post", "--demo", "/groups", "name=é", "orgId=660f552ecd613e30d8f16adf", "--dry-run", "-H", "X-A: é"],
    ],
)
def test_a_header_value_that_is_not_ascii_is_a_usage_error(arguments):
    err = usage_error(*arguments)
    assert err.splitlines()[-1] == (
        f"explorer {arguments[0]}: error: argument --header/-H: the value of X-A has 'é', which is not ASCII: "
        "header values carry ASCII only; send it percent-encoded ('é' is %C3%A9) if the service decodes that"
    )


def test_a_bad_port_in_the_base_url_is_blamed_on_the_base_url():
    arguments = ["get", "--base-url", "https://127.0.0.1:99999", "--client-id", "a", "/groups"]
    run = in_process(arguments, script_environment({"EXPLORER_CLIENT_SECRET": "b"}))
    assert (run.code, run.out) == (1, b"")
    assert run.err.splitlines() == [
        "explorer get: The base URL 'https://127.0.0.1:99999' is not a valid URL: port 99999 is not between 1 "
        "and 65535",
        "hint: Give the API root with a port from 1 to 65535, such as https://127.0.0.1:8443/api/service/v1.0.",
    ]


def test_an_unknown_command_is_still_named():
    err = usage_error("--demo", "gte")
    assert "argument COMMAND: invalid choice: 'gte'" in err


def read_all(descriptor: int) -> bytes:
    data = b""
    while True:
        try:
            chunk = os.read(descriptor, 65536)
        except OSError:  # EIO: the other end is closed and everything was read
            return data
        if not chunk:
            return data
        data += chunk


@pytest.mark.subprocess
def test_a_terminal_gets_a_final_newline_and_a_pipe_gets_the_body_as_received():
    import termios
    import tty

    primary, secondary = os.openpty()
    tty.setraw(secondary)  # no \r added to each \n: what the program wrote, byte for byte
    assert termios.tcgetattr(secondary)
    arguments = [sys.executable, "-m", "explorer", "get", "--demo", "/orgs"]
    done = subprocess.run(arguments, stdout=secondary, stderr=subprocess.PIPE, timeout=60)
    os.close(secondary)
    on_terminal = read_all(primary)
    os.close(primary)
    piped = subprocess.run(arguments, capture_output=True, timeout=60)

    assert done.returncode == 0 and piped.returncode == 0
    assert not piped.stdout.endswith(b"\n") and piped.stdout.endswith(b"}")
    assert on_terminal == piped.stdout + b"\n"


def test_a_ca_bundle_that_is_not_pem_exits_1_naming_the_file(sandbox, tmp_path):
    bundle = tmp_path / "notes.txt"
    bundle.write_text("not a certificate\n")
    run = sandbox.run("get", "/orgs", "--ca-bundle", str(bundle))
    assert run.code == 1 and run.out == b""
    assert run.err.splitlines() == [
        f"explorer get: The CA bundle {bundle} holds no certificate TLS can use",
        "hint: Name a PEM file of certificates (-----BEGIN CERTIFICATE-----), such as the sandbox's sandbox-ca.pem.",
    ]


def test_a_wrong_private_key_says_to_check_the_key_pair(sandbox):
    keys = {"EXPLORER_CLIENT_ID": "", "EXPLORER_CLIENT_SECRET": "", "EXPLORER_PUBLIC_KEY": DEFAULTS.public_key}
    assert sandbox.run("get", "/orgs", env={**keys, "EXPLORER_PRIVATE_KEY": DEFAULTS.private_key}).code == 0
    run = sandbox.run("get", "/orgs", env={**keys, "EXPLORER_PRIVATE_KEY": "not-the-private-key"})
    assert run.code == 4
    assert run.err.splitlines()[-2:] == [
        "explorer get: 401 Unauthorized · UNAUTHORIZED: You are not authorized for this resource.",
        "hint: The API key was refused: check the public and private key; if the key works elsewhere, it has no "
        "role for this resource. The keys are read from --public-key or EXPLORER_PUBLIC_KEY, EXPLORER_PRIVATE_KEY, "
        "or the profile.",
    ]


def test_a_description_that_cannot_be_used_is_named_and_the_request_goes_on(sandbox):
    missing = sandbox.home / "missing.yaml"
    for run in (
        sandbox.run("get", "/orgs", "--openapi", str(missing)),
        sandbox.run("get", "/orgs", env={"EXPLORER_OPENAPI": str(missing)}),
    ):
        assert run.code == 0
        assert run.json["totalCount"] == 2
        assert run.err == (
            f"explorer get: The API description {missing} cannot be used: there is no such file\n"
            "hint: The explorer goes on without it: links only, and the default version. Give a file or URL of the "
            "service's OpenAPI 3 description (JSON or YAML). Name it with --openapi FILE_OR_URL (EXPLORER_OPENAPI, or "
            "openapi in the profile).\n"
        )


def test_the_demo_names_the_newest_version_unless_one_is_pinned(tmp_path):
    demo = Sandbox(None, "https://unused.invalid", tmp_path)
    clusters = "/groups/687b4c139cc9af4ec9546b43/clusters"
    newest = demo.run("get", "--scenario", "strict-versions", "-i", clusters)
    assert newest.code == 0, newest.err
    assert "content-type: application/vnd.service.2024-08-05+json" in newest.out.decode()
    pinned = demo.run("get", "--scenario", "strict-versions", "--api-version", "2023-01-01", "-i", clusters)
    assert pinned.code == 0, pinned.err
    assert "content-type: application/vnd.service.2023-01-01+json" in pinned.out.decode()
    assert "sunset: Thu, 01 Jul 2027 00:00:00 GMT" in pinned.out.decode()


def test_max_pages_reached_on_a_healthy_list_says_the_limit_and_how_to_raise_it():
    project = demo_project_id()
    run = demo(f"/groups/{project}/events", "--all", "-q", "itemsPerPage=100", "--max-pages", "3")
    assert run.code == 1
    assert "explorer get: The --max-pages limit (3) was reached: the list goes on at " in run.err
    assert "hint: Allow more with --max-pages N (up to 1000000), or read from there with -q pageNum=N." in run.err
    assert "the service's bug" not in run.err


MEND = "hint: Mend it where the line and column say, or move it away to start without it."


@pytest.mark.parametrize(
    "arguments, code",
    [
        (["--demo"], 1),  # the screen, as the commands below say it
        (["get", "--demo", "/orgs"], 1),
        (["get", "--replay", "tests/fixtures/real-responses", "/"], 1),
        (["diff", "--demo", "/orgs", "/groups"], 2),  # diff's code for trouble
        (["post", "--demo", "--writes", "--yes", "/groups", "name=x"], 1),
        (["put", "--demo", "--writes", "--yes", "/groups/x", "name=x"], 1),
        (["patch", "--demo", "--writes", "--yes", "/groups/x", "name=x"], 1),
        (["delete", "--demo", "--writes", "--yes", "/groups/x"], 1),
        (["logout", "--demo"], 1),
    ],
)
def test_a_config_file_that_is_not_toml_stops_every_command_that_connects(tmp_path, arguments, code):
    path = tmp_path / "explorer" / "config.toml"
    path.parent.mkdir()
    path.write_text('theme = "projector"\n[keys\n')
    run = in_process(
        arguments, script_environment({"XDG_CONFIG_HOME": str(tmp_path), "XDG_CACHE_HOME": str(tmp_path / "cache")})
    )
    command = "explorer" + (f" {arguments[0]}" if not arguments[0].startswith("-") else "")
    said = f"The config file {path} is not valid TOML: Expected ']' at the end of a table declaration"
    said += " (at line 2, column 6)"
    assert (run.code, run.out, run.err) == (code, b"", f"{command}: {said}\n{MEND}\n")


LONG = "b" * 300  # longer than a file name may be: Path.exists() raises on it


@pytest.mark.parametrize(
    "arguments, said, code",
    [
        (["get", "--demo", "/orgs", "--har", LONG], f"explorer get: Cannot write the HAR file {LONG}", 1),
        (["get", "--replay", LONG, "/orgs"], f"explorer get: Cannot read {LONG}: File name too long", 1),
        (["diff", "--demo", f"@{LONG}", "/orgs"], f"explorer diff: file {LONG} cannot be read: File name too long", 2),
    ],
)
def test_a_file_name_too_long_is_said_plainly_not_a_crash(tmp_path, arguments, said, code):
    environment = script_environment({"XDG_STATE_HOME": str(tmp_path), "XDG_CACHE_HOME": str(tmp_path / "cache")})
    run = in_process(arguments, environment, cwd=tmp_path)
    assert run.err.startswith(said), run.err
    assert "crash" not in run.err and run.code == code
    assert [path.name for path in tmp_path.iterdir() if path.is_file()] == []  # no temporary file left behind


@pytest.mark.parametrize(
    ("content", "said"),
    [
        ('{"a": 1}', "is not a HAR file: it has no log.entries"),
        ("garbage\x1b[31m", "is not a HAR file (nor the start of one)"),
        (None, "No such file or directory"),
    ],
)
def test_a_recording_that_is_not_one_is_said_in_a_line_by_the_screen_and_get(tmp_path, content, said):
    source = tmp_path / "given.har"
    if content is not None:
        source.write_text(content)
    for command in ([], ["get"]):
        run = in_process([*command, "--replay", str(source), *(["/groups"] if command else [])], script_environment({}))
        assert run.code == 1 and said in run.err and "Traceback" not in run.err, run.err
        assert run.err.count("\n") == 1
