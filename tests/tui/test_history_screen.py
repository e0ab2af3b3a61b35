"""The history on the screen (`H`): yesterday's exchanges found in a few keys, one opened as it was
kept (marked so, never in the panes), gone to live with `g`, compared with now with `=`."""

from __future__ import annotations

import pytest
from textual.widgets import Input

from explorer.api.history import History
from explorer.api.options import Har
from explorer.demo import demo_session
from explorer.sandbox import Settings, create_app
from explorer.tui.screens.compare import CompareScreen
from explorer.tui.screens.dialogs import AskScreen
from explorer.tui.screens.history import HistoryEntryScreen, HistoryScreen
from explorer.tui.screens.main import MainScreen
from tests.tui.conftest import explorer_on, problem_said
from tests.tui.screen_text import screen_text


def listed(driven) -> list[str]:
    """The history's lines as shown, each without its time."""
    listing = driven.app.screen.query_one("OptionList")
    return [str(listing.get_option_at_index(i).prompt).split("  ", 1)[1] for i in range(listing.option_count)]


@pytest.mark.screen
async def test_yesterdays_failing_request_is_found_in_a_few_keys_opened_as_it_was_and_compared_with_now(
    clock, tmp_path
):
    path = tmp_path / "history.sqlite3"
    sandbox = create_app(Settings(clock=clock))
    project = sandbox.state.sandbox.world.project_named("production")
    cluster = next(iter(project.clusters.values()))
    there = f"/groups/{project.id}/clusters/{cluster.name}"

    yesterday = demo_session(Settings(clock=clock), app=sandbox, har=Har(history=History(path)))
    async with yesterday:
        await yesterday.fetch(there)
        await yesterday.fetch(f"/groups/{project.id}/clusters/gone")
    clock.advance(86_400)
    cluster.fields["diskSizeGB"] = 80  # changed since

    today = demo_session(Settings(clock=clock), app=sandbox, har=Har(history=History(path)))
    async with explorer_on(today, clock) as driven:
        await driven.pilot.press("H")
        await driven.until_screen(HistoryScreen)
        await driven.until(lambda: "GET    200  /" in listed(driven))  # today's root, kept too
        kept = listed(driven)
        assert f"GET    200  {there}" in kept  # yesterday's, under today's own, from the API's root as the tree says it
        assert kept.index(f"GET    200  {there}") > kept.index("GET    200  /")
        assert "POST   200  /api/oauth/token" in kept  # outside the API: whole
        assert "History · https://sandbox.invalid " in screen_text(driven.app)  # no :443

        await driven.pilot.press(*"4xx")  # typed into the search
        await driven.until(lambda: len(listed(driven)) == 1)
        assert listed(driven) == [f"GET    404 CLUSTER_NOT_FOUND  /groups/{project.id}/clusters/gone"]
        assert "1 matching entry · Enter opens one as it was" in screen_text(driven.app)

        for _ in "4xx":
            await driven.pilot.press("backspace")
        await driven.pilot.press(*cluster.name[:8])
        await driven.until(lambda: len(listed(driven)) == 1)
        await driven.pilot.press("enter")
        await driven.until_screen(HistoryEntryScreen)
        exchange = driven.app.screen.query_one("#exchange")
        await driven.until(lambda: '"diskSizeGB": 10' in str(exchange.content))  # as it was, below the headers
        shown = screen_text(driven.app)
        assert "From the history: as it was at " in shown and "not a fresh answer" in shown
        assert "authorization: [redacted by explorer]" in str(exchange.content)

        await driven.pilot.press("equals_sign")
        await driven.until_screen(CompareScreen)
        await driven.until(lambda: "diskSizeGB" in screen_text(driven.app))
        compared = screen_text(driven.app)
        assert "from the history · as it was at" in compared
        assert f"+ /api/service/v1.0{there} · as fetched now" in compared
        await driven.pilot.press("escape")  # back where = was pressed: the entry, then the list
        await driven.until_screen(HistoryEntryScreen)
        await driven.pilot.press("escape")
        await driven.until_screen(HistoryScreen)
        await driven.pilot.press(*["backspace"] * 8)
        await driven.until(lambda: len(listed(driven)) >= 4)
        await driven.pilot.press(*"POST token")
        await driven.until(lambda: len(listed(driven)) == 2)  # yesterday's token, and today's
        await driven.pilot.press("enter")
        await driven.until_screen(HistoryEntryScreen)
        await driven.pilot.press("equals_sign")
        await driven.until(lambda: "a POST's answer is not that resource" in driven.toasts())
        assert isinstance(driven.app.screen, HistoryEntryScreen)  # nothing was fetched to compare
        await driven.pilot.press("g")  # the token endpoint is no resource to go to
        await driven.until(lambda: "/api/oauth/token is not under its root" in driven.toasts())
        assert isinstance(driven.app.screen, HistoryEntryScreen)
        await driven.pilot.press("escape")
        await driven.until_screen(HistoryScreen)
        await driven.pilot.press(*["backspace"] * len("POST token"))
        await driven.pilot.press(*cluster.name[:8])
        await driven.until(lambda: len(listed(driven)) == 2)  # and the fetch = made, just now
        await driven.pilot.press("down", "enter")  # yesterday's
        await driven.until_screen(HistoryEntryScreen)
        await driven.pilot.press("g")
        await driven.until_screen(MainScreen)
        await driven.settle()
        assert driven.current.resource.url.endswith(there)
        assert driven.current.resource.json["diskSizeGB"] == 80  # live, not as kept


