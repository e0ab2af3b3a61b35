"""A session recorded from the screen replays offline with the same tree, pages and error documents."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from explorer.api.har import HarRecorder
from explorer.connection import replaying
from explorer.demo import demo_session
from explorer.sandbox import Settings
from explorer.tui.screens.main import MainScreen
from tests.tui.conftest import Explorer, explorer_on
from tests.tui.screen_text import screen_text

MISSING = "/groups/000000000000000000000000/clusters"


async def walk(driven: Explorer) -> dict[str, Any]:
    """What a user sees along one path: the tree's lines, each page's first items, an error document."""
    seen: dict[str, Any] = {}
    await driven.open("groups")
    await driven.open("groups", "production")
    await driven.open("groups", "production", "events")
    await driven.pilot.press("right_square_bracket")  # page 2
    await driven.settle()
    seen["page 2"] = (driven.current.resource.status, driven.current.resource.body)
    seen["status"] = str(driven.screen.query_one("StatusBar").render()).split("│")[1].split("·")[0].strip()
    await driven.go_to(MISSING)
    seen["error"] = driven.current.resource.error.full()
    seen["tree"] = [(line.data.title, line.data.url) for line in tree_lines(driven.link_tree.root)]
    return seen


def tree_lines(node: Any) -> list[Any]:
    found = [node] if node.data is not None else []
    for child in node.children:
        found += tree_lines(child)
    return found


@pytest.mark.screen
async def test_a_recorded_session_replays_with_the_same_tree_pages_and_errors(clock, tmp_path: Path):
    har = tmp_path / "lesson.har"
    recorded = demo_session(Settings(clock=clock))
    recorded.recorder = HarRecorder(har, str(recorded.base_url), openapi=recorded.credentials.openapi)
    async with explorer_on(recorded, clock) as driven:
        status = str(driven.screen.query_one("StatusBar").render())
        assert status.startswith("● rec · read-only · token valid 60:00 · 0 refreshes │ 200 OK")
        live = await walk(driven)
        assert live["page 2"][0] == 200 and live["status"] == "200 OK" and "NOT_IN_RECORDING" not in live["error"]
        assert len(live["tree"]) > 20
        full = recorded.recorder.file = open("/dev/full", "r+b")  # noqa: SIM115  (the disk fills up)
        await driven.go_to("/orgs")
        await driven.until(lambda: f"Stopped writing {har}: No space left on device" in driven.toasts())
        assert (
            str(driven.screen.query_one("StatusBar").render()).startswith("read-only · token valid 60:00")
            and full.closed
        )

    async with explorer_on(replaying(har), clock) as driven:
        assert isinstance(driven.app.screen, MainScreen)
        assert str(driven.screen.query_one("StatusBar").render()).startswith(
            "read-only · replay of lesson.har │ 200 OK"
        )
        replayed = await walk(driven)
        assert replayed == live
        await driven.go_to("/orgs")  # opened only once the disk was full
        assert "NOT_IN_RECORDING" in driven.current.resource.error.line()
        assert "not in the recording lesson.har" in driven.current.resource.error.line()


@pytest.mark.screen
async def test_the_palette_saves_the_session_so_far_redacted(explorer, tmp_path: Path):
    import json

    from textual import events
    from textual.widgets import Input

    from explorer.api.har import REDACTED
    from explorer.tui.screens.dialogs import save_question
    from tests.tui.conftest import problem_said

    await explorer.open("groups")
    await explorer.pilot.press("ctrl+p")
    await explorer.until(lambda: isinstance(explorer.app.focused, Input))
    for key in "Save the session":
        await explorer.pilot.press(key if key != " " else "space")
    await explorer.until(lambda: "Save the session as HAR" in screen_text(explorer.app))  # the palette's match
    await explorer.pilot.press("enter")
    await explorer.until(lambda: type(explorer.app.screen).__name__ == "AskScreen")
    question = str(explorer.app.screen.query_one("Label").render())
    assert question == save_question("the session as HAR") and os.getcwd()[-10:] + "):" in question
    field = explorer.app.focused
    nowhere = tmp_path / "no-such-folder" / "handed-over.har"
    field.value = ""
    explorer.app.post_message(events.Paste(str(nowhere)))
    await explorer.until(lambda: field.value == str(nowhere))
    await explorer.pilot.press("enter")  # asked again, as typed, with the folder named
    said = f"There is no folder {nowhere.parent}: make it first, or save somewhere else"
    await explorer.until(lambda: said in problem_said(explorer.app))
    field = explorer.app.focused
    assert field.value == str(nowhere)
    target = tmp_path / "handed-over.har"
    field.value = ""
    explorer.app.post_message(events.Paste(str(target)))
    await explorer.until(lambda: field.value == str(target))
    await explorer.pilot.press("enter")
    await explorer.until(lambda: target.exists() and "Saved" in explorer.toasts())
    entries = json.loads(target.read_text())["log"]["entries"]
    urls = [entry["request"]["url"] for entry in entries]
    assert urls[0].endswith("/openapi.json") and urls[-1].endswith("/api/service/v1.0/groups")
    token = next(entry for entry in entries if entry["request"]["url"].endswith("/api/oauth/token"))
    assert json.loads(token["response"]["content"]["text"])["access_token"] == REDACTED
    assert f"Saved {len(entries)} exchanges to {target}, secrets redacted" in explorer.toasts()


@pytest.mark.screen
async def test_a_replay_shows_no_token_endpoint_meter(clock, tmp_path: Path):
    """A replay asks no token endpoint: its bar names the recording and the resource's limit, and no
    token endpoint's meter, while a live session's bar shows one."""
    har = tmp_path / "lesson.har"
    recorded = demo_session(Settings(clock=clock))
    recorded.recorder = HarRecorder(har, str(recorded.base_url), openapi=recorded.credentials.openapi)
    async with explorer_on(recorded, clock) as driven:
        await driven.open("groups")
        assert "token endpoint" in str(driven.screen.query_one("StatusBar").render())
    async with explorer_on(replaying(har), clock) as driven:
        await driven.open("groups")
        bar = str(driven.screen.query_one("StatusBar").render())
        assert bar.startswith("read-only · replay of lesson.har │ 200 OK")
        assert "token endpoint" not in bar
