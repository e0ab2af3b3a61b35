"""`explorer sandbox` as a user runs it: a real process, a real port, HTTPS by default."""

from __future__ import annotations

import errno
import json
import os
import re
import shlex
import shutil
import signal
import socket
import ssl
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from explorer.sandbox import Settings
from explorer.sandbox.address import lan_address
from tests.conftest import ROOT, ended
from tests.manual import page
from tests.sandbox.conftest import API
from tests.sandbox.test_cluster_writes import NEW

DEFAULTS = Settings()


@contextmanager
def running(tmp_path: Path, *flags: str) -> Iterator[tuple[str, str, Path]]:
    """Start `explorer sandbox FLAGS`; yield its URL, its banner and its data directory."""
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"), "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen(
        [sys.executable, "-m", "explorer", "sandbox", "--port", "0", *flags],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )
    banner: list[str] = []
    deadline = time.monotonic() + 30
    try:
        assert process.stdout is not None
        while time.monotonic() < deadline:
            line = process.stdout.readline()
            if not line:
                break
            banner.append(line)
            if line.startswith("Press Ctrl+C"):
                break
        text = "".join(banner)
        match = re.search(r"API root\s+(https?://[^/\s]+)", text)
        assert match, text
        yield match.group(1), text, tmp_path / "data" / "explorer"
    finally:
        process.send_signal(signal.SIGINT)
        ended(process)  # the server closes its connections first
        rest = process.stdout.read()  # not communicate(), which would skip what readline() buffered
        assert (process.returncode, rest.splitlines()[-1:]) == (0, ["Sandbox stopped."]), rest  # Ctrl+C: a line
        assert "INFO:" not in rest and "Traceback" not in rest, rest  # no server log (a drill's lesson may come first)


