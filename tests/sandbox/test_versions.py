"""Resource versions (spec 9) and `versions="strict"` (`--versions strict`, the drill `strict-versions`).

Every resource serves 2023-01-01; clusters also serve 2024-08-05, and their 2023-01-01 is
deprecated with a sunset. An answer is in the version the request names, or 2023-01-01 for plain
JSON; a deprecated version's answers say so in `Deprecation` and `Sunset`. In strict mode, as on
the real service's current API, a request under the API root that names no version the resource
serves is 406 `INVALID_VERSION_DATE`.
"""

from __future__ import annotations

import shlex

import httpx
import pytest

from explorer.sandbox import Settings
from explorer.sandbox.scenarios import SCENARIOS
from tests.sandbox.conftest import API
from tests.sandbox.test_command import running

OLD, NEW = "application/vnd.service.2023-01-01+json", "application/vnd.service.2024-08-05+json"
INVALID_VERSION = {
    "detail": "Invalid accept header or version date.",
    "error": 406,
    "errorCode": "INVALID_VERSION_DATE",
    "parameters": [],
    "reason": "Not Acceptable",
}
DEPRECATION = "Mon, 05 Aug 2024 00:00:00 GMT"
SUNSET = "Thu, 01 Jul 2027 00:00:00 GMT"


def cluster_path(sandbox, name: str = "catalog-prod") -> str:
    return f"/groups/{sandbox.project_id('production')}/clusters/{name}"


@pytest.mark.parametrize("accept", ["application/json", "*/*", "text/html", NEW])
async def test_strict_refuses_a_request_that_names_no_version_the_resource_serves(open_sandbox, accept):
    async with open_sandbox(versions="strict") as sandbox:
        response = await sandbox.get("/groups", headers={"Accept": accept})
    assert response.status_code == 406
    assert response.json() == INVALID_VERSION
    assert response.headers["x-error-code"] == "INVALID_VERSION_DATE"
    assert response.headers["content-type"] == "application/json"


async def test_strict_refuses_a_request_without_accept_before_looking_the_resource_up(open_sandbox):
    async with open_sandbox(versions="strict") as sandbox:
        bare = await sandbox.get("/groups/111111111111111111111111", headers={"Accept": ""})
    assert bare.status_code == 406
    assert bare.json()["errorCode"] == "INVALID_VERSION_DATE"


async def test_strict_answers_in_the_version_named(open_sandbox):
    async with open_sandbox(versions="strict") as sandbox:
        projects = await sandbox.get("/groups", headers={"Accept": OLD})
        new = await sandbox.get(cluster_path(sandbox), headers={"Accept": NEW})
        either = await sandbox.get("/groups", headers={"Accept": f"{NEW}, {OLD};q=0.5"})
    assert projects.status_code == 200
    assert projects.headers["content-type"] == "application/vnd.service.2023-01-01+json;charset=utf-8"
    assert new.status_code == 200
    assert new.headers["content-type"] == "application/vnd.service.2024-08-05+json;charset=utf-8"
    assert "deprecation" not in new.headers and "sunset" not in new.headers
    assert either.headers["content-type"] == "application/vnd.service.2023-01-01+json;charset=utf-8"


async def test_strict_leaves_the_token_endpoints_and_ipinfo_alone(open_sandbox):
    async with open_sandbox(versions="strict") as sandbox:
        token = await sandbox.request_token(headers={**sandbox.basic(), "Accept": "application/json"})
        ipinfo = await sandbox.get("/api/private/ipinfo", headers={"Accept": "application/json"})
    assert token.status_code == 200
    assert ipinfo.status_code == 200


async def test_strict_checks_credentials_first(open_sandbox):
    async with open_sandbox(versions="strict") as sandbox:
        anonymous = await sandbox.client.get(API + "/groups", headers={"Accept": "application/json"})
    assert anonymous.status_code == 401


