"""Rate-limit state, Retry-After, retries of reads only, and holding a request that would be refused."""

from __future__ import annotations

import asyncio
import contextlib

import httpx
import pytest

from explorer.api.errors import ApiError
from explorer.api.options import Bounds
from explorer.api.ratelimit import TOKEN_BUCKET, bucket_of
from explorer.api.writes import WritePolicy


@pytest.mark.slow
async def test_each_request_has_the_figures_its_answer_stated(connected):
    production, staging = connected.project_id("production"), connected.project_id("staging")
    paths = (f"/groups/{production}", f"/groups/{production}/clusters", f"/groups/{staging}", "/orgs")
    for path in paths:
        await connected.session.fetch(path)

    limits = connected.session.rate_limits

    def words(path: str) -> str | None:
        reading = limits.reading(bucket_of("GET", connected.session.resolve(path)))
        return reading.words if reading else None

    # The sandbox counts per project: its RateLimit-Remaining, answer by answer. /orgs states none.
    assert [words(path) for path in paths] == ["99 of 100 left", "98 of 100 left", "99 of 100 left", None]
    assert limits.token_reading().words == "9 of 10 left"
    assert limits.window(production).used == 2 and limits.window(TOKEN_BUCKET).used == 1  # counted all the same
    assert [e.counter_key for e in connected.session.log] == [TOKEN_BUCKET, production, production, staging, None]


@pytest.mark.slow
async def test_a_429_on_a_read_waits_for_retry_after_and_retries(connect):
    async with connect(sandbox={"rate_limit": 2}, client_side_throttling=False) as c:
        project = c.project_id("production")
        for _ in range(2):
            await c.session.fetch(f"/groups/{project}")
        resource = await c.session.fetch(f"/groups/{project}")

        assert resource.status == 200
        assert c.sleeper.waits == [40]  # the clock starts 20 s into a minute
        assert [e.status for e in c.session.log if e.counter_key == project] == [200, 200, 429, 200]


class Unstated:
    """The sandbox as the spec describes the service: no RateLimit-* headers in its answers."""

    def __init__(self, app) -> None:
        self.app = app
        self.state = app.state

    async def __call__(self, scope, receive, send) -> None:
        async def unstated(message) -> None:
            if message["type"] == "http.response.start":
                kept = [(k, v) for k, v in message["headers"] if not k.lower().startswith(b"ratelimit-")]
                message = {**message, "headers": kept}
            await send(message)

        await self.app(scope, receive, unstated if scope["type"] == "http" else send)


@pytest.mark.slow
async def test_holding_instead_of_sending_a_request_sure_to_be_refused(connect, clock):
    """A service that states no figures: the client counts the spec's minute itself."""
    from explorer.sandbox import Settings, create_app

    app = Unstated(create_app(Settings(clock=clock, rate_limit=2)))
    async with connect(sandbox={"rate_limit": 2}, app=app) as c:
        project = c.project_id("production")
        for _ in range(3):
            assert (await c.session.fetch(f"/groups/{project}")).status == 200
        assert c.sleeper.waits == [40]
        assert 429 not in [e.status for e in c.session.log]


@pytest.mark.slow
async def test_after_a_429_the_same_request_waits_instead_of_being_sent(connect):
    """RateLimit-Remaining 0 does not say when it refills: the next request goes, and its 429 says."""
    async with connect(sandbox={"rate_limit": 1}, writes=WritePolicy(True, "--writes")) as c:
        project = c.project_id("production")
        assert (await c.session.fetch(f"/groups/{project}")).status == 200  # 0 of 1 left
        patch = {"method": "PATCH", "json": {"name": "x"}}
        assert (await c.session.fetch(f"/groups/{project}", **patch)).status == 429  # a write is not retried
        assert c.sleeper.waits == []
        assert (await c.session.fetch(f"/groups/{project}", **patch)).status == 200
        assert c.sleeper.waits == [40]  # held for the 429's Retry-After, then sent
        assert [e.status for e in c.session.log if e.counter_key == project] == [200, 429, 200]


