"""The token endpoints and Bearer tokens: spec 2.1-2.3, 4.2, 4.3, 5.2, 7.1, 7.3."""

from __future__ import annotations

import base64
import re

import pytest

from tests.sandbox.conftest import API

FIVE_FIELDS = {"detail", "error", "errorCode", "parameters", "reason"}
VENDOR_MEDIA = re.compile(r"application/vnd\.service\.\d{4}-\d{2}-\d{2}\+json;charset=utf-8")


async def test_token_is_issued_for_client_credentials(sandbox):
    response = await sandbox.request_token()

    assert response.status_code == 200
    body = response.json()
    assert set(body) == {"access_token", "token_type", "expires_in"}
    assert body["token_type"] == "Bearer"
    assert body["expires_in"] == 3600
    assert VENDOR_MEDIA.fullmatch(response.headers["content-type"])
    assert response.headers["cache-control"] == "no-store"
    assert response.headers["x-service-version"].startswith("gitHash=")


async def test_token_lifetime_follows_settings(open_sandbox):
    async with open_sandbox(token_ttl=90) as sandbox:
        assert (await sandbox.request_token()).json()["expires_in"] == 90


async def test_wrong_secret_is_invalid_client_with_the_401_headers_of_spec_7_1(sandbox):
    response = await sandbox.request_token(headers=sandbox.basic(secret="wrong"))

    assert response.status_code == 401
    assert response.json() == {"error": "invalid_client", "error_description": "Invalid credentials provided."}
    assert response.headers["content-type"] == "application/json;charset=ISO-8859-1"
    assert "date" in response.headers and "content-length" in response.headers
    assert "x-service-version" not in response.headers
    assert "strict-transport-security" not in response.headers


async def test_other_grant_type_is_unsupported(sandbox):
    response = await sandbox.request_token(data={"grant_type": "password"})

    assert response.status_code == 400
    assert response.json() == {"error": "unsupported_grant_type", "error_description": "Invalid grant type."}
    assert response.headers["strict-transport-security"] == "max-age=31536000"
    assert response.headers["x-service-version"].startswith("gitHash=")


@pytest.mark.parametrize(
    "authorization",
    [
        None,
        "Basic",
        "Basic !!!not-base64!!!",
        "Basic " + base64.b64encode(b"no-colon-here").decode(),
        "Basic " + base64.b64encode(b"\xff\xfe:x").decode(),
        "Bearer something",
        "Digest username=x",
    ],
    ids=["absent", "empty", "not-base64", "no-colon", "not-utf8", "bearer", "digest"],
)
async def test_missing_or_malformed_credentials_are_invalid_request(sandbox, authorization):
    headers = {"Authorization": authorization} if authorization else {}
    response = await sandbox.client.post("/api/oauth/token", headers=headers, data={"grant_type": "client_credentials"})

    assert response.status_code == 400
    assert response.json() == {
        "error": "invalid_request",
        "error_description": "The provided credentials are not valid.",
    }


@pytest.mark.parametrize(
    "content, content_type",
    [
        (b"", "application/x-www-form-urlencoded"),
        (b'{"grant_type": "client_credentials"}', "application/json"),
        (b"grant_type=client_credentials", None),
        (b"grant_type", "application/x-www-form-urlencoded"),
        (b"grant_type=client_credentials&grant_type=client_credentials", "application/x-www-form-urlencoded"),
        (b"grant_type=%ff", "application/x-www-form-urlencoded"),
        (b"x=" + b"a" * 70_000, "application/x-www-form-urlencoded"),
    ],
    ids=["empty", "json", "no-type", "not-a-pair", "repeated", "not-utf8", "over-long"],
)
async def test_missing_or_malformed_body_is_invalid_request(sandbox, content, content_type):
    headers = sandbox.basic()
    if content_type:
        headers["Content-Type"] = content_type
    response = await sandbox.client.post("/api/oauth/token", headers=headers, content=content)

    assert response.status_code == 400
    assert response.json()["error"] == "invalid_request"


async def test_unknown_query_parameter_at_the_token_endpoint_is_invalid_request(sandbox):
    response = await sandbox.request_token(params={"debug": "true"})
    assert response.status_code == 400
    assert response.json()["error"] == "invalid_request"


async def test_token_endpoint_takes_pretty_and_envelope(sandbox):
    pretty = await sandbox.request_token(params={"pretty": "true"})
    assert pretty.text.startswith('{\n  "access_token" : ')

    wrapped = await sandbox.request_token(params={"envelope": "true"})
    assert wrapped.json()["status"] == 200
    assert wrapped.json()["content"]["token_type"] == "Bearer"


async def test_get_on_the_token_endpoint_is_405(sandbox):
    response = await sandbox.client.get("/api/oauth/token")
    assert response.status_code == 405
    assert set(response.json()) == FIVE_FIELDS
    assert response.headers["allow"] == "POST"


async def test_bearer_token_opens_the_api(sandbox):
    response = await sandbox.get("/groups")
    assert response.status_code == 200


