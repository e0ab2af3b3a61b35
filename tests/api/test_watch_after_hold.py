"""A watch whose fetch was held for a 503's Retry-After fetches next `every` seconds after it went
out, not at once (issue 38: 4).

In the `outage` drill (45 s of service, then 15 s of 503s with Retry-After to the end of the burst)
a watch's fetch met a 503 and was held; when the hold ended it went out, and the watch, counting
the hold as that fetch's own time, sent the next at once: two identical GETs at the same second.
What the sandbox saw, and when by its clock, is what counts.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from explorer.api.filters import JqRunner
from explorer.api.watching import Version, Watch, follow, session_pace
from explorer.sandbox import Settings, create_app
from explorer.sandbox.scenarios import scenario_named
from tests.conftest import FakeClock


@pytest.fixture
def runner() -> Iterator[JqRunner]:
    jq = JqRunner(limit=1.0)
    yield jq
    jq.close()


class Arrivals:
    """The sandbox, noting the time (its clock) of every GET under /groups that it is sent."""

    def __init__(self, app: Any, clock: FakeClock) -> None:
        self.app = app
        self.state = app.state
        self.clock = clock
        self.times: list[float] = []

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["method"] == "GET" and "/groups/" in scope["path"]:
            self.times.append(self.clock())
        await self.app(scope, receive, send)


async def test_a_watch_held_by_an_outage_fetches_next_every_seconds_after_its_fetch_went(connect, clock, runner):
    sandbox = Arrivals(create_app(scenario_named("outage").settings(Settings(clock=clock))), clock)
    start = clock()  # the outage's minute starts now: 503s from 45 s to 60 s
    async with connect(app=sandbox) as c:
        url = str(c.session.resolve(f"/groups/{c.project_id('production')}"))
        clock.advance(43)
        watch = Watch(url, "production", every=5.0)

        def seen(watch: Watch, version: Version | None, resource: object) -> None:
            if watch.fetches == 3:  # the third: the one held, then the next
                watch.ended = "stopped"

        await follow(watch, c.session.fetch, runner, c.clock, c.sleeper, session_pace(c.session, lambda b: 1), seen)
        statuses = [exchange.status for exchange in c.session.log if exchange.url == url]

    # 43 s: 200; 48 s: 503, Retry-After 12; held, sent again at 60 s: 200; the next 5 s after that.
    assert [at - start for at in sandbox.times] == [43, 48, 60, 65]
    assert statuses == [200, 503, 200, 200]
    assert c.sleeper.waits == [5.0, 12.0, 5.0]
