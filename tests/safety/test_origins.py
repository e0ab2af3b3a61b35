"""A secret goes only to its own origin, and `writes = false` holds, whichever way the command line comes in.

Two recording servers: `server`, the origin a profile names, and `other`, another origin the base URL is
turned to by the flag or the environment. What counts is what arrived at each: a profile's secret never
arrives at `other`, and no write arrives anywhere without consent. Each run is `explorer …` in this process
(tests/commands/conftest.py), its config file in a folder of the test's own, private (0600). The login form's
ways in (its credentials, a profile it saves) are the screen's: tests/tui/test_login_safety.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.commands.conftest import Run, in_process, script_environment
from tests.safety.memory_keyring import use_memory_keyring
from tests.safety.recording_server import RecordingServer

LAB_SECRET = "lab-secret-0f3a"


def configured(tmp_path: Path, text: str) -> dict[str, str]:
    """The config file holds `text` (mode 0600); the environment a script gives `explorer`, reading it."""
    folder = tmp_path / "config" / "explorer"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "config.toml").write_text(text)
    (folder / "config.toml").chmod(0o600)
    return script_environment({"XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_CACHE_HOME": str(tmp_path / "cache")})


def lab(server: RecordingServer, secret: str = f'"{LAB_SECRET}"', writes: str = "true") -> str:
    """The default profile `lab`, on `server`'s origin: its own client ID and secret, and writes as given."""
    return (
        f'default_profile = "lab"\n\n[profiles.lab]\nbase_url = "{server.url}"\nclient_id = "lab-client"\n'
        f"client_secret = {secret}\nwrites = {writes}\n"
    )


def explorer(arguments: list[str], environment: dict[str, str], **extra: str) -> Run:
    return in_process(arguments, {**environment, **extra})


def nothing_arrived(*servers: RecordingServer) -> bool:
    return all(each.arrivals == [] for each in servers)


@pytest.mark.parametrize("how", ["--base-url", "EXPLORER_BASE_URL"])
def test_a_profile_s_secret_and_writes_do_not_follow_a_base_url_to_another_origin(tmp_path, server, other, how):
    """The issue's second: lab (writes = true) and EXPLORER_BASE_URL=<other> sent lab's secret to the other
    origin's token endpoint, then the DELETE, without --writes. Now: stopped, both origins named, nothing sent."""
    environment = configured(tmp_path, lab(server))
    flag, variables = (["--base-url", other.url], {}) if how == "--base-url" else ([], {"EXPLORER_BASE_URL": other.url})
    run = explorer(["delete", "/groups/x", "--yes", *flag], environment, **variables)
    assert run.code == 1
    assert run.err.splitlines()[0] == (
        f"explorer delete: The profile 'lab' is for {server.origin}, not {other.origin}: its credentials go only "
        f"to {server.origin}"
    )
    assert other.secrets_seen() == set() and nothing_arrived(server, other)
    assert LAB_SECRET not in run.err


@pytest.mark.parametrize("reference", ["env", "file", "keyring"])
def test_a_secret_named_by_reference_goes_only_to_its_profile_s_origin(tmp_path, server, other, reference):
    variables = {}
    if reference == "env":
        secret, variables = '{ env = "LAB_SECRET" }', {"LAB_SECRET": LAB_SECRET}
    elif reference == "file":
        (tmp_path / "lab-secret").write_text(LAB_SECRET)
        (tmp_path / "lab-secret").chmod(0o600)
        secret = f'{{ file = "{tmp_path / "lab-secret"}" }}'
    else:
        use_memory_keyring().set_password("explorer", "lab-client@lab", LAB_SECRET)
        secret = '{ keyring = "lab-client@lab" }'
    environment = configured(tmp_path, lab(server, secret))
    elsewhere = explorer(["get", "/"], environment, EXPLORER_BASE_URL=other.url, **variables)
    assert elsewhere.code == 1 and f"not {other.origin}" in elsewhere.err
    assert other.secrets_seen() == set() and nothing_arrived(other, server)
    at_home = explorer(["get", "/"], environment, **variables)  # the reference works: at its own origin
    assert at_home.code == 0, at_home.err
    assert server.secrets_seen() == {LAB_SECRET} and other.arrivals == []


