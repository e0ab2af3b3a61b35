"""Faults on demand: start-up settings, and the control endpoint (loopback only, off by default)."""

from __future__ import annotations

import time

import pytest

from tests.sandbox.conftest import API


async def test_the_first_n_api_responses_can_be_503_with_retry_after(open_sandbox):
    async with open_sandbox(unavailable=2, retry_after=7) as sandbox:
        token = await sandbox.client.post(
            "/api/oauth/token", headers=sandbox.basic(), data={"grant_type": "client_credentials"}
        )
        assert token.status_code == 503
        assert token.json() == {"error": "server_error", "error_description": "Unexpected error."}
        assert token.headers["retry-after"] == "7"
        assert token.headers["strict-transport-security"] == "max-age=300"

        ordinary = await sandbox.client.get(API)
        assert ordinary.status_code == 503
        assert ordinary.json()["errorCode"] == "SERVICE_UNAVAILABLE"
        assert ordinary.headers["retry-after"] == "7"

        assert (await sandbox.get("/orgs")).status_code == 200


@pytest.mark.parametrize(
    "error, status, description",
    [
        ("server_error", 500, "Unexpected error."),
        ("invalid_grant", 400, "Invalid grant."),
        ("rate_limited", 429, None),
    ],
)
async def test_token_errors_can_be_set_up(open_sandbox, error, status, description):
    async with open_sandbox(token_errors=(error,)) as sandbox:
        failed = await sandbox.request_token()
        assert failed.status_code == status
        assert failed.json()["error"] == error
        if description:
            assert failed.json()["error_description"] == description
        else:
            assert failed.json()["error_description"].endswith("is limited to 10 requests every minute.")
            assert "retry-after" in failed.headers
        assert (await sandbox.request_token()).status_code == 200


async def test_the_control_endpoint_is_off_unless_asked_for(sandbox):
    response = await sandbox.client.post("/_sandbox/expire-tokens")
    assert response.status_code == 404


async def test_control_expires_every_token_now(open_sandbox):
    async with open_sandbox(control=True) as sandbox:
        assert (await sandbox.get("/orgs")).status_code == 200
        state = await sandbox.client.post("/_sandbox/expire-tokens")
        assert state.status_code == 200
        assert state.json()["liveTokens"] == 0
        expired = await sandbox.get("/orgs")
        assert expired.status_code == 401 and expired.json()["errorCode"] == "EXPIRED_ACCESS_TOKEN"


async def test_control_makes_the_next_responses_unavailable(open_sandbox):
    async with open_sandbox(control=True) as sandbox:
        await sandbox.token()
        assert (await sandbox.client.post("/_sandbox/unavailable?count=2&retryAfter=11")).json()[
            "unavailableResponses"
        ] == 2
        first, second, third = [await sandbox.get("/orgs") for _ in range(3)]
        assert [first.status_code, second.status_code, third.status_code] == [503, 503, 200]
        assert first.headers["retry-after"] == "11"


async def test_control_queues_token_errors_and_resets(open_sandbox):
    async with open_sandbox(control=True) as sandbox:
        queued = await sandbox.client.post("/_sandbox/token-error?error=server_error&count=2")
        assert queued.json()["tokenErrors"] == ["server_error", "server_error"]
        assert (await sandbox.request_token()).status_code == 500
        await sandbox.client.post("/_sandbox/reset")
        assert (await sandbox.request_token()).status_code == 200
        bad = await sandbox.client.post("/_sandbox/token-error?error=teapot")
        assert bad.status_code == 400


async def test_control_adds_latency(open_sandbox):
    async with open_sandbox(control=True) as sandbox:
        await sandbox.token()
        assert (await sandbox.client.post("/_sandbox/latency?ms=150")).json()["latencyMs"] == 150
        started = time.perf_counter()
        assert (await sandbox.get("/orgs")).status_code == 200
        assert time.perf_counter() - started >= 0.15


async def test_control_answers_only_on_loopback(open_in_process):
    async with open_in_process(client=("203.0.113.9", 5000), control=True) as sandbox:
        response = await sandbox.client.post("/_sandbox/expire-tokens")
    assert response.status_code == 403
    assert response.json()["errorCode"] == "CONTROL_LOOPBACK_ONLY"
