"""The explorer screen, driven by Pilot, on an in-process sandbox sharing a fake clock."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from typing import Any

import pytest
from textual import events
from textual.pilot import Pilot
from textual.widgets import Input

from explorer.api.config import Credentials
from explorer.api.options import Clocks
from explorer.api.secret import Secret
from explorer.api.session import Session
from explorer.api.writes import WritePolicy
from explorer.demo import demo_session
from explorer.sandbox import Settings, create_app
from explorer.sandbox.scenarios import scenario_named
from explorer.tui.app import ExplorerApp
from explorer.tui.palette import PaletteApp
from explorer.tui.screens.main import MainScreen
from explorer.tui.widgets.json_pane import JsonPane
from explorer.tui.widgets.link_tree import LinkTree
from tests.conftest import FakeClock
from tests.hostile_service import ROOT_PATH, HostileService

# How long a screen test waits for what it expects before it fails. Generous on purpose: a CI machine
# runs two workers on two cores beside other work, and a wait that holds returns at once, so only a
# failing test pays it. A test never waits less to prove that something is quick (benchmarks do that).
PATIENCE = 30.0
# Seconds a notice with no timeout of its own stays in the screen tests (5 for a user): a loaded machine
# can take longer than 5 s between a notice and the test's look at it (two did, in a run under load).
LASTING = 600.0


@dataclass
class Gate:
    """A sleep the test opens: waits until released, moving the fake clock by what was asked."""

    clock: FakeClock
    waits: list[float] = field(default_factory=list)
    open: asyncio.Event = field(default_factory=asyncio.Event)

    async def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)
        await self.open.wait()
        self.clock.advance(seconds)


class Held:
    """A sandbox (an ASGI app) that holds every request until the test opens it: what a screen shows
    while an answer is on its way, seen however loaded the machine, without a latency to outwait."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.state = app.state
        self.open = asyncio.Event()

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            await self.open.wait()
        await self.app(scope, receive, send)


@dataclass
class Explorer:
    pilot: Pilot
    app: ExplorerApp
    sandbox: Any
    clock: FakeClock
    gate: Gate | None

    @property
    def screen(self) -> MainScreen:
        assert isinstance(self.app.screen, MainScreen), self.app.screen
        return self.app.screen

    @property
    def current(self) -> Any:
        """The node whose resource the panes show (a nodes.Node)."""
        return self.screen.navigation.current

    @property
    def link_tree(self) -> LinkTree:
        return self.q(LinkTree)

    def q(self, selector: Any, kind: Any = None) -> Any:
        """A widget of the screen on top (dialogs included)."""
        return self.app.screen.query_one(selector, kind) if kind else self.app.screen.query_one(selector)

    async def until(self, condition: Callable[[], Any], timeout: float = PATIENCE) -> None:
        """Let the app run until `condition` holds (fetches are real, in process)."""
        await wait_until(condition, timeout, self.pilot)

    async def until_screen(self, kind: type[Any], timeout: float = PATIENCE) -> None:
        """Let the app run until a screen of `kind` is on top with its widgets: a pushed screen is on
        the stack before it has composed them, and a loaded machine shows the gap."""
        await self.until(lambda: isinstance(self.app.screen, kind) and self.app.screen.is_mounted, timeout)

    def idle(self) -> bool:
        """Nothing fetched, nothing worked on, no line still to scroll into view: what is on the screen is
        what there is."""
        return (
            self.screen.navigation.fetching is None
            and all(worker.is_finished for worker in self.app.workers)
            and self.link_tree.showing is None
        )

    async def settle(self) -> None:
        await self.until(self.idle)
        await self.pilot.pause()

    def node(self, *titles: str):
        """The tree node reached by these titles from the root."""
        node = self.link_tree.root
        for title in titles:
            node = next(child for child in node.children if child.data and child.data.title == title)
        return node

    async def cursor_to(self, node: Any) -> None:
        """Move the tree's cursor to a node with the arrow keys, as a user would."""
        tree = self.link_tree
        if self.app.focused is not tree:
            tree.focus()
            await self.pilot.pause()
        _ = tree.last_line  # lines worked out, so the node has its number
        assert node.line >= 0, f"{node.label.plain!r} is not on a line of the tree (folded away)"
        steps = node.line - tree.cursor_line
        self.hold_key("down" if steps > 0 else "up", abs(steps))
        await self.until(lambda: tree.cursor_node is node)

    def hold_key(self, key: str, times: int) -> None:
        """A key held down until it repeats `times` times: the events come as fast as a terminal
        sends them, without the pilot's pause after each (40 ms a key, which adds up in a tree)."""
        for _ in range(times):
            self.app.post_message(events.Key(key, None))

    async def open(self, *titles: str) -> Any:
        """Move the cursor to a node and press Enter, as a user would; wait for the fetch."""
        node = self.node(*titles)
        await self.cursor_to(node)
        await self.pilot.press("enter")
        await self.settle()
        return node

    def slow_down(self, ms: int) -> None:
        """Every request from now on takes `ms` longer, as the sandbox's control endpoint makes it."""
        self.sandbox.state.sandbox.faults.latency_ms = ms

    def toasts(self) -> str:
        """The text of the notifications on the screen now."""
        return toasts_of(self.app)

    async def go_to(self, target: str) -> Any:
        """Press g, paste the target and press Enter, as a user would; wait for the fetch."""
        await self.pilot.press("g")
        await self.until(lambda: isinstance(self.app.focused, Input))
        field = self.app.focused
        self.app.post_message(events.Paste(target))  # a bracketed paste, as a terminal sends it
        await self.until(lambda: field.value == target)
        await self.pilot.press("enter")
        await self.settle()
        return self.link_tree.cursor_node

    def requests(self, path_end: str = "") -> int:
        return sum(1 for e in self.app.session.log if e.url.split("?")[0].endswith(path_end))