@pytest.mark.parametrize("client_id", ["flag", "environment"])
def test_the_environment_s_own_secret_goes_to_the_base_url_it_is_given_with_and_nothing_of_the_profile(
    tmp_path, server, other, client_id
):
    """EXPLORER_CLIENT_SECRET with an explicit base URL: the environment's own credentials, used there. Lab's
    writes = true does not come along: a DELETE without --writes is not sent."""
    environment = configured(tmp_path, lab(server))
    environment |= {"EXPLORER_BASE_URL": other.url, "EXPLORER_CLIENT_SECRET": "env-secret"}
    who = ["--client-id", "own-client"] if client_id == "flag" else []
    if client_id == "environment":
        environment["EXPLORER_CLIENT_ID"] = "own-client"
    read = explorer(["get", "/", *who], environment)
    assert read.code == 0, read.err
    assert other.secrets_seen() == {"env-secret"}
    assert {arrival.basic_pair for arrival in other.arrivals_of("POST", "/api/oauth/token")} == {
        ("own-client", "env-secret")
    }
    deleted = explorer(["delete", "/groups/x", "--yes", *who], environment)
    assert deleted.code == 2
    assert "this session is read-only (the default)" in deleted.err
    assert other.arrivals_of("DELETE") == [] and server.arrivals == []


def test_a_client_id_from_the_flag_does_not_borrow_the_profile_s_secret_for_another_origin(tmp_path, server, other):
    environment = configured(tmp_path, lab(server))
    run = explorer(["get", "/", "--base-url", other.url, "--client-id", "lab-client"], environment)
    assert run.code == 1 and f"The profile 'lab' is for {server.origin}, not {other.origin}" in run.err
    assert other.secrets_seen() == set() and nothing_arrived(server, other)


PROD = '[profiles.prod]\nbase_url = "{url}"\nclient_id = "prod-client"\nclient_secret = {{ env = "PROD_SECRET" }}\n'


@pytest.mark.parametrize("asked", ["--writes", "EXPLORER_WRITES=1"])
def test_writes_false_holds_when_the_profile_s_secret_is_missing_and_the_login_form_would_open(tmp_path, server, asked):
    """The issue's first: prod (writes = false) whose secret variable is not set, `explorer --profile prod
    --writes` opened the login form; the secret typed there made a session that wrote. Now refused at the start,
    as it is with the secret at hand. (`in_process` fails a run that starts the screen.)"""
    text = 'default_profile = "prod"\n\n' + PROD.format(url=server.url) + "writes = false\n"
    environment = configured(tmp_path, text)
    arguments, variables = (
        (["--profile", "prod", "--writes"], {}) if asked == "--writes" else ([], {"EXPLORER_WRITES": "1"})
    )
    run = explorer(arguments, environment, **variables)
    how = "--writes" if asked == "--writes" else "EXPLORER_WRITES=1"
    assert (run.code, run.out) == (1, b"")
    assert run.err.splitlines() == [
        f"explorer: Writes are off for the profile 'prod' (writes = false): {how} is refused",
        "hint: The profile 'prod' is read-only on purpose. To write, use another profile, or change writes = false "
        f"in {tmp_path / 'config' / 'explorer' / 'config.toml'}.",
    ]
    assert server.arrivals == []


def test_an_origin_a_profile_says_writes_false_of_stays_read_only_for_the_environment_s_credentials(
    tmp_path, server, other
):
    """The default profile is lab, on another origin; prod names `server` with writes = false. The environment's
    own credentials for `server`, and --writes: refused, for the origin is read-only on purpose."""
    text = lab(other) + "\n" + PROD.format(url=server.url) + "writes = false\n"
    environment = configured(tmp_path, text)
    environment |= {"EXPLORER_BASE_URL": server.url, "EXPLORER_CLIENT_ID": "admin", "EXPLORER_CLIENT_SECRET": "admin"}
    run = explorer(["delete", "/groups/x", "--writes", "--yes"], environment)
    assert run.code == 2
    assert run.err.splitlines()[0] == (
        f"explorer delete: Writes are off for {server.origin}: the profile 'prod' names it with writes = false, "
        "so --writes is refused"
    )
    assert nothing_arrived(server, other)


