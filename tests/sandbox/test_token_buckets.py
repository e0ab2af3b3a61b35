"""Token buckets (`rate_limits="bucket"`, `--rate-limits bucket`, the drill `token-bucket`).

As the real service limits now: a bucket per set of endpoints and scope, a burst of `capacity`
requests refilled by `refillRate` every `refillSeconds`, `RateLimit-Limit` and
`RateLimit-Remaining` on every answer of a limited endpoint, `Retry-After` only on the 429, and
the 429's document `RATE_LIMITED_TOKEN_BUCKET` with [path, retryAfter, capacity, refillRate,
refillSeconds]. The buckets run on the sandbox's clock, which the tests move.
"""

from __future__ import annotations

import httpx
import pytest

from explorer.api.errors import describe_limits, from_response
from explorer.sandbox import Settings
from explorer.sandbox.scenarios import SCENARIOS
from tests.sandbox.conftest import API
from tests.sandbox.test_command import running

PROJECT_READS = {"capacity": 20, "refillRate": 5, "refillSeconds": 10}


async def drain(sandbox, path: str, count: int) -> list[str]:
    """`count` requests; the RateLimit-Remaining of each."""
    remaining = []
    for _ in range(count):
        response = await sandbox.get(path)
        assert response.status_code == 200, response.text
        assert "retry-after" not in response.headers
        remaining.append(response.headers["ratelimit-remaining"])
    return remaining


async def test_project_reads_drain_a_bucket_of_20_and_the_429_is_the_real_document(open_sandbox):
    async with open_sandbox(rate_limits="bucket") as sandbox:
        project = sandbox.project_id("production")
        path = f"/groups/{project}/clusters"
        first = await sandbox.get(f"/groups/{project}")
        assert first.headers["ratelimit-limit"] == "20"
        assert first.headers["ratelimit-remaining"] == "19"
        assert "retry-after" not in first.headers
        assert await drain(sandbox, path, 19) == [str(n) for n in range(18, -1, -1)]

        limited = await sandbox.get(path + "?pretty=false")

        assert limited.status_code == 429
        assert limited.headers["content-type"] == "application/json"
        assert limited.headers["retry-after"] == "10"
        assert limited.headers["ratelimit-limit"] == "20"
        assert limited.headers["ratelimit-remaining"] == "0"
        assert limited.json() == {
            "detail": f"You have exceeded the rate limit of {API}{path}: a burst of 20 requests, "
            "refilled at 5 every 10 seconds. Retry after 10 seconds.",
            "error": 429,
            "errorCode": "RATE_LIMITED_TOKEN_BUCKET",
            "parameters": [API + path, 10, 20, 5, 10],
            "reason": "Too Many Requests",
        }
        # What the explorer makes of it: the figures it reads are the ones the sandbox means.
        error = from_response("GET", str(limited.url), 429, limited.headers, limited.content, 0)
        assert describe_limits(error) == "These endpoints take a burst of 20 requests, refilled at 5 every 10 s."


async def test_the_bucket_refills_in_steps_on_the_clock(open_sandbox):
    async with open_sandbox(rate_limits="bucket") as sandbox:
        path = f"/groups/{sandbox.project_id('production')}"
        await drain(sandbox, path, 20)
        sandbox.clock.advance(9)
        early = await sandbox.get(path)
        assert early.status_code == 429 and early.headers["retry-after"] == "1"
        assert early.json()["parameters"][1] == 1

        sandbox.clock.advance(1)  # one step: 5 more
        assert await drain(sandbox, path, 5) == ["4", "3", "2", "1", "0"]
        sandbox.clock.advance(3)
        assert (await sandbox.get(path)).headers["retry-after"] == "7"  # the next step is 10 s after the last

        sandbox.clock.advance(600)  # never more than the capacity
        assert await drain(sandbox, path, 1) == ["19"]


async def test_each_project_organization_and_user_has_its_own_bucket(open_sandbox):
    async with open_sandbox(rate_limits="bucket") as sandbox:
        production, staging = sandbox.project_id("production"), sandbox.project_id("staging")
        org = sandbox.world.project_named("production").org_id
        await drain(sandbox, f"/groups/{production}", 20)
        assert (await sandbox.get(f"/groups/{production}/nothing-here")).status_code == 429  # a 404 counts too

        assert await drain(sandbox, f"/groups/{staging}", 1) == ["19"]
        organization = await sandbox.get(f"/orgs/{org}/teams")
        assert organization.headers["ratelimit-limit"] == "10"
        assert organization.headers["ratelimit-remaining"] == "9"
        # The rest, writes included, is one bucket per user: here the service account's.
        root = await sandbox.get(API)
        assert (root.headers["ratelimit-limit"], root.headers["ratelimit-remaining"]) == ("30", "29")
        write = await sandbox.call("PATCH", f"/groups/{production}", json={"tags": []})
        assert write.status_code == 200
        assert (write.headers["ratelimit-limit"], write.headers["ratelimit-remaining"]) == ("30", "28")
        listed = await sandbox.get("/groups")
        assert listed.headers["ratelimit-remaining"] == "27"

        # An API key is another user, with its own bucket.
        digest = httpx.DigestAuth(sandbox.settings.public_key, sandbox.settings.private_key)
        keyed = await sandbox.client.get(API, auth=digest)
        assert keyed.status_code == 200
        assert keyed.headers["ratelimit-remaining"] == "29"