@pytest.mark.subprocess
def test_ctrl_c_stops_it_quietly_with_a_line_and_status_0(tmp_path):
    """What the terminal shows after the banner, a request served in between: no uvicorn INFO line
    (its start, a line a request, its stop), then one line saying it stopped; status 0, as `explorer serve`."""
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"), "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen(
        [sys.executable, "-m", "explorer", "sandbox", "--http", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )
    assert process.stdout is not None
    banner = "".join(iter(process.stdout.readline, "Press Ctrl+C to stop.\n"))
    url = re.search(r"API root\s+(http://[^/\s]+)", banner)
    assert url, banner
    assert httpx.get(url.group(1) + API).status_code == 401  # served while it runs
    process.send_signal(signal.SIGINT)
    ended(process)
    assert (process.returncode, process.stdout.read()) == (0, "\nSandbox stopped.\n")
    assert "INFO" not in banner


@pytest.mark.subprocess
def test_help_documents_every_flag_and_its_default():
    result = subprocess.run([sys.executable, "-m", "explorer", "sandbox", "--help"], capture_output=True, text=True)
    out = " ".join(result.stdout.split())
    assert result.returncode == 0
    for flag in [
        "--host",
        "--port",
        "--http",
        "--client-id",
        "--client-secret",
        "--public-key",
        "--private-key",
        "--token-ttl",
        "--rate-limit",
        "--token-rate-limit",
        "--access-list",
        "--seed",
        "--operation-seconds",
        "--control",
        "--latency",
        "--unavailable",
        "--token-error",
    ]:
        assert flag in out, flag
    for default in ["127.0.0.1", "3600", "100", "(default: 10)", "(default: 20)", DEFAULTS.client_id]:
        assert default in out, default


@pytest.mark.subprocess
def test_plain_http_prints_the_credentials_and_tokens_expire(tmp_path):
    flags = ("--http", "--token-ttl", "1", "--client-secret", "class-secret-42", "--control")
    with running(tmp_path, *flags) as (url, banner, _):
        assert url.startswith("http://127.0.0.1:")
        assert "class-secret-42" in banner and DEFAULTS.private_key in banner  # a sandbox prints its secrets
        token = httpx.post(
            f"{url}/api/oauth/token",
            auth=(DEFAULTS.client_id, "class-secret-42"),
            data={"grant_type": "client_credentials"},
        ).json()
        assert token["expires_in"] == 1
        headers = {"Authorization": f"Bearer {token['access_token']}"}
        assert httpx.get(url + API, headers=headers).status_code == 200
        # The token's second is not waited out: the control endpoint ends every token now, as time would.
        assert httpx.post(f"{url}/_sandbox/expire-tokens").json()["liveTokens"] == 0
        expired = httpx.get(url + API, headers=headers)
        assert expired.status_code == 401 and expired.json()["errorCode"] == "EXPIRED_ACCESS_TOKEN"


@pytest.mark.subprocess
def test_https_by_default_from_a_local_authority_kept_private(tmp_path):
    with running(tmp_path) as (url, banner, data):
        ca = data / "sandbox-ca.pem"
        assert url.startswith("https://127.0.0.1:")
        assert str(ca) in banner
        trusted = ssl.create_default_context(cafile=str(ca))
        auth = httpx.DigestAuth(DEFAULTS.public_key, DEFAULTS.private_key)
        assert httpx.get(url + API, auth=auth, verify=trusted).status_code == 200
        assert httpx.get(url.replace("127.0.0.1", "localhost") + API, auth=auth, verify=trusted).status_code == 200
        with pytest.raises(httpx.ConnectError):
            httpx.get(url + API, auth=auth)  # not trusted without the authority
        first_authority = ca.read_bytes()
    for key in ("sandbox-ca-key.pem", "sandbox-server-key.pem"):
        assert stat.S_IMODE((data / key).stat().st_mode) == 0o600
    assert stat.S_IMODE(data.stat().st_mode) == 0o700
    with running(tmp_path) as (_, _, data):
        assert (data / "sandbox-ca.pem").read_bytes() == first_authority  # trusted once, reused


@pytest.mark.subprocess
def test_the_access_list_flag_refuses_loopback_when_it_is_not_listed(tmp_path):
    with running(tmp_path, "--http", "--access-list", "10.0.0.0/8", "--access-list", "192.0.2.1") as (url, banner, _):
        assert "access list: 10.0.0.0/8, 192.0.2.1/32" in banner
        response = httpx.post(
            f"{url}/api/oauth/token",
            auth=(DEFAULTS.client_id, DEFAULTS.client_secret),
            data={"grant_type": "client_credentials"},
        )
        assert response.status_code == 403
        assert response.json()["error"] == "access_denied"


@pytest.mark.subprocess
@pytest.mark.parametrize(
    "flags, message",
    [
        (["--access-list", "10.0.0.0/33"], "is not an IP address or CIDR block"),
        (["--token-ttl", "0"], "must be at least 1"),
        (["--rate-limit", "many"], "is not a whole number"),
        (["--port", "70000"], "is not a port number"),
        (["--client-id", "has:colon"], "must not contain ':'"),
        (["--token-error", "teapot"], "invalid choice"),
        (["--operation-seconds", "-1"], "argument --operation-seconds: '-1' must be at least 0"),
        (["--operation-seconds", "soon"], "argument --operation-seconds: 'soon' is not a whole number"),
    ],
)
def test_bad_flags_get_a_clear_message_and_no_traceback(flags, message):
    result = subprocess.run(
        [sys.executable, "-m", "explorer", "sandbox", *flags], capture_output=True, text=True, timeout=30
    )
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr + result.stdout


@pytest.mark.subprocess
def test_clusters_move_by_operation_seconds_and_the_stuck_one_does_not(tmp_path):
    flags = ("--http", "--operation-seconds", "0", "--scenario", "stuck-operation")
    with running(tmp_path, *flags) as (url, banner, _):
        assert "Clusters: CREATING, UPDATING or DELETING until the next request (--operation-seconds)" in banner
        auth = httpx.DigestAuth(DEFAULTS.public_key, DEFAULTS.private_key)
        staging = next(
            p["id"] for p in httpx.get(url + API + "/groups", auth=auth).json()["results"] if p["name"] == "staging"
        )
        clusters = f"{url}{API}/groups/{staging}/clusters"
        body = {**NEW, "name": "moves"}
        assert httpx.post(clusters, json=body, auth=auth).json()["stateName"] == "CREATING"
        assert httpx.get(clusters + "/moves", auth=auth).json()["stateName"] == "IDLE"  # the next request: done
        assert httpx.get(clusters + "/orders-reporting", auth=auth).json()["stateName"] == "CREATING"


@pytest.mark.subprocess
def test_the_banner_says_how_long_operations_last_by_default(tmp_path):
    with running(tmp_path, "--http") as (_, banner, _):
        assert "Clusters: CREATING, UPDATING or DELETING for 20 s (--operation-seconds), then IDLE or gone." in banner


@pytest.mark.subprocess
def test_a_port_in_use_gets_a_clear_message():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        result = subprocess.run(
            [sys.executable, "-m", "explorer", "sandbox", "--http", "--port", port],
            capture_output=True,
            text=True,
            timeout=30,
        )
    assert result.returncode == 1
    assert result.stderr.splitlines()[-1] == (
        f"explorer sandbox: cannot listen on 127.0.0.1:{port}: the port is in use already. "
        "Choose another port with --port (0 picks a free one)."
    )


@pytest.mark.subprocess
def test_a_host_that_is_not_known_is_blamed_not_the_port():
    result = subprocess.run(
        [sys.executable, "-m", "explorer", "sandbox", "--http", "--host", "999.1.1.1", "--port", "0"],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert (result.returncode, result.stderr.splitlines()) == (
        1,
        [
            "explorer sandbox: cannot listen on 999.1.1.1:0: no host is known by the name 999.1.1.1. "
            "Check --host (such as 127.0.0.1, or 0.0.0.0 for all)."
        ],
    )


def test_a_port_it_may_not_take_asks_for_one_above_1023():
    from explorer.sandbox.server import cannot_listen

    said = cannot_listen(PermissionError(errno.EACCES, "Permission denied"), "127.0.0.1", 443)
    assert said == "cannot listen on 127.0.0.1:443: permission denied. Choose a port above 1023 with --port."


@pytest.mark.subprocess
def test_the_help_lists_the_commands():
    result = subprocess.run([sys.executable, "-m", "explorer", "--help"], capture_output=True, text=True)
    assert result.returncode == 0
    assert "sandbox" in result.stdout and "Without a command: the explorer screen" in " ".join(result.stdout.split())


def get_orgs(flags: list[str], home: Path, secret: dict[str, str]) -> subprocess.CompletedProcess[bytes]:
    """`explorer get FLAGS /orgs` as another machine runs it: in `home`, with only `secret` of the
    explorer's variables (none of this one's EXPLORER_ or XDG_ settings)."""
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("EXPLORER_", "XDG_"))}
    return subprocess.run(
        [sys.executable, "-m", "explorer", "get", *flags, "/orgs"],
        cwd=home,
        env={**environment, "HOME": str(home), "PYTHONPATH": str(ROOT), **secret},
        capture_output=True,
        timeout=60,
    )