@pytest.mark.parametrize("alias", ["localhost", "LOCALHOST"])
def test_another_name_for_a_read_only_origin_is_read_only_too(tmp_path, server, alias):
    """prod names 127.0.0.1 with writes = false; the same server as `localhost` (or a host with a trailing
    dot) was another origin to the guard, and the DELETE arrived. Now every name of the machine is one."""
    environment = configured(tmp_path, PROD.format(url=server.url) + "writes = false\n")
    elsewhere = server.url.replace("127.0.0.1", alias)
    environment |= {"EXPLORER_BASE_URL": elsewhere, "EXPLORER_CLIENT_ID": "admin", "EXPLORER_CLIENT_SECRET": "admin"}
    run = explorer(["delete", "/groups/x", "--writes", "--yes"], environment)
    assert run.code == 2
    assert "the profile 'prod' names it with writes = false, so --writes is refused" in run.err.splitlines()[0]
    assert server.arrivals == []


def test_a_loopback_base_url_never_goes_through_the_environment_s_proxy(tmp_path, server, other):
    """Plain http is allowed to this machine alone; through a proxy the environment names, the token request
    (the secret, in Basic) went to the proxy in clear. Now a loopback service is reached directly."""
    environment = configured(tmp_path, "")
    environment |= {
        "EXPLORER_BASE_URL": server.url,
        "EXPLORER_CLIENT_ID": "admin",
        "EXPLORER_CLIENT_SECRET": LAB_SECRET,
    }
    run = explorer(["get", "/", "--no-token-cache"], environment, http_proxy=other.origin, HTTP_PROXY=other.origin)
    assert run.code == 0, run.err
    assert other.arrivals == []
    assert server.secrets_seen() == {LAB_SECRET}


@pytest.mark.parametrize("how", ["--client-id", "EXPLORER_CLIENT_ID"])
def test_a_profile_s_writes_true_is_not_lent_to_another_account_on_its_origin(tmp_path, server, how):
    """lab (writes = true, the default) and prod (writes = false) share one origin, as on a SaaS service.
    prod's account from the environment went out under lab's writes = true: the DELETE arrived, without
    --writes. A profile's writes = true is for its own credentials; prod's writes = false holds for prod's."""
    text = lab(server, '{ env = "UNSET_LAB_SECRET" }') + "\n" + PROD.format(url=server.url) + "writes = false\n"
    environment = configured(tmp_path, text) | {"EXPLORER_CLIENT_SECRET": "prod-secret"}
    flag, variables = (
        (["--client-id", "prod-client"], {}) if how == "--client-id" else ([], {"EXPLORER_CLIENT_ID": "prod-client"})
    )
    run = explorer(["delete", "/groups/x", "--yes", *flag], environment, **variables)
    assert run.code == 2
    assert "read-only" in run.err.splitlines()[0]
    assert server.arrivals_of("DELETE") == []
    asked = explorer(["delete", "/groups/x", "--yes", "--writes", *flag], environment, **variables)
    assert asked.code == 2
    assert "the profile 'prod' names it with writes = false, so --writes is refused" in asked.err.splitlines()[0]
    assert server.arrivals_of("DELETE") == []


def test_the_login_form_s_credentials_meet_every_read_only_profile_of_their_origin(tmp_path, server):
    """With lab (writes = true) chosen, credentials typed in the form for the origin prod (writes = false)
    shares went out with --writes on. The form takes no profile's writes = true, and meets every false."""
    from explorer.api.config import Credentials, form_origin
    from explorer.api.secret import Secret

    text = lab(server) + "\n" + PROD.format(url=server.url) + "writes = false\n"
    configured(tmp_path, text)
    typed = Credentials(server.url, client_id="prod-client", client_secret=Secret("prod-secret"))
    checked = form_origin(typed, environ={}, path=tmp_path / "config" / "explorer" / "config.toml")
    assert (checked.writes, checked.writes_from) == (False, "prod")


@pytest.mark.parametrize("variable", ["EXPLORER_CLIENT_SECRET", "EXPLORER_CLIENT_ID"])
def test_credentials_that_are_not_utf8_are_said_never_sent_nor_shown(tmp_path, server, variable):
    """A secret or a client ID of bytes that are not UTF-8 ended in "unexpected UnicodeEncodeError … (a bug)"."""
    environment = configured(tmp_path, "") | {
        "EXPLORER_BASE_URL": server.url, "EXPLORER_CLIENT_ID": "admin", "EXPLORER_CLIENT_SECRET": "admin-secret",
    }  # fmt: skip
    environment[variable] = "caf\udce9-value"
    run = explorer(["get", "/"], environment)
    assert run.code == 1
    assert run.err.splitlines()[0] == (
        f"explorer get: {variable} (or the flag or profile field that gives it) is not UTF-8 text"
    )
    assert "caf" not in run.err and "a bug" not in run.err
    assert server.arrivals == []
