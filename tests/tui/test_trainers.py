"""For trainers: --presenter's overlay, and the drills of --scenario, as an audience sees them."""

from __future__ import annotations

import subprocess
import sys

import pytest
from textual import events
from textual.widgets import Footer, Header, Input, Static, TabbedContent

from explorer.demo import demo_session
from explorer.tui.app import ExplorerApp
from explorer.tui.screens.dialogs import ErrorScreen
from explorer.tui.screens.help import HelpScreen
from explorer.tui.widgets.link_tree import LinkTree
from explorer.tui.widgets.page_view import PageView
from explorer.tui.widgets.presenter_overlay import PresenterOverlay
from explorer.tui.widgets.status_bar import StatusBar
from tests.tui.conftest import colour_of, theme_colour, wait_until
from tests.tui.screen_text import region_text, rows_of
from tests.tui.test_status import bar, bar_shows


def dialog(explorer) -> str:
    """The text of the error document's dialog, as shown: its fields a row a line (a value wraps
    under itself), then the rest (the document as received)."""
    screen = explorer.app.screen
    assert isinstance(screen, ErrorScreen)
    fields = rows_of(region_text(explorer.app, screen.query_one("#fields", Static)))
    return "\n".join([*fields, *(str(widget.render()) for widget in screen.query(Static) if widget.id != "fields")])


async def error_dialog(explorer) -> str:
    """Press x and read the whole error document."""
    await explorer.pilot.press("x")
    await explorer.until_screen(ErrorScreen)
    return dialog(explorer)


def overlay(explorer) -> str:
    """The presenter's overlay on the screen on top ("" while that screen is still being put up)."""
    overlays = explorer.app.screen.query(PresenterOverlay)
    return str(overlays.first().render()) if overlays else ""


@pytest.mark.screen
async def test_presenter_shows_each_key_what_it_does_and_what_it_sent(open_explorer):
    async with open_explorer(app_options={"presenter": True}) as explorer:
        assert explorer.app.theme == "projector"
        # Requests reach the overlay at its next tick (every 0.2 s), or at the next key.
        await explorer.until(lambda: "GET /  200" in overlay(explorer))
        assert "POST /api/oauth/token  200" in overlay(explorer)
        await explorer.open("groups")
        await explorer.until(lambda: "→ GET /groups  200 · " in overlay(explorer))
        assert " enter  Select\n  → GET /groups  200 · " in overlay(explorer)
        await explorer.pilot.press("down", "down")
        assert " down  Cursor Down ×2" in overlay(explorer)  # repeats fold into one line
        await explorer.pilot.press("right_square_bracket")
        await explorer.pilot.press("question_mark")  # help is a screen of its own: the overlay is there too
        await explorer.until_screen(HelpScreen)
        await explorer.until(lambda: " ?  Help" in overlay(explorer))
        assert colour_of(explorer.app.screen.query_one(PresenterOverlay), "GET") == theme_colour(
            explorer.app, "status-2xx"
        )


@pytest.mark.screen
@pytest.mark.parametrize("size", [(80, 24), (140, 40)])
async def test_the_presenter_strip_takes_its_own_rows_and_hides_nothing(open_explorer, size):
    async with open_explorer(size=size, app_options={"presenter": True}) as explorer:
        await explorer.open("groups")  # a list: the table in the Page pane
        strip = explorer.app.screen.query_one(PresenterOverlay)
        await explorer.until(lambda: "→ GET /groups  200 · " in overlay(explorer))
        await explorer.pilot.pause()
        content = [
            *explorer.app.screen.query(Header),
            explorer.q(LinkTree),
            explorer.q(TabbedContent),
            *[widget for widget in explorer.q(PageView).query("*") if widget.display],
            explorer.q(StatusBar),
            *explorer.app.screen.query(Footer),
        ]
        for widget in content:
            assert widget.region.height > 0, widget
            assert not widget.region.overlaps(strip.region), (widget, widget.region, strip.region)
        shown = region_text(explorer.app, strip)
        assert "keys and requests" in shown and "enter  Select\n   → GET /groups  200 · " in shown, shown
        assert "page 1 of 1 · 5 items" in region_text(explorer.app, explorer.q(PageView))
        assert "production" in region_text(explorer.app, explorer.q(LinkTree))
        assert region_text(explorer.app, explorer.q(StatusBar)).startswith(" read-only · token valid 60:00")


@pytest.mark.screen
async def test_presenter_shows_what_is_typed_in_one_line_under_the_key_that_asked(open_explorer):
    async with open_explorer(size=(200, 50), app_options={"presenter": True}) as explorer:
        await explorer.pilot.press("g")
        await explorer.until(lambda: isinstance(explorer.app.focused, Input))
        await explorer.pilot.press(*"/orgs", "enter")
        await explorer.until(lambda: "→ GET /orgs  200 · " in overlay(explorer))
        shown = overlay(explorer)
        assert " g  Go to\n" in shown and " /orgs  typing\n" in shown, shown  # not a line a letter


