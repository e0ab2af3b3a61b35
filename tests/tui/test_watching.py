"""Watching (w), comparing (m, =) and the JSON pane's jq filter (|), pressed as a person presses them,
against the sandbox over a real socket. The session's waits are steps the test lets through one at a
time, moving the fake clock the sandbox shares: a watch's every fetch is the test's to allow."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

import httpx
import pytest
from textual import events
from textual.widgets import Input

from explorer.api.config import Credentials
from explorer.api.options import Clocks
from explorer.api.secret import Secret
from explorer.api.session import Session
from explorer.sandbox import Settings, create_app
from explorer.sandbox.links import API_ROOT
from explorer.tui.screens.compare import CompareScreen
from explorer.tui.screens.dialogs import ErrorScreen
from explorer.tui.screens.main import MainScreen
from explorer.tui.widgets.json_pane import JsonPane
from explorer.tui.widgets.json_view import JsonView
from explorer.tui.widgets.status_bar import StatusBar
from explorer.tui.widgets.watch_view import WatchView
from tests.conftest import FakeClock
from tests.tui.conftest import Explorer, explorer_on
from tests.tui.screen_text import screen_text


@dataclass
class Steps:
    """The session's way to wait: each wait goes through when the test says (`allow`), and moves the clock."""

    clock: FakeClock
    waits: list[float] = field(default_factory=list)
    allowed: asyncio.Semaphore = field(default_factory=lambda: asyncio.Semaphore(0))

    async def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)
        await self.allowed.acquire()
        self.clock.advance(seconds)

    def allow(self, count: int = 1) -> None:
        for _ in range(count):
            self.allowed.release()


@dataclass
class Watched:
    explorer: Explorer
    steps: Steps
    world: object
    size: tuple[int, int]

    def project(self):
        return self.world.project_named("production")

    def cluster(self, at: int = 0):
        return list(self.project().clusters.values())[at]

    def path(self, at: int = 0) -> str:
        return f"/groups/{self.project().id}/clusters/{self.cluster(at).name}"


class Unplugged(httpx.AsyncBaseTransport):
    """The network, until the test pulls the plug: then no request reaches the service."""

    def __init__(self) -> None:
        self.network = httpx.AsyncHTTPTransport()
        self.pulled = False

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if self.pulled:
            raise httpx.ConnectError("All connection attempts failed", request=request)
        return await self.network.handle_async_request(request)

    async def aclose(self) -> None:
        await self.network.aclose()


@asynccontextmanager
async def watching(
    live_server, clock: FakeClock, size: tuple[int, int] = (160, 50), transport: httpx.AsyncBaseTransport | None = None
) -> AsyncIterator[Watched]:
    server, switchboard = live_server
    sandbox = create_app(Settings(clock=clock))
    switchboard.app = sandbox
    defaults = Settings()
    credentials = Credentials(
        server.url + API_ROOT, client_id=defaults.client_id, client_secret=Secret(defaults.client_secret)
    )
    steps = Steps(clock)
    session = Session(credentials, clocks=Clocks(wall=clock, sleep=steps), transport=transport)
    async with explorer_on(session, clock, size=size) as explorer:
        yield Watched(explorer, steps, sandbox.state.sandbox.world, size)


async def answer(explorer: Explorer, typed: str) -> None:
    """Type into the dialog that asks (watch's condition, the jq filter, a file) and press Enter."""
    await explorer.until(lambda: isinstance(explorer.app.focused, Input))
    field_ = explorer.app.focused
    field_.value = typed
    await explorer.pilot.press("enter")
    await explorer.until(lambda: not isinstance(explorer.app.focused, Input))


async def watch_in_view(w: Watched, condition: str) -> None:
    """Go to the first cluster, press w and answer the condition (Enter alone for "")."""
    await w.explorer.go_to(w.path())
    await w.explorer.pilot.press("w")
    await answer(w.explorer, condition)


def timeline(explorer: Explorer) -> str:
    return explorer.screen.query_one(WatchView).text().plain


def status(explorer: Explorer) -> str:
    return explorer.screen.query_one(StatusBar).line(explorer.screen.query_one(StatusBar).content_size.width).plain


def tree_line(explorer: Explorer) -> str:
    return explorer.link_tree.cursor_node.label.plain