@pytest.mark.slow
async def test_without_pacing_a_request_after_a_429_waits_for_its_retry_after(connect):
    """The drills that show a 429 turn pacing off. Pressing r during the 429's wait cancels that
    fetch and starts another: it waits out the same Retry-After, it is not sent to be refused again."""
    async with connect(sandbox={"rate_limit": 1}, client_side_throttling=False) as c:
        project = c.project_id("production")
        path = f"/groups/{project}"
        assert (await c.session.fetch(path)).status == 200
        holding = asyncio.Event()

        async def held(seconds: float) -> None:
            holding.set()
            await asyncio.Event().wait()  # until cancelled, as the screen cancels a fetch for a new one

        c.session.throttle.sleep = held
        first = asyncio.create_task(c.session.fetch(path))
        await asyncio.wait_for(holding.wait(), 5)
        first.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await first
        c.session.throttle.sleep = c.sleeper
        assert (await c.session.fetch(path)).status == 200
        assert c.sleeper.waits == [40]  # the rest of the 429's Retry-After
        assert [e.status for e in c.session.log if e.counter_key == project] == [200, 429, 200]


@pytest.mark.slow
async def test_the_hold_is_visible_while_it_lasts(connect):
    async with connect(sandbox={"rate_limit": 1}) as c:
        project = c.project_id("production")
        seen = []
        original = c.sleeper.__call__

        async def watching(seconds):
            seen.append(c.session.throttle.waiting_until)
            await original(seconds)

        c.session.throttle.sleep = watching
        await c.session.fetch(f"/groups/{project}")
        await c.session.fetch(f"/groups/{project}")
        assert seen == [c.clock()]  # held until the next minute, which is now
        assert c.session.throttle.waiting_until is None


@pytest.mark.slow
async def test_writes_are_never_retried(connect):
    async with connect(
        sandbox={"rate_limit": 1}, client_side_throttling=False, writes=WritePolicy(True, "--writes")
    ) as c:
        project = c.project_id("production")
        await c.session.fetch(f"/groups/{project}")
        resource = await c.session.fetch(f"/groups/{project}", method="PATCH", json={"name": "x"})
        assert resource.status == 429
        assert c.sleeper.waits == []


@pytest.mark.slow
async def test_a_token_request_refused_with_503_waits_out_its_retry_after_and_asks_again(connect):
    async with connect(sandbox={"unavailable": 3, "retry_after": 3}) as c:
        resource = await c.session.fetch("/orgs")  # the token request is a POST: no write, asked again
        assert (resource.status, c.sleeper.waits, c.token_requests()) == (200, [3, 3, 3], 4)


@pytest.mark.slow
async def test_a_token_request_refused_with_503_is_asked_again_five_times_at_most(connect):
    async with connect(sandbox={"unavailable": 10, "retry_after": 3}) as c:
        with pytest.raises(ApiError) as caught:
            await c.session.fetch("/orgs")
        assert (c.sleeper.waits, c.token_requests()) == ([3] * 5, 6)
    assert caught.value.status == 503 and "retry in 3 s" in caught.value.hint


@pytest.mark.slow
@pytest.mark.parametrize(
    ("retry_after", "deadline"),
    [(90, 120.0), (3, 2.0)],  # past the minute a wait may take; past the deadline of the request
)
async def test_a_token_request_refused_for_longer_than_may_be_waited_fails_at_once(connect, retry_after, deadline):
    async with connect(sandbox={"unavailable": 10, "retry_after": retry_after}, bounds=Bounds(deadline=deadline)) as c:
        with pytest.raises(ApiError) as caught:
            await c.session.fetch("/orgs")
        assert (c.sleeper.waits, c.token_requests()) == ([], 1)
    assert caught.value.status == 503 and f"retry in {retry_after} s" in caught.value.hint


@pytest.mark.slow
async def test_a_read_retries_at_most_twice_then_shows_the_503(connect):
    async with connect() as c:
        await c.session.fetch("/orgs")
        c.app.state.sandbox.faults.unavailable, c.app.state.sandbox.faults.retry_after = 10, 3
        resource = await c.session.fetch("/orgs")
        assert resource.status == 503
        assert c.sleeper.waits == [3, 3]
        assert "retry in 3 s" in resource.error.hint