def section(banner: str, heading: str) -> str:
    """The banner's paragraph that begins with `heading`."""
    return banner[banner.index(heading) :].split("\n\n")[0]


def command_after(banner: str, heading: str) -> list[str]:
    """The banner's command after `heading` and its colon, as a shell splits it (a line continued
    with \\ joined)."""
    return shlex.split(section(banner, heading).split(":", 1)[1].replace("\\\n", " "))


def students_command(banner: str) -> list[str]:
    return command_after(banner, "then, where they saved it:")


@pytest.mark.subprocess
def test_on_every_address_a_class_is_given_the_network_address_and_a_command_that_connects(tmp_path):
    address = lan_address("0.0.0.0")
    with running(tmp_path, "--host", "0.0.0.0") as (url, banner, data):
        assert url.startswith(f"https://{address}:")  # not 127.0.0.1, which is each student's own machine
        assert "Students: give them a copy of sandbox-ca.pem" in banner
        variable, program, *flags = students_command(banner)
        assert (variable, program) == (f"EXPLORER_CLIENT_SECRET={DEFAULTS.client_secret}", "explorer")
        assert flags == ["--ca-bundle", "sandbox-ca.pem", "--base-url", url + API, "--client-id", DEFAULTS.client_id]
        name, value = variable.split("=", 1)
        student = tmp_path / "student"  # another machine: its own folder, the copy of the CA in it, nothing else
        student.mkdir()
        shutil.copy(data / "sandbox-ca.pem", student)
        done = get_orgs(flags, student, {name: value})
        assert (done.returncode, done.stderr) == (0, b"")
        assert json.loads(done.stdout)["results"][0]["name"]