@pytest.mark.screen
async def test_w_watches_a_cluster_until_its_condition_holds_and_shows_each_change(live_server, clock):
    async with watching(live_server, clock) as w:
        explorer = w.explorer
        w.cluster().fields["stateName"] = "UPDATING"
        await watch_in_view(w, '.stateName == "IDLE"')
        name = w.cluster().name
        await explorer.until(lambda: "◉ Watching" in timeline(explorer))
        assert explorer.screen.query_one("TabbedContent").active == "watch"
        assert "#1  200 · first seen" in timeline(explorer)
        assert 'until .stateName == "IDLE"' in timeline(explorer)
        line = tree_line(explorer)
        assert line.index("◉ watched") < line.index("/groups/")  # beside the title: a narrow tree shows it
        assert f"◉ watching {name}" in status(explorer)
        await explorer.until(lambda: w.steps.waits == [5.0])  # it waits its 5 s before fetching again
        w.steps.allow()
        await explorer.until(lambda: "2 fetches · 1 version" in timeline(explorer))
        assert "#2" not in timeline(explorer)  # nothing changed: no version
        w.cluster().fields["stateName"] = "IDLE"
        w.steps.allow()
        await explorer.until(lambda: "✓ the condition holds" in timeline(explorer))
        assert '#2  ~ .stateName: "UPDATING" → "IDLE"' in timeline(explorer)
        # the toast, the tree, the panes and the bar each take the news in their own turn
        await explorer.until(lambda: f'✓ {name}: .stateName == "IDLE" holds' in explorer.toasts())
        await explorer.until(lambda: "✓ held" in tree_line(explorer))
        await explorer.until(lambda: explorer.current.resource.json["stateName"] == "IDLE")  # the new version shown
        await explorer.until(lambda: "◉ watching" not in status(explorer))
        await explorer.settle()
        assert len(w.steps.waits) == 2  # and it fetches no more


@pytest.mark.screen
async def test_a_condition_that_holds_at_once_is_said_alone(live_server, clock):
    async with watching(live_server, clock) as w:
        explorer = w.explorer
        w.cluster().fields["stateName"] = "IDLE"
        await watch_in_view(w, '.stateName == "IDLE"')
        await explorer.until(lambda: "✓ the condition holds" in timeline(explorer))
        await explorer.until(lambda: "holds" in explorer.toasts())
        assert "Watching" not in explorer.toasts(), explorer.toasts()  # not "every 5 s" beside "✓ … holds"


@pytest.mark.screen
async def test_plus_and_minus_change_a_watch_pace_and_w_stops_it(live_server, clock):
    async with watching(live_server, clock) as w:
        explorer = w.explorer
        await watch_in_view(w, "")
        await explorer.until(lambda: w.steps.waits == [5.0])
        await explorer.pilot.press("plus")
        assert f"Watching {w.cluster().name} every 10 s" in explorer.toasts()
        w.steps.allow()
        await explorer.until(lambda: len(w.steps.waits) == 2)
        assert w.steps.waits == [5.0, 10.0]
        await explorer.pilot.press("minus", "minus", "minus", "minus", "minus")  # to the quickest, and past it
        assert "every 1 s" in timeline(explorer)
        said = explorer.toasts()
        assert said.count("every 1 s (the quickest)") == 1, said  # said once, not once a key
        await explorer.pilot.press("w")
        assert f"Stopped watching {w.cluster().name}" in explorer.toasts()
        assert "■ stopped" in timeline(explorer)
        assert "◉" not in tree_line(explorer)
        fetches = explorer.requests(w.path())
        w.steps.allow(3)
        await explorer.settle()
        assert explorer.requests(w.path()) == fetches


@pytest.mark.screen
async def test_plus_typed_with_the_enter_that_starts_a_watch_changes_its_pace(live_server, clock):
    """`w`, Enter and `++` in one breath (tmux's send-keys): every 15 s; the first `+` came before
    the watch had started, and was lost (every 10 s)."""
    async with watching(live_server, clock) as w:
        explorer = w.explorer
        await explorer.go_to(w.path())
        for key, character in [("w", "w"), ("enter", "\r"), ("plus", "+"), ("plus", "+")]:
            explorer.app.post_message(events.Key(key, character))
        await explorer.until(lambda: isinstance(explorer.app.screen, MainScreen) and "every 15 s" in timeline(explorer))


