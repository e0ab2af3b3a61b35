"""The library's usage example (explorer.api's docstring) runs as written, against the sandbox over a
real socket; and ServiceAccountAuth refuses a synchronous client instead of sending no credentials."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import httpx
import pytest

import explorer.api
from explorer.api.auth import ServiceAccountAuth
from explorer.api.ratelimit import RateLimits
from explorer.api.secret import Secret
from explorer.sandbox import Settings, create_app
from explorer.sandbox.server import ServerThread
from tests.conftest import ROOT
from tests.manual import page


def profile_in(home: Path, base_url: str, client_id: str, secret: str) -> dict[str, str]:
    """The environment of a run whose config file, in `home`, has one profile: the default."""
    path = home / "config" / "explorer" / "config.toml"
    path.parent.mkdir(parents=True)
    path.write_text(
        f'default_profile = "lab"\n\n[profiles.lab]\nbase_url = "{base_url}"\nclient_id = "{client_id}"\n'
        f'client_secret = "{secret}"\n'
    )
    path.chmod(0o600)  # a secret in plain text: the file must be private
    return {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / "config"), "XDG_CACHE_HOME": str(home / "k")}


def example() -> str:
    """The indented block of explorer.api's docstring."""
    doc = explorer.api.__doc__ or ""
    block = doc.split("\n\n    ", 1)[1]
    return textwrap.dedent("    " + block)


@pytest.mark.subprocess
def test_the_usage_example_prints_the_projects(tmp_path):
    settings = Settings()
    world = create_app(settings).state.sandbox.world
    with ServerThread(create_app(settings)) as server:
        environ = profile_in(tmp_path, server.url + "/api/service/v1.0", settings.client_id, settings.client_secret)
        ran = subprocess.run(
            [sys.executable, "-c", example()], capture_output=True, text=True, env=environ, cwd=ROOT, timeout=60
        )
    assert ran.returncode == 0, ran.stderr
    granted = sorted(project.fields["name"] for project in world.projects.values() if project.authorized)
    assert "production" in granted
    assert sorted(ran.stdout.splitlines()) == granted  # every project the credentials see, one a line


@pytest.mark.subprocess
def test_the_usage_example_says_an_error_in_one_line(tmp_path):
    environ = profile_in(tmp_path, "http://127.0.0.1:9/api/service/v1.0", "c", "s")
    ran = subprocess.run([sys.executable, "-c", example()], capture_output=True, text=True, env=environ, timeout=60)
    assert (ran.returncode, ran.stderr) == (0, "")
    assert ran.stdout.startswith("Connection refused by 127.0.0.1:9"), ran.stdout


def test_a_service_account_refuses_a_synchronous_client():
    auth = ServiceAccountAuth(
        httpx.URL("https://api.example.com/api/service/v1.0"), "c", Secret("s"), limits=RateLimits(10, 10)
    )
    sent: list[httpx.Request] = []
    with (
        httpx.Client(
            auth=auth, transport=httpx.MockTransport(lambda r: sent.append(r) or httpx.Response(200))
        ) as client,
        pytest.raises(TypeError, match="works with httpx.AsyncClient only"),
    ):
        client.get("https://api.example.com/api/service/v1.0/groups")
    assert sent == []  # nothing went out, with or without credentials


def test_the_docs_show_the_same_example():
    shown = page("library.md").split("```python\n", 1)[1].split("```", 1)[0]
    assert shown == example()