@pytest.mark.parametrize(
    "authorization, code",
    [
        (None, "UNAUTHORIZED"),
        ("Bearer sbx_not-a-token-we-issued", "INVALID_ACCESS_TOKEN"),
        ("Bearer", "UNAUTHORIZED"),
        ("Basic " + base64.b64encode(b"a:b").decode(), "UNAUTHORIZED"),
    ],
    ids=["absent", "unknown", "empty", "basic"],
)
async def test_requests_without_a_good_token_get_the_five_field_401(sandbox, authorization, code):
    headers = {"Authorization": authorization} if authorization else {}
    response = await sandbox.client.get(API + "/groups", headers=headers)

    assert response.status_code == 401
    body = response.json()
    assert set(body) == FIVE_FIELDS
    assert body["error"] == 401 and body["reason"] == "Unauthorized" and body["errorCode"] == code
    assert "www-authenticate" in response.headers


async def test_expired_token_is_refused(sandbox):
    token = await sandbox.token()
    sandbox.clock.advance(3599)
    assert (await sandbox.get("/groups")).status_code == 200

    sandbox.clock.advance(1)
    response = await sandbox.client.get(API + "/groups", headers={"Authorization": f"Bearer {token}"})

    assert response.status_code == 401
    assert response.json()["errorCode"] == "EXPIRED_ACCESS_TOKEN"
    assert response.headers["www-authenticate"].startswith('Bearer realm="Service Public API", error="invalid_token"')


async def test_revoke_answers_200_with_no_body_and_kills_the_token(sandbox):
    token = await sandbox.token()
    response = await sandbox.client.post(
        "/api/oauth/revoke", headers=sandbox.basic(), data={"token": token, "token_type_hint": "access_token"}
    )

    assert response.status_code == 200
    assert response.content == b""
    after = await sandbox.get("/groups")
    assert after.status_code == 401
    assert after.json()["errorCode"] == "REVOKED_ACCESS_TOKEN"


async def test_revoke_needs_the_token_field(sandbox):
    response = await sandbox.client.post(
        "/api/oauth/revoke", headers=sandbox.basic(), data={"token_type_hint": "access_token"}
    )
    assert response.status_code == 400
    assert response.json() == {
        "error": "invalid_request",
        "error_description": "The provided credentials are not valid.",
    }


async def test_revoke_needs_the_client_credentials(sandbox):
    token = await sandbox.token()
    response = await sandbox.client.post(
        "/api/oauth/revoke", headers=sandbox.basic(secret="nope"), data={"token": token}
    )

    assert response.status_code == 401
    assert response.json()["error"] == "invalid_client"
    assert (await sandbox.get("/groups")).status_code == 200


async def test_revoking_an_unknown_token_is_not_an_error(sandbox):
    response = await sandbox.client.post("/api/oauth/revoke", headers=sandbox.basic(), data={"token": "sbx_unknown"})
    assert response.status_code == 200


async def test_token_endpoints_share_their_own_per_minute_limit(open_sandbox):
    async with open_sandbox(token_rate_limit=3) as sandbox:
        await sandbox.token()
        assert (await sandbox.request_token(headers=sandbox.basic(secret="bad"))).status_code == 401  # failures count
        revoke = await sandbox.client.post("/api/oauth/revoke", headers=sandbox.basic(), data={"token": "x"})
        assert revoke.status_code == 200
        assert revoke.headers["ratelimit-remaining"] == "0"

        limited = await sandbox.request_token()

        assert limited.status_code == 429
        url = str(sandbox.client.base_url).rstrip("/") + "/api/oauth/token"
        assert limited.json() == {
            "error": "rate_limited",
            "error_description": f"Resource {url} is limited to 3 requests every minute.",
        }
        assert limited.headers["retry-after"] == "40"  # the clock starts 20 s into a minute
        assert limited.headers["strict-transport-security"] == "max-age=300"
        assert (await sandbox.get("/groups")).status_code == 200  # ordinary requests have their own limits

        sandbox.clock.advance(40)
        assert (await sandbox.request_token()).status_code == 200


async def test_a_parameter_an_endpoint_does_not_read_is_ignored_however_often_it_comes(sandbox):
    """RFC 6749 3.2: unknown parameters are ignored; only a repeated one the endpoint reads is refused."""
    headers = sandbox.basic()
    body = b"grant_type=client_credentials&colour=red&colour=blue&token=a&token=b"
    issued = await sandbox.client.post(
        "/api/oauth/token", headers={**headers, "Content-Type": "application/x-www-form-urlencoded"}, content=body
    )
    assert issued.status_code == 200, issued.text
    revoked = await sandbox.client.post(
        "/api/oauth/revoke",
        headers={**headers, "Content-Type": "application/x-www-form-urlencoded"},
        content=b"token=" + issued.json()["access_token"].encode() + b"&grant_type=x&grant_type=y",
    )
    assert revoked.status_code == 200, revoked.text