@pytest.mark.screen
async def test_a_watched_resource_deleted_ends_its_watch_and_its_list_is_shown_without_it(live_server, clock):
    async with watching(live_server, clock) as w:
        explorer = w.explorer
        await explorer.go_to(f"/groups/{w.project().id}/clusters")
        name = w.cluster().name
        await explorer.open("go to", name)
        await explorer.pilot.press("w")
        await answer(explorer, "")
        await explorer.until(lambda: w.steps.waits == [5.0])
        del w.project().clusters[name]
        w.steps.allow()
        await explorer.until(lambda: "✗ deleted: the watch ended" in timeline(explorer))
        assert "deleted: 404 Not Found" in timeline(explorer)
        assert f"{name}: deleted (404); the watch ended" in explorer.toasts()
        await explorer.until(lambda: explorer.current is not None and explorer.current.title == "go to")
        assert name not in [child.data.title for child in explorer.node("go to").children]


@pytest.mark.screen
async def test_a_watched_resource_reached_by_g_and_deleted_shows_its_404_without_its_children(live_server, clock):
    async with watching(live_server, clock) as w:
        explorer = w.explorer
        node = await explorer.go_to(w.path())
        assert node.children, "a cluster shows its relations"
        await explorer.pilot.press("w")
        await answer(explorer, "")
        await explorer.until(lambda: w.steps.waits == [5.0])
        del w.project().clusters[w.cluster().name]
        w.steps.allow()
        await explorer.until(lambda: "✗ deleted: the watch ended" in timeline(explorer))
        await explorer.until(lambda: "404 Not Found" in status(explorer))
        await explorer.settle()
        assert "200 OK" not in status(explorer), status(explorer)
        page = screen_text(explorer.app)
        assert "CLUSTER_NOT_FOUND" in page, page
        assert "stateName" not in page, page
        assert "✗ 404" in node.label.plain and not node.children, [c.label.plain for c in node.children]


@pytest.mark.screen
async def test_a_condition_that_is_not_jq_is_said_as_it_is_typed_and_enter_keeps_it(live_server, clock):
    async with watching(live_server, clock) as w:
        explorer = w.explorer
        await explorer.go_to(w.path())
        await explorer.pilot.press("w")
        await explorer.until(lambda: isinstance(explorer.app.focused, Input))
        explorer.app.focused.value = ".stateName =="
        said = explorer.app.screen.query_one("#problem")
        problem = "Not jq: syntax error, unexpected end of file at <top-level>, line 1, column 12"
        await explorer.until(lambda: str(said.render()) == problem)
        await explorer.pilot.press("enter")
        assert isinstance(explorer.app.focused, Input) and explorer.app.focused.value == ".stateName =="
        assert str(said.render()) == problem
        explorer.app.focused.value = '.stateName == "IDLE"'
        await explorer.until(lambda: str(said.render()) == "")
        await explorer.pilot.press("escape")
        assert explorer.screen.watching.watches == {}


@pytest.mark.screen
async def test_the_watch_question_offers_the_likely_condition(live_server, clock):
    async with watching(live_server, clock, size=(60, 24)) as w:
        explorer = w.explorer
        w.cluster().fields["stateName"] = "CREATING"
        await explorer.go_to(w.path())
        await explorer.pilot.press("w")
        await explorer.until(lambda: isinstance(explorer.app.focused, Input))
        assert explorer.app.focused.placeholder == 'e.g. .stateName == "IDLE" (. then →)'
        await explorer.pilot.pause()
        assert 'e.g. .stateName == "IDLE" (. then →)' in screen_text(explorer.app)  # whole at 60 columns
        (main,) = [screen for screen in explorer.app.screen_stack if isinstance(screen, MainScreen)]
        assert main.jq.child is not None  # jq's own process starts as the question opens
        await explorer.pilot.press("full_stop", "right")
        assert explorer.app.focused.value == '.stateName == "IDLE"'


@pytest.mark.screen
async def test_m_marks_and_equals_compares_two_clusters_field_by_field(live_server, clock):
    async with watching(live_server, clock) as w:
        explorer = w.explorer
        first, second = w.cluster(0).name, w.cluster(1).name
        await explorer.go_to(w.path(0))
        await explorer.pilot.press("m")
        await explorer.until(lambda: f"Marked {first}" in explorer.toasts())
        await explorer.until(lambda: "◆ marked" in tree_line(explorer))
        await explorer.go_to(w.path(1))
        await explorer.pilot.press("equals_sign")
        await explorer.until_screen(CompareScreen)
        shown = explorer.app.screen
        differences = lambda: str(shown.query_one("#differences").render())  # noqa: E731
        summary = lambda: str(shown.query_one("#summary").render())  # noqa: E731
        await explorer.until(lambda: f'~ .name: "{first}" → "{second}"' in differences())
        assert summary().endswith("differences (n hides the ones in links and timestamps)")
        await explorer.pilot.press("n")
        await explorer.until(lambda: "in links and timestamps hidden: n shows them" in summary())
        assert ".links" not in differences()
        await explorer.pilot.press("escape")
        await explorer.until(lambda: not isinstance(explorer.app.screen, CompareScreen))