async def test_token_endpoints_keep_their_minute_windows(open_sandbox):
    async with open_sandbox(rate_limits="bucket") as sandbox:
        token = await sandbox.request_token()
    assert token.status_code == 200
    assert token.headers["ratelimit-limit"] == "10"


async def test_rate_limits_lists_the_endpoint_sets_and_what_is_left_for_the_caller(open_sandbox):
    async with open_sandbox(rate_limits="bucket") as sandbox:
        production = sandbox.project_id("production")
        await drain(sandbox, f"/groups/{production}", 3)
        await sandbox.get(API)

        listed = await sandbox.get("/rateLimits")
        again = await sandbox.get("/rateLimits")  # reading it spends nothing

        assert listed.status_code == 200
        assert "ratelimit-limit" not in listed.headers
        body = listed.json()
        assert body == again.json()
        assert body["totalCount"] == 3
        sets = {item["id"]: item for item in body["results"]}
        assert list(sets) == ["projectReads", "organizationReads", "otherRequests"]
        reads = sets["projectReads"]
        assert {k: reads[k] for k in ("name", "scope", *PROJECT_READS)} == {
            "name": "Project reads",
            "scope": "PROJECT",
            **PROJECT_READS,
        }
        assert reads["links"] == [
            {"href": str(sandbox.client.base_url).rstrip("/") + API + "/rateLimits/projectReads", "rel": "self"}
        ]
        buckets = {bucket["name"]: bucket for bucket in reads["buckets"]}
        assert buckets["production"] == {"scopeId": production, "name": "production", "remaining": 17}
        assert buckets["staging"]["remaining"] == 20
        assert "restricted-finance" not in buckets  # only the projects the caller may see
        assert [(s["scope"], s["capacity"], s["refillRate"], s["refillSeconds"]) for s in sets.values()] == [
            ("PROJECT", 20, 5, 10),
            ("ORGANIZATION", 10, 2, 10),
            ("USER", 30, 5, 10),
        ]
        assert sets["otherRequests"]["buckets"] == [
            {"scopeId": sandbox.settings.client_id, "name": sandbox.settings.client_id, "remaining": 29}
        ]
        assert [b["remaining"] for b in sets["organizationReads"]["buckets"]] == [10, 10]

        one = await sandbox.get("/rateLimits/otherRequests")
        assert one.status_code == 200
        assert one.json() == sets["otherRequests"]
        unknown = await sandbox.get("/rateLimits/everything")
        assert unknown.status_code == 404
        assert unknown.json()["detail"] == (
            "No endpoint set with ID everything exists; the sandbox has projectReads, organizationReads, otherRequests."
        )


async def test_rate_limits_in_minute_mode_is_404_saying_how_to_see_buckets(sandbox):
    response = await sandbox.get("/rateLimits")
    assert response.status_code == 404
    assert response.json()["errorCode"] == "RESOURCE_NOT_FOUND"
    assert response.json()["detail"] == (
        "This sandbox counts requests in fixed one-minute windows (100 a minute per project), not in token "
        "buckets: start it with --rate-limits bucket to inspect its buckets here."
    )


async def test_the_root_links_the_rate_limits_in_bucket_mode(open_sandbox):
    async with open_sandbox(rate_limits="bucket") as sandbox:
        links = {link["rel"].rsplit("/", 1)[-1]: link["href"] for link in (await sandbox.get(API)).json()["links"]}
    assert links["rateLimits"].endswith(API + "/rateLimits")


def test_the_drill_turns_buckets_on_and_the_explorer_does_not_pace_itself():
    drill = SCENARIOS["token-bucket"]
    assert drill.settings().rate_limits == "bucket"
    assert drill.client == {"client_side_throttling": False}
    assert "20" in drill.lesson and "5 every 10 s" in drill.lesson


@pytest.mark.slow
def test_the_flag_serves_buckets_and_the_banner_says_so(tmp_path):
    with running(tmp_path, "--http", "--rate-limits", "bucket") as (url, banner, _):
        assert "Token buckets (GET " in banner
        assert "project reads 20, refilled 5 every 10 s, per project" in " ".join(banner.split())
        assert "requests a minute per project" not in banner
        response = httpx.get(url + API, auth=httpx.DigestAuth("sandboxpub", "sandbox-private-key-0000"))
        assert response.headers["ratelimit-limit"] == "30"


def test_an_unknown_kind_of_limit_is_refused_naming_the_choices():
    with pytest.raises(ValueError, match="rate-limits must be one of minute, bucket"):
        Settings(rate_limits="hourly")
