"""Service-account tokens through the client: first use, renewal, concurrency, 401s, revocation."""

from __future__ import annotations

import asyncio
import json
import time

import pytest

from explorer.api.auth import token_of
from explorer.api.errors import ApiError
from explorer.api.options import Bounds
from explorer.api.writes import WritePolicy


async def test_the_first_request_gets_a_token_and_later_ones_reuse_it(connected):
    assert connected.session.token_state.status(connected.clock()) == "none"

    first = await connected.session.fetch("/orgs")
    second = await connected.session.fetch("/groups")

    assert first.status == 200 and second.status == 200
    assert connected.token_requests() == 1
    state = connected.session.token_state
    assert state.issued_at == connected.clock()
    assert state.expires_at == connected.clock() + 3600
    assert state.seconds_left(connected.clock()) == 3600
    assert state.status(connected.clock()) == "valid"
    assert state.countdown(connected.clock()) == "60:00"
    assert state.refreshes == 0


async def test_the_token_is_renewed_within_its_leeway_before_expiry(connect):
    async with connect(sandbox={"token_ttl": 600}) as c:  # leeway: min(60, 600/10) = 60 s
        await c.session.fetch("/orgs")
        c.clock.advance(539)
        await c.session.fetch("/orgs")
        assert c.token_requests() == 1
        c.clock.advance(1)
        await c.session.fetch("/orgs")
        assert c.token_requests() == 2
        assert c.session.token_state.refreshes == 1
        assert c.session.token_state.expires_at == c.clock() + 600


async def test_a_short_lived_token_renews_at_a_tenth_of_its_life(connect):
    async with connect(
        sandbox={"token_ttl": 20}, bounds=Bounds(timeout=1)
    ) as c:  # leeway 2 s, past the requests' time limit
        await c.session.fetch("/orgs")
        c.clock.advance(17.9)
        await c.session.fetch("/orgs")
        c.clock.advance(0.2)
        await c.session.fetch("/orgs")
        assert c.token_requests() == 2


async def test_a_token_that_could_expire_before_the_request_times_out_is_renewed_first(connect):
    """The expiry drill: tokens of 60 s (a leeway of 6 s), requests that may take 30 s. At
    `token valid 00:08` a request would carry a token that could expire on its way: renewed first."""
    async with connect(sandbox={"token_ttl": 60}, bounds=Bounds(timeout=30)) as c:
        await c.session.fetch("/orgs")
        c.clock.advance(29)  # 31 s left: more than a request may take
        await c.session.fetch("/orgs")
        assert c.token_requests() == 1
        c.clock.advance(23)
        assert c.session.token_state.countdown(c.clock()) == "00:08"
        assert (await c.session.fetch("/orgs")).status == 200
        assert [e.url.rsplit("/", 1)[-1] for e in c.session.log][-2:] == ["token", "orgs"]  # renewed, then sent
        assert c.session.token_state.countdown(c.clock()) == "01:00"
        assert c.session.token_state.refreshes == 1


async def test_a_token_shorter_lived_than_two_time_limits_is_still_used_for_half_its_life(connect):
    async with connect(sandbox={"token_ttl": 20}, bounds=Bounds(timeout=30)) as c:  # a margin of 10 s, not 30
        await c.session.fetch("/orgs")
        c.clock.advance(9.9)
        await c.session.fetch("/orgs")
        assert c.token_requests() == 1
        c.clock.advance(0.2)
        await c.session.fetch("/orgs")
        await c.session.fetch("/orgs")
        assert c.token_requests() == 2  # renewed once, not before every request


async def test_ten_concurrent_requests_near_expiry_make_exactly_one_token_request(connect):
    async with connect(sandbox={"token_ttl": 600}) as c:
        await c.session.fetch("/orgs")
        c.clock.advance(590)
        results = await asyncio.gather(*(c.session.fetch("/orgs") for _ in range(10)))
        assert [r.status for r in results] == [200] * 10
        assert c.token_requests() == 2


async def test_ten_concurrent_first_requests_share_one_token(connected):
    results = await asyncio.gather(*(connected.session.fetch("/orgs") for _ in range(10)))
    assert [r.status for r in results] == [200] * 10
    assert connected.token_requests() == 1


async def test_a_token_expired_early_is_renewed_once_and_the_request_retried(connect):
    async with connect(sandbox={"control": True}) as c:
        await c.session.fetch("/orgs")
        c.app.state.sandbox.tokens.expire_all()

        resource = await c.session.fetch("/orgs")

        assert resource.status == 200
        assert c.token_requests() == 2
        statuses = [e.status for e in c.session.log if not e.url.endswith("/token")]
        assert statuses == [200, 401, 200]


async def test_a_write_refused_for_an_expired_token_is_not_sent_again_and_the_token_is_renewed(connect):
    async with connect(sandbox={"control": True}, writes=WritePolicy(True, "--writes")) as c:
        project = c.project_id("production")
        await c.session.fetch("/orgs")
        c.app.state.sandbox.tokens.expire_all()

        resource = await c.session.fetch(f"/groups/{project}", method="PATCH", json={"name": "renamed"})

        assert resource.status == 401 and resource.error.written == "no"
        assert "The write was not sent again." in resource.error.hint
        assert [(e.method, e.status) for e in c.session.log if not e.url.endswith("/token")] == [
            ("GET", 200),
            ("PATCH", 401),
        ]
        assert c.token_requests() == 2  # renewed after the refusal, for the person's next yes
        assert c.world.project_named("production").id == project  # not renamed: the write was not done
        again = await c.session.fetch(f"/groups/{project}", method="PATCH", json={"name": "renamed"})
        assert again.status == 200 and c.token_requests() == 2