async def compare_two_clusters(explorer: Explorer, notice: str | None = None) -> None:
    """orders-prod marked, search-prod compared with it (13 differences), with `notice` up or none:
    "Marked …" would take its lines from the dialog (tested elsewhere)."""
    clusters = "/groups/687b4c139cc9af4ec9546b43/clusters"
    await explorer.go_to(f"{clusters}/orders-prod")
    await explorer.pilot.press("m")
    await explorer.go_to(f"{clusters}/search-prod")
    explorer.app.clear_notifications()
    if notice is not None:
        explorer.app.notify(notice, timeout=60)
    await explorer.pilot.press("equals_sign")
    await explorer.until_screen(CompareScreen)


@pytest.mark.screen
async def test_the_comparison_says_how_many_differences_are_out_of_view_and_the_key_to_them(open_explorer):
    async with open_explorer(size=(200, 50)) as explorer:
        await compare_two_clusters(explorer)
        await explorer.pilot.resize_terminal(120, 40)  # as the tester did: the dialog is smaller than it opened
        await explorer.pilot.pause()
        shown = screen_text(explorer.app)
        assert "13 differences" in shown
        assert "… 2 more below (PageDown)" in shown  # the two under the last drawn
        assert "+ .replicationSpecs" in shown and ".stateName" not in shown  # the first of them, cut
        await explorer.pilot.press("pagedown")  # the key the line names takes the person to them
        shown = screen_text(explorer.app)
        assert '+ .replicationSpecs[id=69cab48ae2934bf1d37c9961]: {"id"' in shown
        assert '~ .stateName: "IDLE" → "UPDATING"' in shown
        assert "… 2 more above (PageUp)" in shown  # one cut at the top counts above
        assert "more below" not in shown


@pytest.mark.screen
async def test_a_difference_longer_than_the_view_is_counted_once_in_the_comparison(open_explorer):
    async with open_explorer(size=(60, 24)) as explorer:
        await compare_two_clusters(explorer)
        await explorer.pilot.press("down", "down")  # the connection string's difference fills the view
        await explorer.pilot.pause()
        shown = screen_text(explorer.app)
        assert "… 12 more below (PageDown) · 1 more above (PageUp)" in shown, shown  # 13 in all, not 14
        lines = shown.splitlines()
        beyond = next(at for at, line in enumerate(lines) if "more below" in line)
        assert lines[beyond + 1].strip(" █") == "" and "▄▄▄" in lines[beyond + 2], shown  # then its padding, its border


@pytest.mark.screen
async def test_the_comparisons_counts_are_said_again_when_a_notice_goes(open_explorer):
    async with open_explorer(size=(80, 24)) as explorer:
        await compare_two_clusters(explorer, notice="A notice that takes lines from the dialog")
        beyond = lambda: str(explorer.app.screen.query_one("#beyond").render())  # noqa: E731
        await explorer.until(lambda: "more below" in beyond())
        with_notice = beyond()
        explorer.app.clear_notifications()  # the dialog gets its lines back: more differences show
        await explorer.until(lambda: beyond() != with_notice)
        after = beyond()
        await explorer.pilot.press("escape")
        await explorer.until(lambda: not isinstance(explorer.app.screen, CompareScreen))
        await explorer.pilot.press("equals_sign")  # opened afresh, with no notice: the same counts
        await explorer.until_screen(CompareScreen)
        await explorer.until(lambda: "more below" in beyond())
        assert beyond() == after, (after, beyond(), with_notice)


@pytest.mark.screen
async def test_equals_without_a_mark_compares_with_a_saved_body(live_server, clock, tmp_path):
    async with watching(live_server, clock) as w:
        explorer = w.explorer
        await explorer.go_to(w.path())
        saved = tmp_path / "cluster.json"
        saved.write_bytes(explorer.current.resource.body)
        await explorer.pilot.press("equals_sign")
        await answer(explorer, str(saved))
        await explorer.until_screen(CompareScreen)
        assert str(explorer.app.screen.query_one("#summary").render()) == "The same: no differences"
        await explorer.pilot.press("escape")
        saved.write_text("{not json")
        await explorer.pilot.press("equals_sign")
        await explorer.until(lambda: isinstance(explorer.app.focused, Input))
        explorer.app.focused.value = str(saved)
        await explorer.pilot.press("enter")  # asked again, as typed, saying why
        await explorer.until(
            lambda: f"file {saved} is not JSON" in str(explorer.app.screen.query_one("#problem").render())
        )
        assert explorer.app.focused.value == str(saved)