def test_the_students_command_is_given_only_where_students_can_use_it():
    from explorer.sandbox.command import banner

    ca = Path("/data/sandbox-ca.pem")
    assert "Students:" not in banner(DEFAULTS, "https://127.0.0.1:8443", ca, "127.0.0.1")  # this machine only
    plain = banner(DEFAULTS, "http://192.0.2.7:8080", None, "0.0.0.0")  # the explorer refuses http:// there
    assert "Students:" not in plain and "Warning: plain HTTP on a network address" in plain
    drill = banner(DEFAULTS, "https://192.0.2.7:8443", ca, "0.0.0.0", scenario="bad-credentials")
    assert students_command(drill)[0] == "EXPLORER_CLIENT_SECRET=mdb_sa_sk_not-the-secret"  # the drill is in it


def open_command(banner: str) -> list[str]:
    return command_after(banner, "Open the explorer on it")


@pytest.mark.subprocess
def test_the_banner_gives_the_command_that_opens_the_explorer_on_it(tmp_path):
    with running(tmp_path) as (url, banner, data):
        variable, program, *flags = open_command(banner)
        assert (variable, program) == (f"EXPLORER_CLIENT_SECRET={DEFAULTS.client_secret}", "explorer")
        ca = str(data / "sandbox-ca.pem")
        assert flags == ["--base-url", url + API, "--client-id", DEFAULTS.client_id, "--ca-bundle", ca]
        name, value = variable.split("=", 1)
        done = get_orgs(flags, tmp_path, {name: value})
        assert (done.returncode, done.stderr) == (0, b"")  # the same flags work for `explorer get`
        assert json.loads(done.stdout)["results"][0]["name"]


def test_the_open_command_leaves_out_a_secret_given_on_the_command_line():
    from explorer.sandbox.command import banner

    mine = Settings(client_secret="s3cr3t-of-mine")
    text = banner(mine, "http://127.0.0.1:8080", None, "127.0.0.1")
    command = section(text, "Open the explorer on it")
    assert command == (
        "Open the explorer on it, with the client secret above in EXPLORER_CLIENT_SECRET:\n"
        "  explorer --base-url http://127.0.0.1:8080/api/service/v1.0 \\\n"
        "       --client-id mdb_sa_id_sandbox"
    )
    assert "Open the explorer" not in banner(DEFAULTS, "http://192.0.2.7:8080", None, "0.0.0.0")  # refused


def test_the_docs_show_the_open_command_as_the_banner_prints_it():
    from explorer.sandbox.command import banner

    ca = Path("/home/me/.local/share/explorer/sandbox-ca.pem")
    text = banner(DEFAULTS, "https://127.0.0.1:8443", ca, "127.0.0.1")
    block = section(text, "Open the explorer on it:")
    assert f"```text\n{block}\n```" in page("sandbox.md")
