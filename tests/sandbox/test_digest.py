"""API keys over HTTP Digest (spec 5.3): the challenge, and clients that answer it."""

from __future__ import annotations

import hashlib
import re
import shutil
import subprocess

import httpx
import pytest

from explorer.sandbox import Settings, create_app
from explorer.sandbox.digest import REALM, parse_fields
from explorer.sandbox.server import ServerThread
from tests.sandbox.conftest import API

CHALLENGE = re.compile(
    r'Digest realm="Service Public API", domain="", nonce="[A-Za-z0-9+/=]{32}", algorithm=MD5, qop="auth", stale=false'
)


def digest_auth(settings: Settings) -> httpx.DigestAuth:
    return httpx.DigestAuth(settings.public_key, settings.private_key)


async def test_a_401_carries_the_digest_challenge(sandbox):
    response = await sandbox.client.get(API)

    assert response.status_code == 401
    assert CHALLENGE.fullmatch(response.headers["www-authenticate"])


@pytest.mark.parametrize("path", [API, API + "/orgs", API + "/groups?pretty=true", "/api/private/ipinfo"])
async def test_httpx_digest_auth_works_on_every_kind_of_resource(sandbox, path):
    response = await sandbox.client.get(path, auth=digest_auth(sandbox.settings))
    assert response.status_code == 200, response.text


async def test_digest_works_deep_in_a_project(sandbox):
    project = sandbox.project_id("production")
    response = await sandbox.client.get(
        f"{API}/groups/{project}/clusters/orders-prod", auth=digest_auth(sandbox.settings)
    )
    assert response.status_code == 200
    assert response.json()["name"] == "orders-prod"


async def test_wrong_private_key_is_refused_with_a_fresh_challenge(sandbox):
    response = await sandbox.client.get(API, auth=httpx.DigestAuth(sandbox.settings.public_key, "wrong"))

    assert response.status_code == 401
    assert response.json()["detail"] == "You are not authorized for this resource."
    assert CHALLENGE.fullmatch(response.headers["www-authenticate"])


def answer(challenge: str, username: str, password: str, method: str, path: str, **override: str) -> str:
    fields = parse_fields(challenge.removeprefix("Digest "))
    nonce = override.pop("nonce", fields["nonce"])
    uri = override.pop("uri", path)
    md5 = lambda text: hashlib.md5(text.encode()).hexdigest()  # noqa: E731
    ha1, ha2 = md5(f"{username}:{REALM}:{password}"), md5(f"{method}:{uri}")
    response = md5(f"{ha1}:{nonce}:00000001:abcdef:auth:{ha2}")
    parts = {
        "username": username,
        "realm": REALM,
        "nonce": nonce,
        "uri": uri,
        "response": response,
        "qop": "auth",
        "nc": "00000001",
        "cnonce": "abcdef",
        "algorithm": "MD5",
        **override,
    }
    return "Digest " + ", ".join(
        f'{k}="{v}"' if k not in ("qop", "nc", "algorithm") else f"{k}={v}" for k, v in parts.items()
    )


async def test_a_hand_made_digest_answer_is_accepted(sandbox):
    challenge = (await sandbox.client.get(API)).headers["www-authenticate"]
    header = answer(challenge, sandbox.settings.public_key, sandbox.settings.private_key, "GET", API)

    response = await sandbox.client.get(API, headers={"Authorization": header})

    assert response.status_code == 200


@pytest.mark.parametrize(
    "override",
    [
        {"nonce": "SlgYP7Tv3FS/BuCj/x4WQRIV1bNKdpJg"},  # a nonce from the real service, not ours
        {"uri": "/api/service/v1.0/orgs"},  # signed for another URI
        {"realm": "Another Realm"},
        {"qop": "auth-int"},
        {"algorithm": "SHA-256"},
    ],
    ids=["foreign-nonce", "other-uri", "other-realm", "auth-int", "sha256"],
)
async def test_digest_answers_that_do_not_fit_are_refused(sandbox, override):
    challenge = (await sandbox.client.get(API)).headers["www-authenticate"]
    header = answer(challenge, sandbox.settings.public_key, sandbox.settings.private_key, "GET", API, **override)

    response = await sandbox.client.get(API, headers={"Authorization": header})

    assert response.status_code == 401
    assert set(response.json()) == {"detail", "error", "errorCode", "parameters", "reason"}


@pytest.mark.parametrize("header", ["Digest", "Digest garbage", 'Digest username="x", realm=', "Digest a=b, c"])
async def test_malformed_digest_headers_are_a_401_not_a_500(sandbox, header):
    response = await sandbox.client.get(API, headers={"Authorization": header})
    assert response.status_code == 401
    assert response.json()["detail"] == "The Digest authorization header is malformed."


async def test_an_old_nonce_is_stale_and_a_fresh_challenge_says_so(sandbox):
    challenge = (await sandbox.client.get(API)).headers["www-authenticate"]
    sandbox.clock.advance(301)
    header = answer(challenge, sandbox.settings.public_key, sandbox.settings.private_key, "GET", API)

    response = await sandbox.client.get(API, headers={"Authorization": header})

    assert response.status_code == 401
    assert response.headers["www-authenticate"].endswith("stale=true")


@pytest.mark.subprocess
@pytest.mark.skipif(shutil.which("curl") is None, reason="curl is not installed")
def test_curl_digest_succeeds_over_a_real_socket():
    settings = Settings()
    with ServerThread(create_app(settings)) as server:
        result = subprocess.run(
            [
                "curl",
                "-sS",
                "--digest",
                "-u",
                f"{settings.public_key}:{settings.private_key}",
                "-w",
                "\n%{http_code}",
                f"{server.url}{API}/groups?pretty=true",
            ],
            capture_output=True,
            text=True,
            timeout=20,
        )
    body, _, status = result.stdout.rpartition("\n")
    assert status == "200", result.stdout + result.stderr
    assert '"results" : [' in body
