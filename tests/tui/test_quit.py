"""Quitting: the token is revoked on the way out, and the screen says so while the service takes its time."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from explorer.api import session as session_module
from explorer.demo import demo_session
from explorer.sandbox import Settings, create_app
from explorer.tui.app import ExplorerApp
from tests.tui.conftest import started, toasts_of, wait_until


@pytest.mark.screen
async def test_q_says_it_is_revoking_the_token_while_a_slow_service_answers(monkeypatch):
    monkeypatch.setattr(session_module, "REVOKE_TIMEOUT", 60.0)  # released below: a loaded machine's 2 s ran out
    sandbox = create_app(Settings())
    release = asyncio.Event()
    revoked: list[str] = []

    async def slow_revoke(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["path"] == "/api/oauth/revoke":
            await release.wait()
            revoked.append(scope["path"])
        await sandbox(scope, receive, send)

    app = ExplorerApp(demo_session(app=slow_revoke), demo=demo_session)
    app.animation_level = "none"
    async with app.run_test(size=(120, 30), notifications=True) as pilot:
        await wait_until(lambda: started(app), pilot=pilot)
        await pilot.press("q")
        await wait_until(lambda: "Revoking the token…" in toasts_of(app), pilot=pilot)
        assert app.is_running and not revoked
        screens = list(app.screen_stack)
        await pilot.press("a", "enter", "g", "ctrl+p")  # typed while it quits (a shell's next command): dropped
        await pilot.pause(0.3)
        assert app.screen_stack == screens, "no dialog opens on the way out"
        release.set()
        await wait_until(lambda: not app.is_running, pilot=pilot)
    assert revoked == ["/api/oauth/revoke"]
    assert app.session.token_state.revoked