@pytest.mark.parametrize("versions", ["lenient", "strict"])
async def test_the_deprecated_cluster_version_says_its_sunset(open_sandbox, versions):
    async with open_sandbox(versions=versions) as sandbox:
        old = await sandbox.get(cluster_path(sandbox), headers={"Accept": OLD})
        listed = await sandbox.call("HEAD", cluster_path(sandbox).rsplit("/", 1)[0], headers={"Accept": OLD})
        missing = await sandbox.get(cluster_path(sandbox, "no-such-cluster"), headers={"Accept": OLD})
        projects = await sandbox.get("/groups", headers={"Accept": OLD})
    for response in (old, listed, missing):
        assert response.headers["deprecation"] == DEPRECATION
        assert response.headers["sunset"] == SUNSET
    assert old.headers["content-type"] == "application/vnd.service.2023-01-01+json;charset=utf-8"
    assert missing.status_code == 404 and missing.headers["content-type"] == "application/json"
    assert "deprecation" not in projects.headers and "sunset" not in projects.headers


async def test_lenient_answers_plain_json_in_the_first_version(sandbox):
    projects = await sandbox.get("/groups", headers={"Accept": "application/json"})
    cluster = await sandbox.get(cluster_path(sandbox), headers={"Accept": "*/*"})
    assert projects.headers["content-type"] == "application/vnd.service.2023-01-01+json;charset=utf-8"
    assert cluster.headers["content-type"] == "application/vnd.service.2023-01-01+json;charset=utf-8"
    assert cluster.headers["sunset"] == SUNSET


async def test_lenient_refuses_only_a_version_the_resource_lacks(sandbox):
    lacking = await sandbox.get("/groups", headers={"Accept": NEW})
    or_plain = await sandbox.get("/groups", headers={"Accept": f"{NEW}, application/json"})
    assert lacking.status_code == 406
    assert lacking.json() == INVALID_VERSION
    assert or_plain.status_code == 200


def test_the_drill_makes_versions_strict():
    drill = SCENARIOS["strict-versions"]
    assert drill.settings().versions == "strict"
    assert drill.lesson.startswith("Every request must name a version")
    assert "406 INVALID_VERSION_DATE" in drill.lesson


def test_an_unknown_kind_of_versions_is_refused_naming_the_choices():
    with pytest.raises(ValueError, match="versions must be one of lenient, strict"):
        Settings(versions="loose")


def digest_example(banner: str) -> tuple[httpx.DigestAuth, dict[str, str], str]:
    """The banner's `Try:` curl with --digest, as httpx would send it: its credentials, headers and URL."""
    tried = banner.split("Try:", 1)[1].replace("\\\n", " ")
    [line] = [line for line in tried.splitlines() if "--digest" in line]
    words = shlex.split(line)
    assert words[0] == "curl" and words[-1].startswith("http"), words
    user, password = words[words.index("-u") + 1].split(":", 1)
    headers = dict(words[at + 1].split(": ", 1) for at, word in enumerate(words) if word == "-H")
    return httpx.DigestAuth(user, password), headers, words[-1]


@pytest.mark.slow
def test_the_flag_makes_versions_strict_and_the_banner_says_so(tmp_path):
    auth = httpx.DigestAuth("sandboxpub", "sandbox-private-key-0000")
    with running(tmp_path, "--http", "--versions", "strict") as (url, banner, _):
        plain = httpx.get(url + API, auth=auth)
        named = httpx.get(url + API, auth=auth, headers={"Accept": OLD})
        tried_auth, tried_headers, tried_url = digest_example(banner)
        tried = httpx.get(tried_url, auth=tried_auth, headers=tried_headers)
    assert "Versions: strict" in banner
    assert plain.status_code == 406
    assert named.status_code == 200
    # the banner's own example names a version, or it would be that 406
    assert tried_headers == {"Accept": OLD} and tried_url == f"{url}{API}?pretty=true"
    assert tried.status_code == 200, tried.text


@pytest.mark.parametrize("versions", ["lenient", "strict"])
async def test_the_banners_example_is_answered_in_either_mode(versions):
    from explorer.sandbox import create_app
    from explorer.sandbox.command import banner

    settings = Settings(versions=versions)
    auth, headers, url = digest_example(banner(settings, "http://127.0.0.1:8080", None, "127.0.0.1"))
    assert headers == ({"Accept": OLD} if versions == "strict" else {})  # lenient: as short as it can be
    transport = httpx.ASGITransport(app=create_app(settings), client=("127.0.0.1", 50000))
    async with httpx.AsyncClient(transport=transport) as client:
        response = await client.get(url, auth=auth, headers=headers)
    assert response.status_code == 200, response.text