async def wait_until(condition: Callable[[], Any], timeout: float = PATIENCE, pilot: Pilot | None = None) -> None:
    """The one wait of the screen tests: until `condition` holds, for `timeout` seconds at most.

    With a pilot, the app runs its queue between looks; without one (the app has quit), the loop does.
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        if loop.time() > deadline:
            raise AssertionError(f"the screen did not get there in {timeout:g} s")
        await (pilot.pause(0.02) if pilot is not None and pilot.app.is_running else asyncio.sleep(0.02))


def started(app: Any) -> bool:
    """The explorer screen is up and its root has come back (with a resource or a failure)."""
    from explorer.tui.screens.main import MainScreen

    root = app.screen.navigation.root if isinstance(app.screen, MainScreen) else None
    return root is not None and (root.resource is not None or root.error is not None)


def problem_said(app: Any) -> str:
    """What the dialog on top says is wrong with what was typed (a file that exists), its lines joined."""
    problems = app.screen.query("#problem")
    return " ".join(str(problems.first().render()).split()) if problems else ""


def toasts_of(app: Any) -> str:
    return "\n".join(str(toast.render()) for toast in app.screen.query("Toast"))


@pytest.fixture
def open_explorer(clock: FakeClock) -> Callable[..., Any]:
    @asynccontextmanager
    async def opener(
        size: tuple[int, int] = (160, 50),
        gated: bool = False,
        scenario: str | None = None,
        app_options: dict[str, Any] | None = None,
        writes: bool = False,
        held: bool = False,
        **settings: Any,
    ) -> AsyncIterator[Explorer]:
        base = replace(Settings(clock=clock), **settings)
        sandbox = create_app(scenario_named(scenario).settings(base) if scenario else base)
        if held:  # open to begin with; the test clears `explorer.sandbox.open` to hold what comes next
            sandbox = Held(sandbox)
            sandbox.open.set()
        gate = Gate(clock) if gated else None
        options: dict[str, Any] = {"clocks": Clocks(sleep=gate)} if gate else {}
        if writes:
            options["writes"] = WritePolicy(True, "--writes")
        session = demo_session(
            Settings(clock=clock, **{k: v for k, v in settings.items() if "limit" in k}),
            app=sandbox,
            scenario=scenario,
            **options,
        )
        app = ExplorerApp(session, demo=lambda: demo_session(Settings(clock=clock)), **(app_options or {}))
        app.animation_level = "none"  # tests wait for the screen, not for sliding underlines
        app.NOTIFICATION_TIMEOUT = LASTING  # a notice stays until taken back, however slow the machine
        async with app.run_test(size=size, notifications=True) as pilot:  # toasts shown, as to a user
            explorer = Explorer(pilot, app, sandbox, clock, gate)
            await explorer.until(lambda: started(app))
            await explorer.settle()
            yield explorer

    return opener


@asynccontextmanager
async def explorer_on(session: Session, clock: FakeClock, size: tuple[int, int] = (160, 50)) -> AsyncIterator[Explorer]:
    """The screen on any session (a replay, a recorded session), with no sandbox of its own."""
    app = ExplorerApp(session, demo=lambda: demo_session(Settings(clock=clock)))
    app.animation_level = "none"
    app.NOTIFICATION_TIMEOUT = LASTING
    async with app.run_test(size=size, notifications=True) as pilot:
        driven = Explorer(pilot, app, None, clock, None)
        await driven.until(lambda: started(app))
        await driven.settle()
        yield driven


@pytest.fixture
async def explorer(open_explorer) -> AsyncIterator[Explorer]:
    async with open_explorer() as opened:
        yield opened


def colour_of(widget: Any, needle: str) -> str:
    """The foreground colour (#RRGGBB) the widget draws the first character of `needle` in."""
    from textual.color import Color
    from textual.geometry import Region

    for strip in widget.render_lines(Region(0, 0, widget.size.width, widget.size.height)):
        text = strip.text
        at = text.find(needle)
        if at < 0:
            continue
        offset = 0
        for segment in strip:
            if offset + len(segment.text) > at:
                assert segment.style and segment.style.color, f"{needle!r} has no colour"
                return Color.from_rich_color(segment.style.color).hex
            offset += len(segment.text)
    raise AssertionError(f"{needle!r} is not drawn by {widget}")


def theme_colour(app: Any, variable: str) -> str:
    from textual.color import Color

    return Color.parse(app.theme_variables[variable]).hex


def json_resource(body: bytes) -> Any:
    """A 200 JSON response with this body, as the session would give it."""
    import httpx

    from explorer.api.resource import Resource

    return Resource(
        method="GET", url="https://h/x", status=200, headers=httpx.Headers({"content-type": "application/json"}),
        request_headers=[], body=body, elapsed=0, received_at=0,
    )  # fmt: skip


class JsonHost(PaletteApp):
    """The JSON pane alone, in an app with the explorer's colours."""

    def compose(self) -> Any:
        yield JsonPane()


@asynccontextmanager
async def on_hostile_service(client: str = "good", **session_options: Any) -> AsyncIterator[Explorer]:
    """The explorer on the hostile service (tests/hostile_service.py) in process, its root answered
    (or refused: `client` names the token endpoint's case, TOKEN_CASES)."""
    import httpx

    service = HostileService("https://hostile.test")
    credentials = Credentials("https://hostile.test" + ROOT_PATH, client_id=client, client_secret=Secret("s"))
    session = Session(credentials, transport=httpx.ASGITransport(app=service), **session_options)
    app = ExplorerApp(session, demo=demo_session)
    app.animation_level = "none"
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(lambda: started(app), pilot=pilot)
        yield Explorer(pilot, app, None, None, None)