@pytest.mark.screen
async def test_a_session_that_keeps_no_history_says_so(clock):
    async with explorer_on(demo_session(Settings(clock=clock)), clock) as driven:
        await driven.pilot.press("H")
        await driven.until(lambda: "No history is kept in this session" in driven.toasts())
        assert isinstance(driven.app.screen, MainScreen)


@pytest.mark.screen
async def test_b_saves_what_is_in_view_as_a_baseline_and_equals_compares_with_it_by_name(open_explorer):
    async with open_explorer(size=(160, 50)) as explorer:
        world = explorer.sandbox.state.sandbox.world
        project = world.project_named("production")
        cluster = next(iter(project.clusters.values()))
        there = f"/groups/{project.id}/clusters/{cluster.name}"
        await explorer.go_to(there)
        await explorer.pilot.press("b")
        await explorer.until_screen(AskScreen)
        field = explorer.app.screen.query_one(Input)
        assert field.value == cluster.name  # the name offered: what is in view
        field.value = ""  # Enter on no name: said, the dialog stays
        await explorer.pilot.press("enter")
        await explorer.until(lambda: "A baseline needs a name" in problem_said(explorer.app))
        field.value = "before upgrade"
        await explorer.pilot.press("enter")
        await explorer.until(lambda: "is not a baseline's name" in problem_said(explorer.app))
        field.value = "before-upgrade"
        await explorer.pilot.press("enter")
        await explorer.until(
            lambda: "Saved as the baseline before-upgrade: = then @before-upgrade" in explorer.toasts()
        )

        cluster.fields["diskSizeGB"] = 160
        await explorer.pilot.press("r")
        await explorer.settle()
        await explorer.pilot.press("equals_sign")  # nothing marked: a file, or a baseline by name
        await explorer.until_screen(AskScreen)
        explorer.app.screen.query_one(Input).value = "@"
        await explorer.pilot.press("enter")
        await explorer.until(lambda: "@ and a baseline's name: @NAME" in problem_said(explorer.app))
        explorer.app.screen.query_one(Input).value = "@nothing-saved"
        await explorer.pilot.press("enter")
        await explorer.until(
            lambda: "No baseline nothing-saved: b saves what is in view as one" in problem_said(explorer.app)
        )
        explorer.app.screen.query_one(Input).value = "@before-upgrade"
        await explorer.pilot.press("enter")
        await explorer.until_screen(CompareScreen)
        await explorer.until(lambda: "diskSizeGB" in screen_text(explorer.app))
        compared = screen_text(explorer.app)
        assert "- baseline before-upgrade, saved " in compared
        assert "~ .diskSizeGB: 10.0 → 160" in compared
