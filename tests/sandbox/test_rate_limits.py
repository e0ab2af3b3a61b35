"""Rate limits (spec 8): 100 requests a minute per project, each project its own counter."""

from __future__ import annotations

import pytest


async def test_the_limit_is_per_project_and_resets_on_the_minute(open_sandbox):
    async with open_sandbox(rate_limit=5) as sandbox:
        production, staging = sandbox.project_id("production"), sandbox.project_id("staging")
        paths = [
            f"/groups/{production}",
            f"/groups/{production}/clusters",
            f"/groups/{production}/events",
            f"/groups/{production}/nothing-here",
            f"/groups/{production}/clusters/orders-prod",
        ]
        remaining = []
        for path in paths:  # every path under the project counts, a 404 too
            remaining.append((await sandbox.get(path)).headers["ratelimit-remaining"])
        assert remaining == ["4", "3", "2", "1", "0"]

        limited = await sandbox.get(f"/groups/{production}/alerts")

        assert limited.status_code == 429
        body = limited.json()
        assert set(body) == {"detail", "error", "errorCode", "parameters", "reason"}
        assert body["errorCode"] == "RATE_LIMITED" and body["reason"] == "Too Many Requests"
        assert "is limited to 5 requests every minute." in body["detail"]
        assert limited.headers["retry-after"] == "40"
        assert limited.headers["ratelimit-remaining"] == "0"

        assert (await sandbox.get(f"/groups/{staging}")).status_code == 200  # another project, another counter
        assert (await sandbox.get("/orgs")).status_code == 200  # outside projects: not limited

        sandbox.clock.advance(39)
        assert (await sandbox.get(f"/groups/{production}")).status_code == 429
        sandbox.clock.advance(1)
        fresh = await sandbox.get(f"/groups/{production}")
        assert fresh.status_code == 200
        assert fresh.headers["ratelimit-remaining"] == "4"


@pytest.mark.slow
async def test_the_default_limit_is_100(sandbox):
    project = sandbox.project_id("analytics")
    statuses = [(await sandbox.get(f"/groups/{project}")).status_code for _ in range(101)]
    assert statuses == [200] * 100 + [429]