@pytest.mark.screen
async def test_presenter_shows_keys_typed_in_one_breath_as_what_they_did(open_explorer):
    """`g/orgs` sent at once (tmux's send-keys): the letters were typing, not Reload and Save body."""
    async with open_explorer(size=(200, 50), app_options={"presenter": True}) as explorer:
        for key, character in [("g", "g"), ("slash", "/"), *((c, c) for c in "orgs"), ("enter", "\r")]:
            explorer.app.post_message(events.Key(key, character))
        await explorer.until(lambda: "→ GET /orgs  200 · " in overlay(explorer))
        shown = overlay(explorer)
        assert " g  Go to\n" in shown and " /orgs  typing\n" in shown, shown
        assert "Reload" not in shown and "Save" not in shown, shown


@pytest.mark.screen
async def test_presenter_never_shows_a_secret_being_typed(tmp_path):
    app = ExplorerApp(None, demo=demo_session, settings_path=tmp_path / "c.toml", presenter=True)
    async with app.run_test(size=(160, 40)) as pilot:
        await wait_until(lambda: app.screen.query(PresenterOverlay) and app.screen.query("#secret"), 5.0, pilot)
        await pilot.click("#secret")
        await pilot.press(*"hunter2")
        await wait_until(lambda: "×7" in str(app.screen.query_one(PresenterOverlay).render()), 5.0, pilot)
        shown = str(app.screen.query_one(PresenterOverlay).render())
        assert "hunter2" not in shown and "h" not in shown.split("typing a secret")[0][-6:]
        assert "•  typing a secret ×7" in shown


@pytest.mark.screen
async def test_expiry_a_token_of_60_s_counts_down_and_is_renewed(open_explorer):
    async with open_explorer(scenario="expiry") as explorer:
        assert bar(explorer).startswith("read-only · token valid 01:00 · 0 refreshes")
        explorer.clock.advance(55)
        assert (await bar_shows(explorer, "00:05")).startswith("read-only · token valid 00:05 · 0 refreshes")
        await explorer.open("orgs")
        assert bar(explorer).startswith("read-only · token valid 01:00 · 1 refresh ")


@pytest.mark.screen
async def test_rate_limit_the_meter_empties_then_a_429_and_its_countdown(open_explorer):
    async with open_explorer(scenario="rate-limit", gated=True) as explorer:
        await explorer.open("groups")
        await explorer.open("groups", "production")
        titles = iter(child.data.title for child in explorer.node("groups", "production").children)
        while "rate limit ░░░░░ 0 of 5 left" not in bar(explorer):
            await explorer.open("groups", "production", next(titles))
        assert colour_of(explorer.q("StatusBar"), "░") == theme_colour(explorer.app, "meter-held")
        await explorer.cursor_to(explorer.node("groups", "production", next(titles)))
        await explorer.pilot.press("enter")
        await explorer.until(lambda: explorer.gate.waits)
        assert [e.status for e in explorer.app.session.log][-1] == 429
        assert " │ rate limit ░░░░░ held 40s  token endpoint ████░ " in await bar_shows(explorer, "held")
        explorer.gate.open.set()
        await explorer.settle()
        assert [e.status for e in explorer.app.session.log][-1] == 200


@pytest.mark.screen
async def test_token_bucket_the_429_is_on_the_bar_while_it_is_waited_out_and_r_does_not_hammer(open_explorer):
    async with open_explorer(scenario="token-bucket", gated=True) as explorer:
        await explorer.open("groups")
        project = await explorer.open("groups", "production")
        while [e.status for e in explorer.app.session.log][-1] != 429:  # the burst of 20, then a refusal
            await explorer.cursor_to(project)
            await explorer.pilot.press("r")
            await explorer.until(lambda: explorer.gate.waits or explorer.idle())
        shown = await bar_shows(explorer, "held")
        assert " │ 429 Too Many Requests · " in shown and " │ rate limit ░░░░░ held 10s  " in shown, shown
        assert "These endpoints take a burst of 20 requests, refilled at 5 every 10 s." in await error_dialog(explorer)
        await explorer.pilot.press("escape")
        sent = len(explorer.app.session.log)
        await explorer.pilot.press("r")  # again, while the 429's wait runs: held too, not sent to be refused
        await explorer.until(lambda: len(explorer.gate.waits) == 2)
        assert len(explorer.app.session.log) == sent and "held" in bar(explorer)
        explorer.gate.open.set()
        await explorer.settle()
        assert [e.status for e in explorer.app.session.log][-1] == 200
        assert "⚠" not in bar(explorer) and "rate limit █░░░░ 4 of 20 left" in bar(explorer), bar(explorer)


