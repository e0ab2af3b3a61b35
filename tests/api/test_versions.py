"""Versioned requests: the media type an API root asks for, the version flags, -H, and the 406 and
deprecation a versioned service answers, over a real socket against a stand-in for the real service."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from explorer.api.config import Credentials
from explorer.api.errors import ConfigError
from explorer.api.headers import header_pair
from explorer.api.versions import accept_for, day_of, deprecation, served_version, vendor_of
from explorer.display.variables import VARIABLES
from explorer.sandbox.server import ServerThread
from tests.conftest import REAL_RESPONSES, ROOT
from tests.versioned_service import Request, VersionedService


def test_the_media_type_follows_the_api_root():
    assert vendor_of("/api/atlas/v2") == vendor_of("/api/atlas/v2/groups") == "atlas"
    assert vendor_of("/api/service/v1.0") is None and vendor_of("/api/atlas/v20") is None
    assert accept_for(vendor_of("/api/atlas/v2"), None) == "application/vnd.atlas.2023-01-01+json"
    assert accept_for(vendor_of("/api/atlas/v2"), "2024-08-05") == "application/vnd.atlas.2024-08-05+json"
    assert accept_for(vendor_of("/api/service/v1.0"), "2024-08-05") == "application/json"  # the spec's root


def test_an_answer_says_its_version_and_its_sunset():
    assert served_version("application/vnd.atlas.2024-11-13+json;charset=utf-8") == "2024-11-13"
    assert served_version("application/json") is None
    headers = {"content-type": "application/vnd.atlas.2023-01-01+json", "deprecation": "5 Aug 2024"}
    assert deprecation(headers | {"sunset": "1 Jul 2027"}) == "version 2023-01-01 is deprecated; sunset 2027-07-01"
    assert deprecation(headers) == "version 2023-01-01 is deprecated"
    assert deprecation({"content-type": "application/json"}) is None
    assert day_of("Thu, 01 Jul 2027 00:00:00 GMT") == "2027-07-01" and day_of("soon") == "soon"


@pytest.mark.parametrize(
    ("given", "source"),
    [({"api_version": "2024-08-05"}, "flag"), ({}, "environment"), ({}, "profile")],
)
def test_the_version_comes_from_the_flag_the_environment_or_the_profile(tmp_path, given, source):
    config = tmp_path / "config.toml"
    environ = {"EXPLORER_BASE_URL": "https://h.example/api/atlas/v2", "EXPLORER_CLIENT_ID": "c"}
    environ["EXPLORER_CLIENT_SECRET"] = "s"
    if source == "environment":
        environ["EXPLORER_API_VERSION"] = "2024-08-05"
    if source == "profile":
        config.write_text('default_profile = "p"\n[profiles.p]\napi_version = "2024-08-05"\n')
    found = Credentials.resolve(variables=VARIABLES, environ=environ, path=config, **given)
    assert found.api_version == "2024-08-05"


@pytest.mark.parametrize("bad", ["2024-13-01", "2024-02-30", "latest", "2024-8-5"])
def test_a_version_that_is_not_a_date_is_named(tmp_path, bad):
    environ = {"EXPLORER_BASE_URL": "https://h.example/api/atlas/v2", "EXPLORER_PUBLIC_KEY": "p"}
    environ["EXPLORER_PRIVATE_KEY"] = "k"
    with pytest.raises(ConfigError, match=f"{bad!r} is not an API version: versions are dates, such as 2024-08-05"):
        Credentials.resolve(variables=VARIABLES, api_version=bad, environ=environ, path=tmp_path / "none.toml")


@pytest.mark.parametrize(
    ("given", "said"),
    [
        ("Authorization: Bearer x", "Authorization cannot be set: the explorer sends the credentials itself"),
        ("host: evil.example", "host cannot be set: the host is the URL's"),
        ("Accept application/json", "is not NAME: VALUE"),
        ("X-Test: a\x1b[2Jb", "the value of X-Test has a control character"),
        ("X-A: é", "the value of X-A has 'é', which is not ASCII: header values carry ASCII only; "),
    ],
)
def test_headers_that_would_do_harm_are_refused(given, said):
    with pytest.raises(ValueError, match=said.replace("(", r"\(")):
        header_pair(given)
    assert header_pair("Accept:  application/vnd.atlas.2024-08-05+json ") == (
        "Accept",
        "application/vnd.atlas.2024-08-05+json",
    )


@pytest.fixture(scope="module")
def service():
    stand_in = VersionedService(REAL_RESPONSES, deprecated={"2023-01-01": "1 Jul 2027"})
    with ServerThread(stand_in) as server:
        yield server, stand_in


def explorer_get(server, *arguments: str) -> subprocess.CompletedProcess[str]:
    environ = {
        "PATH": "/usr/bin:/bin",
        "HOME": str(ROOT),
        "EXPLORER_BASE_URL": f"{server.url}/api/atlas/v2",
        "EXPLORER_CLIENT_ID": "c",
        "EXPLORER_CLIENT_SECRET": "s",
        "XDG_CONFIG_HOME": "/nonexistent",
        # the history and the journal go here, not under HOME: HOME is the checkout (its .local)
        "XDG_STATE_HOME": str(Path(tempfile.gettempdir()) / f"explorer-versions-{os.getpid()}"),
    }
    command = [sys.executable, "-m", "explorer", "get", "--no-token-cache", *arguments]
    return subprocess.run(command, capture_output=True, text=True, env=environ, cwd=ROOT, timeout=60)


@pytest.mark.subprocess
def test_get_names_a_version_and_the_service_answers(service):
    server, stand_in = service
    run = explorer_get(server, "/groups")
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["totalCount"] == 37
    assert stand_in.accepts[-1] == "application/vnd.atlas.2023-01-01+json"
    run = explorer_get(server, "/groups", "--api-version", "2024-08-05", "-i")
    assert run.returncode == 0 and "content-type: application/vnd.atlas.2024-08-05+json" in run.stdout.lower()
    assert stand_in.accepts[-1] == "application/vnd.atlas.2024-08-05+json"


@pytest.mark.subprocess
def test_a_plain_accept_gets_the_406_and_a_hint_that_names_the_way_out(service):
    server, stand_in = service
    run = explorer_get(server, "/groups", "-H", "Accept: application/json")
    assert run.returncode == 4 and stand_in.accepts[-1] == "application/json"
    assert "406 Not Acceptable · INVALID_VERSION_DATE: Invalid accept header or version date." in run.stderr
    assert (
        "hint: The Accept sent (application/json) names no version: this API wants application/vnd.atlas.DATE+json. "
        "For example: Accept: application/vnd.atlas.DATE+json. Name one with --api-version DATE (EXPLORER_API_VERSION, "
        "or api_version in the profile), or send your own Accept with explorer get -H.\n"
    ) in run.stderr


@pytest.mark.subprocess
def test_a_header_that_is_refused_is_a_usage_error(service):
    server, _ = service
    run = explorer_get(server, "/groups", "-H", "Authorization: Bearer stolen")
    assert run.returncode == 2 and "Authorization cannot be set" in run.stderr


@pytest.mark.parametrize("bad", ["2024-13-01", "latest"])
def test_a_version_flag_that_is_not_a_date_is_a_usage_error(capsys, bad):
    from explorer.cli import main

    with pytest.raises(SystemExit) as exited:
        main(["get", "--demo", "/groups", "--api-version", bad])
    err = capsys.readouterr().err
    assert exited.value.code == 2
    assert err.endswith(f"argument --api-version: {bad!r} is not a date such as 2024-08-05 (versions are dates)\n")


@pytest.mark.subprocess
def test_paths_outside_the_versioned_api_ask_for_plain_json(service):
    server, stand_in = service
    for path in ("/api/private/ipinfo", "/api/atlas/v1.0/groups/6a793f5f2c88faeba59ba565/clusters/cluster-801"):
        run = explorer_get(server, f"{server.url}{path}")
        assert run.returncode == 0, run.stderr
        # the v1.0 API and the address lookup take no version
        assert stand_in.requests[-1] == Request("GET", path, "application/json")
    run = explorer_get(server, "/groups")
    assert run.returncode == 0 and stand_in.requests[-1].accept == "application/vnd.atlas.2023-01-01+json"
