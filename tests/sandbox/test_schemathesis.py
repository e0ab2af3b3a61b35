"""The sandbox against its own API description, by Schemathesis: every check, zero failures.

Schemathesis, the field's tool for testing an API against its description, reads the sandbox's
/openapi.json and sends what it allows (and what it does not) over a real socket: the examples,
the edges of each schema (coverage), generated requests (fuzzing), and sequences that follow the
links it infers between operations (stateful). Every check is on but two, for the token endpoints
alone, where the spec decides against them (schemathesis.toml says why).

The suite's run is small and seeded, to fit the suite's time and to fail the same way twice; the
deeper run by hand is in docs/sandbox.md (100 examples an operation, a seed of its own).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from explorer.sandbox.settings import Settings
from tests.sandbox.test_command import running

CONFIG = Path(__file__).with_name("schemathesis.toml")
EXAMPLES = 10  # generated requests an operation, in the fuzzing phase; the coverage phase makes its own
SEED = 42
# Rate limits out of the way: thousands of requests in a minute would meet the spec's 100.
UNLIMITED = ("--http", "--rate-limit", "1000000", "--token-rate-limit", "1000000")


def token_for(url: str, settings: Settings) -> str:
    answer = httpx.post(
        f"{url}/api/oauth/token",
        auth=(settings.client_id, settings.client_secret),
        data={"grant_type": "client_credentials"},
    )
    answer.raise_for_status()
    return str(answer.json()["access_token"])


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_the_sandbox_answers_as_its_description_says(tmp_path):
    settings = Settings()
    with running(tmp_path, *UNLIMITED) as (url, _, _):
        env = {
            **os.environ,
            "SANDBOX_TOKEN": token_for(url, settings),
            "SANDBOX_CLIENT_ID": settings.client_id,
            "SANDBOX_CLIENT_SECRET": settings.client_secret,
        }
        command = [
            *(sys.executable, "-m", "schemathesis.cli", "--no-color", "--config-file", str(CONFIG), "run"),
            f"{url}/openapi.json",
            *("--phases", "examples,coverage,fuzzing,stateful"),
            *("--max-examples", str(EXAMPLES), "--seed", str(SEED)),
            *("--generation-database", "none"),
        ]
        run = subprocess.run(command, capture_output=True, text=True, env=env, cwd=tmp_path, timeout=540)
    report = run.stdout + run.stderr
    assert run.returncode == 0, report[-12_000:]
    assert "passed" in report and " failed" not in report, report[-12_000:]