@pytest.mark.slow
async def test_a_wait_beyond_a_minute_is_not_waited(connect):
    async with connect() as c:
        await c.session.fetch("/orgs")
        c.app.state.sandbox.faults.unavailable, c.app.state.sandbox.faults.retry_after = 1, 90
        resource = await c.session.fetch("/orgs")
        assert resource.status == 503 and c.sleeper.waits == []


@pytest.mark.parametrize("written", ["\u00b2", "-1", "9" * 4400, "1e3", ""])
def test_rate_limit_headers_that_are_not_counts_are_passed_over(written):
    from explorer.api.ratelimit import RateLimits

    limits = RateLimits(clock=lambda: 0.0)
    bucket = f"GET /api/atlas/v2/groups/{PROJECT}"
    headers = [(b"ratelimit-limit", written.encode()), (b"ratelimit-remaining", written.encode())]
    said(limits, f"/groups/{PROJECT}", 429, headers=headers + [(b"retry-after", written.encode())])
    assert limits.reading(bucket).words == "0/100 sent"  # no figures: the client's own count
    assert hold(limits, f"/groups/{PROJECT}") == 0
    said(limits, f"/groups/{PROJECT}", RateLimit_Limit="300", RateLimit_Remaining="299")
    assert limits.reading(bucket).words == "299 of 300 left"


# What the server states, per request -----------------------------------------------------------
# The service does not name its buckets: what it said is kept for the request it said it of (its
# method and path), and a request is held only for what the server said of that request.

REAL = "https://h.example/api/atlas/v2"
PROJECT = "b0123456789abcdef012345b"


def said(limits, path: str, status: int = 200, method: str = "GET", json=None, headers=(), **named: str) -> None:
    """The response hook's part: `limits` hears an answer to `method path` with these headers."""
    from explorer.api.ratelimit import counter_key_of

    url = httpx.URL(REAL + path)
    sent = [*headers, *((name.replace("_", "-"), value) for name, value in named.items())]
    response = httpx.Response(status, headers=sent, json=json, request=httpx.Request(method, url))
    limits.received(counter_key_of(url), response)


def hold(limits, path: str) -> float:
    return limits.seconds_to_wait(httpx.URL(REAL + path))


def test_an_empty_bucket_does_not_hold_another_bucket_of_the_same_project(clock):
    from explorer.api.ratelimit import RateLimits

    limits = RateLimits(clock=clock)
    said(limits, f"/groups/{PROJECT}/clusters", RateLimit_Limit="10000", RateLimit_Remaining="9998")
    said(limits, f"/groups/{PROJECT}/processes", RateLimit_Limit="300", RateLimit_Remaining="0")
    assert hold(limits, f"/groups/{PROJECT}/clusters") == 0


def test_remaining_0_alone_does_not_hold_a_request_till_the_minute_ends(clock):
    """A bucket may refill in a second: without a 429 saying when, the request goes, and its 429 says."""
    from explorer.api.ratelimit import RateLimits

    limits = RateLimits(clock=clock)
    said(limits, f"/groups/{PROJECT}/processes", RateLimit_Limit="300", RateLimit_Remaining="0")
    assert hold(limits, f"/groups/{PROJECT}/processes") == 0


def test_a_429_outside_a_project_holds_that_request_until_retry_after(clock):
    from explorer.api.ratelimit import RateLimits

    limits = RateLimits(clock=clock)
    org = "/orgs/a0123456789abcdef012345a"
    said(limits, org, 429, Retry_After="30", RateLimit_Limit="500", RateLimit_Remaining="0")
    assert hold(limits, org) == 30
    assert hold(limits, org + "/teams") == 0  # another request, maybe another bucket: its own answer will say
    clock.advance(30)
    assert hold(limits, org) == 0


