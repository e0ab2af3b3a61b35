"""Reads that recover, on the screen (issue 38: 2 and 4).

A token endpoint that answers 503 with Retry-After is waited out, the wait on the status bar as a
read's is, and the screen shows the root, not `token failed · 503`.
"""

from __future__ import annotations

import re

import pytest

from explorer.api.options import Clocks
from explorer.demo import demo_session
from explorer.sandbox import Settings, create_app
from explorer.tui.app import ExplorerApp
from tests.tui.conftest import Explorer, Gate, started


def bar(explorer: Explorer) -> str:
    """The status bar as a person reads it."""
    return str(explorer.q("StatusBar").render())


@pytest.mark.screen
async def test_a_token_endpoint_503_is_waited_out_on_the_bar_and_the_root_shown(clock):
    sandbox = create_app(Settings(clock=clock, unavailable=3, retry_after=5))  # the banner's example
    gate = Gate(clock)  # each wait held until the test opens it
    session = demo_session(Settings(clock=clock), app=sandbox, clocks=Clocks(sleep=gate))
    app = ExplorerApp(session, demo=lambda: demo_session(Settings(clock=clock)))
    app.animation_level = "none"
    async with app.run_test(size=(200, 50), notifications=True) as pilot:  # room for every part
        explorer = Explorer(pilot, app, sandbox, clock, gate)
        await explorer.until(lambda: gate.waits == [5])
        await explorer.until(lambda: "held" in bar(explorer))
        parts = re.sub(r"\d+ ms", "N ms", bar(explorer)).split(" │ ")
        # The token asked for, the 503 it waits out and the countdown beside the token endpoint's
        # meter, as a read's wait is shown (the request under way may be said between them).
        assert parts[0] == "read-only · token requested · 0 refreshes"
        assert "503 Service Unavailable · N ms" in parts
        assert parts[-1] == "token endpoint ████░ held 5s"
        gate.open.set()
        await explorer.until(lambda: started(app))
        await explorer.settle()
        assert explorer.screen.navigation.root.resource.status == 200
        assert gate.waits == [5, 5, 5]
        assert bar(explorer).startswith("read-only · token valid ")
        assert "503" not in bar(explorer)