@pytest.mark.screen
async def test_the_jq_filter_shows_what_it_makes_of_the_document_and_says_when_it_cannot(live_server, clock):
    async with watching(live_server, clock) as w:
        explorer = w.explorer
        await explorer.go_to(w.path())
        await explorer.pilot.press("vertical_line")
        await answer(explorer, ".name, .stateName")
        view = explorer.screen.query_one(JsonView)
        await explorer.until(lambda: (view.filtered or "").endswith("2 results (as an array)"))
        assert json.loads("\n".join(view.lines)) == [w.cluster().name, "IDLE"]
        assert explorer.screen.query_one("TabbedContent").active == "json"
        await explorer.pilot.press("vertical_line")
        await explorer.until(lambda: isinstance(explorer.app.focused, Input))
        explorer.app.focused.value = ".name |"  # said under the line as it is typed; Enter keeps it
        problem = explorer.app.screen.query_one("#problem")
        await explorer.until(lambda: str(problem.render()).startswith("Not jq: syntax error"))
        await explorer.pilot.press("enter")
        assert explorer.app.focused.value == ".name |"
        await explorer.pilot.press("escape")
        await explorer.pilot.press("vertical_line")
        await answer(explorer, "until(false; .)")
        await explorer.until(lambda: "did not end within 2 s" in (view.filtered or ""))
        assert (
            view.filtered
            == "| until(false; .): the jq program did not end within 2 s, and was stopped (the document as it is)"
        )
        await explorer.pilot.press("vertical_line")
        await answer(explorer, "")
        await explorer.until(lambda: view.filtered is None)
        assert json.loads("\n".join(view.lines))["name"] == w.cluster().name
        assert explorer.screen.query_one(JsonPane).program is None


@pytest.mark.screen
async def test_the_jq_filter_question_says_how_to_clear_the_filter_it_opens_holding(live_server, clock):
    async with watching(live_server, clock) as w:
        explorer = w.explorer
        await explorer.go_to(w.path())
        await explorer.pilot.press("vertical_line")
        await answer(explorer, ".name")
        view = explorer.screen.query_one(JsonView)
        await explorer.until(lambda: (view.filtered or "").startswith("| .name"))
        await explorer.pilot.press("vertical_line")
        await explorer.until(lambda: isinstance(explorer.app.focused, Input))
        assert explorer.app.focused.value == ".name"  # the filter on, to change
        question = " ".join(str(explorer.app.screen.query_one("Label").render()).split())
        assert question == "Filter the JSON pane with jq (ctrl+u then Enter: the whole document again):"
        await explorer.pilot.press("ctrl+u", "enter")  # as the question says
        await explorer.until(lambda: view.filtered is None)
        assert json.loads("\n".join(view.lines))["name"] == w.cluster().name


@pytest.mark.screen
@pytest.mark.parametrize("width", [80, 60])
async def test_a_crowded_status_bar_keeps_the_watched_name_cut_not_a_bare_count(live_server, clock, width):
    """The bar shortened a watch to `◉ 1`, which says nothing of what is watched: it keeps the name,
    cut with an ellipsis."""
    async with watching(live_server, clock, size=(width, 24)) as w:
        explorer = w.explorer
        project = w.project()
        project.fields["name"] = "production-analytics-eu-west-1"
        await explorer.go_to(f"/groups/{project.id}")
        await explorer.pilot.press("w")
        await answer(explorer, "")
        await explorer.until(lambda: "◉" in status(explorer))
        shown = status(explorer)
        assert " │ ◉ production-an… │ " in f"{shown} │ ", shown
        assert len(shown) <= width - 2, shown


@pytest.mark.screen
async def test_a_watch_of_a_project_reached_by_g_is_called_by_its_name_not_its_id(live_server, clock):
    async with watching(live_server, clock) as w:
        explorer = w.explorer
        await explorer.go_to(f"/groups/{w.project().id}")
        await explorer.pilot.press("w")
        await answer(explorer, "")
        await explorer.until(lambda: "Watching production every 5 s" in explorer.toasts())
        assert timeline(explorer).startswith("◉ Watching production · every 5 s"), timeline(explorer)
        await explorer.until(lambda: "◉ watching production" in status(explorer))
        assert w.project().id not in status(explorer)