def test_a_retry_after_nobody_would_wait_is_not_held(clock):
    """Past 15 minutes the wait is the person's to decide: the error says it, nothing is held."""
    from explorer.api.ratelimit import RateLimits

    limits = RateLimits(clock=clock)
    org = "/orgs/a0123456789abcdef012345a"
    said(limits, org, 429, Retry_After="1000000000", RateLimit_Limit="500", RateLimit_Remaining="0")
    assert hold(limits, org) == 0
    said(limits, org, 429, Retry_After="900", RateLimit_Limit="500", RateLimit_Remaining="0")
    assert hold(limits, org) == 900


@pytest.mark.parametrize(
    ("parameters", "wait"),
    [
        (["/api/atlas/v2/orgs/x", 7, 100, 10, 5], 7),  # its retryAfter
        (["/api/atlas/v2/orgs/x", None, 100, 10, 5], 5),  # else the refill's period
        (["/api/atlas/v2/orgs/x", "soon", 100, 10, 5], 5),
    ],
)
def test_a_token_bucket_429_without_retry_after_holds_until_its_refill(clock, parameters, wait):
    from explorer.api.ratelimit import RateLimits

    limits = RateLimits(clock=clock)
    document = {"error": 429, "errorCode": "RATE_LIMITED_TOKEN_BUCKET", "detail": "limited", "parameters": parameters}
    said(limits, "/orgs/x", 429, json=document)
    assert hold(limits, "/orgs/x") == wait


def test_the_configured_limit_is_no_guess_where_the_server_states_its_own(clock):
    """Configured for 2 a minute, but the server said 1199 of 1200 are left: requests sent at the
    start of the next minute, before any answer, are not held on the 2."""
    from explorer.api.ratelimit import RateLimits, counter_key_of

    limits = RateLimits(project_limit=2, clock=clock)
    said(limits, f"/groups/{PROJECT}", RateLimit_Limit="1200", RateLimit_Remaining="1199")
    clock.advance(40)  # the next minute
    for _ in range(3):
        limits.sent(counter_key_of(httpx.URL(REAL + f"/groups/{PROJECT}/clusters")))
    assert hold(limits, f"/groups/{PROJECT}/clusters") == 0


def test_without_figures_the_client_counts_the_minute_of_the_spec(clock):
    from explorer.api.ratelimit import RateLimits, counter_key_of

    limits = RateLimits(project_limit=2, clock=clock)
    for _ in range(2):
        limits.sent(counter_key_of(httpx.URL(REAL + f"/groups/{PROJECT}")))
        said(limits, f"/groups/{PROJECT}")
    assert hold(limits, f"/groups/{PROJECT}/clusters") == 40  # the clock is 20 s into its minute


def test_the_token_endpoint_keeps_the_limit_it_stated(clock):
    """Configured for 10 a minute, the token endpoint said 20: the next minute counts to 20."""
    from explorer.api.ratelimit import TOKEN_BUCKET, RateLimits

    limits = RateLimits(token_limit=10, clock=clock)
    token = httpx.URL("https://h.example/api/oauth/token")
    limits.sent(TOKEN_BUCKET)
    response = httpx.Response(
        200, headers={"RateLimit-Limit": "20", "RateLimit-Remaining": "19"}, request=httpx.Request("POST", token)
    )
    limits.received(TOKEN_BUCKET, response)
    clock.advance(40)
    for _ in range(12):
        limits.sent(TOKEN_BUCKET)
    assert limits.seconds_to_wait(token) == 0
    assert limits.window(TOKEN_BUCKET).line(clock()) == "12/20 sent"


@pytest.mark.slow
async def test_an_emptied_token_bucket_is_waited_for_its_refill_not_for_the_minute(connect):
    async with connect(sandbox={"rate_limits": "bucket"}) as c:
        project = c.project_id("production")
        for _ in range(20):  # a project's reads: a burst of 20, then 5 every 10 s
            assert (await c.session.fetch(f"/groups/{project}")).status == 200
        assert (await c.session.fetch(f"/groups/{project}")).status == 200
        assert c.sleeper.waits == [10]  # the 429's Retry-After: the next refill, not the next minute (40 s)
        assert [e.status for e in c.session.log if e.counter_key == project][-2:] == [429, 200]