async def test_a_write_goes_with_a_token_that_has_five_minutes_left_renewed_first_if_not(connect):
    async with connect(writes=WritePolicy(True, "--writes")) as c:
        project = c.project_id("production")
        await c.session.fetch("/orgs")
        c.clock.advance(3600 - 299)  # 299 s left: a read keeps it, a write does not
        await c.session.fetch("/orgs")
        assert c.token_requests() == 1

        resource = await c.session.fetch(f"/groups/{project}", method="PATCH", json={"name": "renamed"})

        assert resource.status == 200
        assert c.token_requests() == 2
        assert [e.method for e in c.session.log][-2:] == ["POST", "PATCH"]  # the token first, then the write once


async def test_a_request_retried_with_a_new_token_is_timed_from_its_retry(connect):
    async with connect(sandbox={"control": True}) as c:
        await c.session.fetch("/orgs")
        c.app.state.sandbox.tokens.expire_all()

        resource = await c.session.fetch("/orgs")  # refused, a new token, sent again

        [*_, refused, token, answered] = c.session.log
        assert (refused.status, token.url.endswith("/token"), answered.status) == (401, True, 200)
        assert resource.elapsed == answered.elapsed
        assert all(e.elapsed > 0 for e in c.session.log)


async def test_a_token_revoked_elsewhere_is_renewed_and_retried(connected):
    await connected.session.fetch("/orgs")
    token = connected.session.auth.token.value.reveal()
    connected.app.state.sandbox.tokens.revoke(token, connected.settings.client_id)

    assert (await connected.session.fetch("/orgs")).status == 200
    assert connected.token_requests() == 2


async def test_a_401_about_permissions_is_not_a_reason_to_renew(connected):
    restricted = connected.project_id("restricted-finance")
    resource = await connected.session.fetch(f"/groups/{restricted}")

    assert resource.status == 401
    assert connected.token_requests() == 1
    assert "not allowed here" in resource.error.hint


async def test_a_401_that_persists_after_renewal_says_permissions(connect, monkeypatch):
    async with connect(sandbox={"control": True}) as c:
        await c.session.fetch("/orgs")
        sandbox = c.app.state.sandbox
        original = sandbox.tokens.check

        def always_expired(value):
            original(value)
            from explorer.sandbox.tokens import unauthorized

            raise unauthorized("EXPIRED_ACCESS_TOKEN", "The access token has expired; request a new one.")

        monkeypatch.setattr(sandbox.tokens, "check", always_expired)
        resource = await c.session.fetch("/orgs")

        assert resource.status == 401
        assert resource.after_refresh
        assert c.token_requests() == 2  # renewed once, not in a loop
        assert "not allowed here" in resource.error.hint


async def test_wrong_credentials_fail_with_the_token_error_and_its_hint(connect):
    async with connect() as c:
        c.session.auth.secret = type(c.session.auth.secret)("wrong")
        with pytest.raises(ApiError) as caught:
            await c.session.fetch("/orgs")

    error = caught.value
    assert error.kind == "oauth" and error.status == 401
    assert error.oauth_error == "invalid_client"
    assert "client ID and secret" in error.hint
    assert c.session.token_state.last_error is error
    assert c.session.token_state.status(c.clock()) == "failed"


async def test_a_token_endpoint_outage_is_reported_not_retried(connect):
    async with connect(sandbox={"token_errors": ("server_error",)}) as c:
        with pytest.raises(ApiError) as caught:
            await c.session.fetch("/orgs")
        assert caught.value.status == 500 and caught.value.oauth_error == "server_error"
        assert (await c.session.fetch("/orgs")).status == 200  # the next call gets a token


async def test_closing_revokes_the_token(connect):
    async with connect() as c:
        await c.session.fetch("/orgs")
        assert c.live_tokens() == 1
    assert c.live_tokens() == 0
    assert c.session.token_state.revoked
    assert c.session.token_state.status(c.clock()) == "revoked"


@pytest.mark.slow
async def test_closing_never_waits_more_than_two_seconds_for_the_revocation(connect):
    async with connect(sandbox={"control": True}) as c:
        await c.session.fetch("/orgs")
        c.app.state.sandbox.faults.latency_ms = 10_000
        started = time.monotonic()
    assert time.monotonic() - started < 3
    c.app.state.sandbox.faults.latency_ms = 0


@pytest.mark.slow
async def test_api_keys_use_digest(connect):
    async with connect(api_key=True) as c:
        resource = await c.session.fetch("/groups")
        assert resource.status == 200
        assert c.session.token_state is None
        assert dict(resource.request_headers)["authorization"] == "Digest ***"


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le", "utf-32-be"])
def test_a_token_endpoint_answer_not_in_utf_8_is_refused_without_quoting_it(encoding):
    answer = {"access_token": "tok-wide-4Rt7", "token_type": "Bearer", "expires_in": 3600}
    assert token_of(json.dumps(answer).encode(encoding)) == ("", 0, "it is not UTF-8 JSON")
    assert token_of(json.dumps(answer).encode("utf-8-sig")) == ("tok-wide-4Rt7", 3600, None)  # a BOM: UTF-8 still