@pytest.mark.screen
async def test_token_bucket_rate_limits_table_shows_what_is_left_in_each_bucket(open_explorer):
    """The lesson's last step: open rateLimits, read each bucket's count in the table, the spent first."""
    async with open_explorer(scenario="token-bucket") as explorer:
        await explorer.open("groups")
        project = await explorer.open("groups", "staging")
        for _ in range(3):
            await explorer.cursor_to(project)
            await explorer.pilot.press("r")
            await explorer.settle()
        await explorer.open("rateLimits")
        table = region_text(explorer.app, explorer.q(PageView)).splitlines()
        header = next(line for line in table if line.startswith("id "))
        assert header.split()[:3] == ["id", "name", "buckets[].remaining"], header  # on screen without scrolling
        rows = {line.split()[0]: line for line in table if line.split() and line.split()[0].endswith("Reads")}
        spent_first = "staging 16, production 20, analytics 20, empty-sandbox 20, …"  # a cell is a line's worth
        assert rows["projectReads"].endswith(f"Project reads       {spent_first}"), rows
        assert "Acme Corp 10, Globex Training 10" in rows["organizationReads"]


@pytest.mark.screen
async def test_access_list_the_refusal_and_its_hint(open_explorer):
    async with open_explorer(scenario="access-list") as explorer:
        assert "403 Forbidden · access_denied" in bar(explorer)
        document = await error_dialog(explorer)
        assert "IP access list validation failed for the service account." in document
        assert "does not allow your address" in document


@pytest.mark.screen
async def test_outage_bursts_of_503_are_waited_out(open_explorer):
    async with open_explorer(scenario="outage", gated=True) as explorer:
        explorer.clock.advance(50)  # 45 s of service, then the burst
        await explorer.cursor_to(explorer.node("orgs"))
        await explorer.pilot.press("enter")
        await explorer.until(lambda: explorer.gate.waits)
        assert [e.status for e in explorer.app.session.log][-1] == 503
        # Retry-After: to the end of the burst; /orgs is under no project's limit
        assert " │ request held 10s  token endpoint " in await bar_shows(explorer, "held")
        explorer.gate.open.set()
        await explorer.settle()
        assert explorer.node("orgs").data.resource.status == 200


@pytest.mark.screen
async def test_bad_credentials_the_401_from_the_token_endpoint_and_its_hint(open_explorer):
    async with open_explorer(scenario="bad-credentials") as explorer:
        assert "401 Unauthorized · invalid_client" in bar(explorer)
        assert "✗ 401" in explorer.link_tree.root.label.plain
        assert "Check the client ID and secret" in await error_dialog(explorer)


@pytest.mark.subprocess
def test_scenarios_on_the_command_line():
    for scenario, exit_code, said in (("bad-credentials", 4, "invalid_client"), ("expiry", 0, "")):
        ran = subprocess.run(
            [sys.executable, "-m", "explorer", "get", "--scenario", scenario, "/"],
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert ran.returncode == exit_code and said in ran.stderr, ran.stderr
    ran = subprocess.run(
        [sys.executable, "-m", "explorer", "--scenario", "nope"], capture_output=True, text=True, timeout=60
    )
    assert ran.returncode == 2 and "invalid choice: 'nope'" in ran.stderr


async def test_presenter_says_tab_on_the_login_form_in_words(tmp_path):
    app = ExplorerApp(None, demo=demo_session, settings_path=tmp_path / "c.toml", presenter=True)
    async with app.run_test(size=(160, 40)) as pilot:
        await wait_until(lambda: app.screen.query(PresenterOverlay) and app.screen.query("#secret"), 5.0, pilot)
        await pilot.press("tab")
        await wait_until(lambda: "tab" in str(app.screen.query_one(PresenterOverlay).render()), 5.0, pilot)
        shown = str(app.screen.query_one(PresenterOverlay).render())
        assert "Next field" in shown and "focus_next" not in shown


@pytest.mark.screen
async def test_at_60_columns_a_long_request_is_cut_in_its_path_not_in_its_figures(open_explorer):
    """`→ GET /groups/…/events  503 · 1` then ` ms` on the next line: the path gives way instead."""
    async with open_explorer(size=(60, 24), app_options={"presenter": True}) as explorer:
        await explorer.go_to("/groups/687b4c139cc9af4ec9546b43/events?pageNum=2&itemsPerPage=5")
        strip = explorer.app.screen.query_one(PresenterOverlay)
        await explorer.until(lambda: "itemsPerPage=5  200 · " in region_text(explorer.app, strip))
        line = next(line for line in region_text(explorer.app, strip).splitlines() if "→ GET" in line)
        assert line.startswith("   → GET …") and line.endswith(" ms"), line
        assert "/events?pageNum=2&itemsPerPage=5  200 · " in line, "the resource and its page stay, as in the Log"
