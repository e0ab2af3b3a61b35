"""Rate-limit state, Retry-After, retries of reads only, and holding a request that would be refused."""

from __future__ import annotations

import pytest

from explorer.api.errors import ApiError
from explorer.api.ratelimit import TOKEN


async def test_requests_are_counted_per_project_and_at_the_token_endpoint(connected):
    production, staging = connected.project_id("production"), connected.project_id("staging")
    for path in (f"/groups/{production}", f"/groups/{production}/clusters", f"/groups/{staging}", "/orgs"):
        await connected.session.fetch(path)

    limits = connected.session.rate_limits
    assert limits.window(production).used == 2
    assert limits.window(production).remaining() == 98  # the server's RateLimit-Remaining
    assert limits.window(production).line(connected.clock()) == "98 of 100 left"
    assert limits.window(staging).used == 1
    assert limits.window(TOKEN).used == 1
    assert limits.window(TOKEN).remaining() == 9
    assert [e.limited for e in connected.session.log] == [TOKEN, production, production, staging, None]


async def test_a_429_on_a_read_waits_for_retry_after_and_retries(connect):
    async with connect(sandbox={"rate_limit": 2}, pace=False) as c:
        project = c.project_id("production")
        for _ in range(2):
            await c.session.fetch(f"/groups/{project}")
        resource = await c.session.fetch(f"/groups/{project}")

        assert resource.status == 200
        assert c.sleeper.waits == [40]  # the clock starts 20 s into a minute
        assert [e.status for e in c.session.log if e.limited == project] == [200, 200, 429, 200]


async def test_holding_instead_of_sending_a_request_sure_to_be_refused(connect):
    async with connect(sandbox={"rate_limit": 2}) as c:
        project = c.project_id("production")
        for _ in range(3):
            assert (await c.session.fetch(f"/groups/{project}")).status == 200
        assert c.sleeper.waits == [40]
        assert 429 not in [e.status for e in c.session.log]


async def test_the_hold_is_visible_while_it_lasts(connect):
    async with connect(sandbox={"rate_limit": 1}) as c:
        project = c.project_id("production")
        seen = []
        original = c.sleeper.__call__

        async def watching(seconds):
            seen.append(c.session.held_until)
            await original(seconds)

        c.session.sleep = watching
        await c.session.fetch(f"/groups/{project}")
        await c.session.fetch(f"/groups/{project}")
        assert seen == [c.clock()]  # held until the next minute, which is now
        assert c.session.held_until is None


async def test_writes_are_never_retried(connect):
    async with connect(sandbox={"rate_limit": 1}, pace=False) as c:
        project = c.project_id("production")
        await c.session.fetch(f"/groups/{project}")
        resource = await c.session.fetch(f"/groups/{project}", method="PATCH", json={"name": "x"})
        assert resource.status == 429
        assert c.sleeper.waits == []


async def test_a_token_request_refused_with_503_is_not_retried(connect):
    async with connect(sandbox={"unavailable": 10, "retry_after": 3}) as c:
        with pytest.raises(ApiError) as caught:
            await c.session.fetch("/orgs")  # the token request is a POST
    assert caught.value.status == 503 and "retry in 3 s" in caught.value.hint
    assert c.sleeper.waits == []


async def test_a_read_retries_at_most_twice_then_shows_the_503(connect):
    async with connect() as c:
        await c.session.fetch("/orgs")
        c.app.state.sandbox.faults.unavailable, c.app.state.sandbox.faults.retry_after = 10, 3
        resource = await c.session.fetch("/orgs")
        assert resource.status == 503
        assert c.sleeper.waits == [3, 3]
        assert "retry in 3 s" in resource.error.hint


async def test_a_wait_beyond_a_minute_is_not_waited(connect):
    async with connect() as c:
        await c.session.fetch("/orgs")
        c.app.state.sandbox.faults.unavailable, c.app.state.sandbox.faults.retry_after = 1, 90
        resource = await c.session.fetch("/orgs")
        assert resource.status == 503 and c.sleeper.waits == []


@pytest.mark.parametrize("written", ["\u00b2", "-1", "9" * 4400, "1e3", ""])
def test_rate_limit_headers_that_are_not_counts_are_passed_over(written):
    import httpx

    from explorer.api.ratelimit import RateLimits

    limits = RateLimits(clock=lambda: 0.0)
    headers = [(b"ratelimit-limit", written.encode()), (b"ratelimit-remaining", written.encode())]
    limits.received("p", httpx.Response(200, headers=headers))
    assert limits.window("p").remaining() == 100 and limits.window("p").server_limit is None
    limits.received("p", httpx.Response(200, headers={"RateLimit-Limit": "300", "RateLimit-Remaining": "299"}))
    assert limits.window("p").line(0.0) == "299 of 300 left"