async def error_shown_by_x(explorer: Explorer) -> str:
    """Press x and read the error document it opens, then close it."""
    await explorer.pilot.press("x")
    await explorer.until_screen(ErrorScreen)
    said = screen_text(explorer.app)
    await explorer.pilot.press("escape")
    await explorer.until(lambda: isinstance(explorer.app.screen, MainScreen))
    return said


@pytest.mark.screen
async def test_x_shows_a_watchs_404_not_an_older_400(live_server, clock):
    async with watching(live_server, clock) as w:
        explorer = w.explorer
        await explorer.go_to("/groups?itemsPerPage=99999999999999999999")  # a 400: the last error so far
        assert "INVALID_" in await error_shown_by_x(explorer)
        await explorer.go_to(f"/groups/{w.project().id}/clusters")
        name = w.cluster().name
        await explorer.open("go to", name)
        await explorer.pilot.press("w")
        await answer(explorer, "")
        await explorer.until(lambda: w.steps.waits == [5.0])
        del w.project().clusters[name]
        w.steps.allow()
        await explorer.until(lambda: "✗ deleted: the watch ended" in timeline(explorer))
        await explorer.settle()
        said = await error_shown_by_x(explorer)
        assert "CLUSTER_NOT_FOUND" in said and "INVALID_" not in said, said


@pytest.mark.screen
async def test_x_shows_a_watchs_network_error_not_an_older_400(live_server, clock):
    unplugged = Unplugged()
    async with watching(live_server, clock, transport=unplugged) as w:
        explorer = w.explorer
        await explorer.go_to("/groups?itemsPerPage=99999999999999999999")
        await watch_in_view(w, "")
        await explorer.until(lambda: w.steps.waits == [5.0])
        unplugged.pulled = True
        w.steps.allow()
        await explorer.until(lambda: "⚠ Network error" in timeline(explorer))
        said = await error_shown_by_x(explorer)
        assert "All connection attempts failed" in said and "INVALID_" not in said, said


@pytest.mark.screen
async def test_w_stopping_a_watch_takes_its_mark_off_the_status_bars_copy_of_the_cursor_line(live_server, clock):
    async with watching(live_server, clock, size=(100, 30)) as w:
        explorer = w.explorer
        await watch_in_view(w, "")
        await explorer.until(lambda: w.steps.waits == [5.0])
        explorer.link_tree.focus()
        await explorer.pilot.press(*["less_than_sign"] * 8)  # the tree at its narrowest cuts the cursor's line
        await explorer.until(lambda: "◉ watched" in status(explorer))  # the narrow tree cuts the line: the bar says it
        await explorer.pilot.press("w")
        await explorer.until(lambda: "■ stopped" in timeline(explorer))
        await explorer.until(lambda: "◉" not in tree_line(explorer))
        await explorer.settle()
        assert "◉" not in status(explorer), status(explorer)


@pytest.mark.screen
async def test_two_links_alike_at_the_start_are_compared_from_where_they_differ(open_explorer):
    """Two clusters' self links share the whole origin and project: the line shows them from a
    little before the cluster's name, so a narrow pane does not cut the difference off."""
    async with open_explorer(size=(100, 40)) as explorer:
        await compare_two_clusters(explorer)
        lines = str(explorer.app.screen.query_one("#differences").render())
        assert '~ .links[rel=self].href: "…/clusters/orders-prod" → "…/clusters/search-prod"' in lines


@pytest.mark.screen
async def test_the_watch_pane_says_the_watch_at_once_not_after_its_first_fetch(open_explorer):
    """The pane opened on `w` said "Nothing is watched" until the first fetch (and its condition)
    came back: with a service a second away, a second of a wrong word."""
    async with open_explorer() as explorer:
        await explorer.go_to("/groups/687b4c139cc9af4ec9546b43/clusters/orders-prod")
        explorer.slow_down(5000)  # the first answer well after the look below, however loaded the machine
        await explorer.pilot.press("w")
        await answer(explorer, '.stateName == "UPDATING"')
        pane = explorer.screen.query_one(WatchView)
        await explorer.pilot.pause()
        assert pane.text().plain.startswith("◉ Watching orders-prod"), pane.text().plain
        assert explorer.screen.watching.running()[0].fetches == 0  # before its first answer
