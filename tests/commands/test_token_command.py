"""`explorer token`: the token a copied curl's `$TOKEN` stands for, on stdout and nowhere else; at a
terminal only with --show; none for API keys, the demo or a replay, each said so, nothing asked."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import httpx
import pytest

from tests.commands.conftest import DEFAULTS, read_until

TOKEN_PATH = "/api/oauth/token"


def token_requests(sandbox) -> int:
    return sum(1 for received in sandbox.noting.received if received.path == TOKEN_PATH)


def test_it_prints_a_token_curl_can_use_to_stdout_alone_and_explorer_get_shares_it(sandbox):
    run = sandbox.run("token")
    assert (run.code, run.err) == (0, "")
    token = run.out.decode().removesuffix("\n")
    assert run.out == f"{token}\n".encode() and token  # one line, for TOKEN=$(explorer token)
    answered = httpx.get(sandbox.api + "/groups", headers={"Authorization": f"Bearer {token}"})
    assert answered.status_code == 200
    assert sandbox.run("token").out == run.out  # the kept one, not a token a run
    assert sandbox.run("get", "/groups").code == 0  # explorer get uses the same
    assert token_requests(sandbox) == 1
    assert sandbox.live_tokens() == 1  # not revoked as the command ends: it is curl's now
    logout = sandbox.run("logout")
    assert logout.code == 0 and sandbox.live_tokens() == 0  # explorer logout revokes it


def test_a_token_the_endpoint_refuses_says_why_on_stderr_and_prints_nothing(sandbox):
    run = sandbox.run("token", env={"EXPLORER_CLIENT_SECRET": "not-the-secret"})
    assert (run.code, run.out) == (4, b"")
    assert run.err.splitlines()[-2:] == [
        "explorer token: 401 Unauthorized · invalid_client: Invalid credentials provided.",
        "hint: Check the client ID and secret. They are read from --client-id or EXPLORER_CLIENT_ID, "
        "EXPLORER_CLIENT_SECRET, or the profile.",
    ]


def test_api_keys_have_no_token_and_it_says_how_curl_sends_them(sandbox):
    keys = {"EXPLORER_PUBLIC_KEY": DEFAULTS.public_key, "EXPLORER_PRIVATE_KEY": DEFAULTS.private_key}
    run = sandbox.run("token", env={"EXPLORER_CLIENT_ID": "", "EXPLORER_CLIENT_SECRET": "", **keys})
    assert (run.code, run.out) == (1, b"")
    assert run.err.splitlines() == [
        "explorer token: API keys use no token: curl answers the service's Digest challenge itself, with both keys",
        'hint: A copied curl says them as --digest -u "$PUBLIC_KEY:$PRIVATE_KEY": set '
        f"PUBLIC_KEY={DEFAULTS.public_key} and PRIVATE_KEY from the environment (PRIVATE_KEY=$EXPLORER_PRIVATE_KEY), "
        "never the key itself on a command line (a shell's history keeps it).",
    ]
    assert DEFAULTS.private_key not in run.err
    assert sandbox.noting.received == []


def test_the_demo_has_no_token_that_works_outside_the_explorer_and_nothing_is_asked(sandbox):
    run = sandbox.run("token", "--demo")
    assert (run.code, run.out) == (1, b"")
    assert run.err.splitlines() == [
        "explorer token: the demo's sandbox runs inside the explorer, where curl cannot reach it: its tokens work "
        "nowhere else",
        "hint: Nothing was asked of the token endpoint. explorer sandbox serves one on the network; its banner names "
        "the --base-url and --client-id that explorer token takes.",
    ]


@pytest.mark.subprocess
def test_at_a_terminal_it_prints_no_token_unless_asked_with_show(sandbox):
    """A terminal may be projected: the token goes there only with --show, and is asked for only then."""
    environment = sandbox.environment()

    def at_terminal(*arguments: str) -> tuple[int, str, str]:
        primary, secondary = os.openpty()
        process = subprocess.Popen(
            [sys.executable, "-m", "explorer", "token", *arguments],
            stdin=subprocess.DEVNULL,
            stdout=secondary,
            stderr=subprocess.PIPE,
            env=environment,
        )
        os.close(secondary)
        try:
            shown = read_until(primary, b"", deadline=time.monotonic() + 60)
            _, err = process.communicate(timeout=60)
        finally:
            process.kill()
            os.close(primary)
        return process.returncode, shown.decode(), err.decode()

    code, shown, err = at_terminal()
    assert (code, shown) == (2, "")
    assert err.splitlines() == [
        "explorer token: stdout is a terminal: the token is not shown there (a screen may be shared, projected or "
        "recorded)",
        "hint: Nothing was asked of the token endpoint. Capture it: TOKEN=$(explorer token); or add --show to print "
        "it here.",
    ]
    assert token_requests(sandbox) == 0
    code, shown, err = at_terminal("--show")
    assert (code, err) == (0, "")
    token = shown.strip()
    answered = httpx.get(sandbox.api + "/groups", headers={"Authorization": f"Bearer {token}"})
    assert answered.status_code == 200
    assert token_requests(sandbox) == 1
