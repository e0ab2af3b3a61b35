"""The screens as goldens, and the docs' screenshots made from them.

Each shot is the demo sandbox driven as a user would, at 120×34, with a fixed seed, clock, request
timer and time zone, so the same code draws the same screen. `tests/tui/test_screens.py` compares
each with its golden through pytest-textual-snapshot (an HTML report shows the difference when one
fails); the docs' pictures in screenshots/ are copies of the goldens:

    python -m tests.screenshots            # remake the goldens, then copy them to screenshots/
    python -m tests.screenshots --check    # the goldens are current and screenshots/ holds them (exit 1 if not)
"""

from __future__ import annotations

import argparse
import itertools
import os
import shutil
import sys
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "screenshots"
GOLDENS = ROOT / "tests" / "tui" / "__snapshots__" / "test_screens"
SIZE = (120, 34)
START = 1_794_999_980.0  # 2026-11-18 11:06:20 UTC, 20 s into a minute (the tests' fake clock)


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def fixed_timer() -> Callable[[], float]:
    """A request timer that moves 3.5 ms each time it is read: requests take 3 or 4 ms, every run."""
    ticks = itertools.count()
    return lambda: next(ticks) * 0.0035


Steps = Callable[[Any], Awaitable[None]]


@dataclass(frozen=True)
class Shot:
    """One screen: how the explorer is opened, and what a user does before it is taken."""

    title: str
    steps: Steps | None = None  # on the driven explorer (tests.tui.conftest.Explorer)
    scenario: str | None = None
    theme: str | None = None
    presenter: bool = False
    gated: bool = False
    login: bool = False  # no credentials yet: the login screen, no steps

    def staged(self) -> tuple[Any, Callable[[Any], Awaitable[None]]]:
        """The app, and what to do with its pilot before the screen is taken (snap_compare's run_before)."""
        from explorer.api.options import Clocks
        from explorer.demo import demo_session
        from explorer.sandbox import Settings, create_app
        from explorer.sandbox.scenarios import scenario_named
        from explorer.tui.app import ExplorerApp
        from explorer.tui.screens.main import MainScreen
        from tests.tui.conftest import Explorer, Gate, wait_until

        if self.login:
            application = ExplorerApp(None, demo=demo_session, settings_path=Path("/nonexistent/config.toml"))
            application.animation_level = "none"
            application.title = self.title

            async def login(pilot: Any) -> None:
                # the form composed and its first field focused (its cursor is in the picture): a pushed
                # screen is on the stack before it has mounted, and a loaded machine shows the gap
                screen = lambda: application.screen  # noqa: E731
                await wait_until(
                    lambda: type(screen()).__name__ == "LoginScreen" and screen().is_mounted and application.focused,
                    pilot=pilot,
                )
                await pilot.pause()

            return application, login

        clock = Clock()
        settings = Settings(clock=clock)
        sandbox = create_app(scenario_named(self.scenario).settings(settings) if self.scenario else settings)
        gate = Gate(clock) if self.gated else None  # type: ignore[arg-type]
        clocks = Clocks(sleep=gate, timer=fixed_timer()) if gate else Clocks(timer=fixed_timer())
        session = demo_session(settings, app=sandbox, scenario=self.scenario, clocks=clocks)
        application = ExplorerApp(
            session, demo=lambda: demo_session(Settings(clock=clock)), theme=self.theme, presenter=self.presenter
        )
        application.animation_level = "none"
        application.title = self.title

        async def run_before(pilot: Any) -> None:
            driven = Explorer(pilot, application, sandbox, clock, gate)  # type: ignore[arg-type]
            await driven.until(
                lambda: isinstance(application.screen, MainScreen) and driven.screen.navigation.root.resource
            )
            await driven.settle()
            if self.steps is not None:
                await self.steps(driven)
            await pilot.pause()
            if application.presenter_feed is not None:
                application.presenter_feed.present()  # not only at its next tick
                await pilot.pause()

        return application, run_before


async def tab(driven: Any, name: str) -> None:
    await driven.pilot.press({"page": "1", "json": "2", "headers": "3", "log": "4"}[name])
    await driven.pilot.pause()


async def open_root(driven: Any) -> None:
    await driven.open("groups")
    await driven.open("orgs")


async def open_events_page_2(driven: Any) -> None:
    await driven.open("groups")
    await driven.open("groups", "production")
    await driven.open("groups", "production", "events")
    await driven.pilot.press("right_square_bracket")
    await driven.settle()


async def open_clusters(driven: Any) -> None:
    """From the root to the production project's clusters, as a user clicks through."""
    await driven.open("groups")
    await driven.open("groups", "production")
    await driven.open("groups", "production", "clusters")


async def open_first_cluster(driven: Any) -> None:
    await open_clusters(driven)
    driven.link_tree.move_cursor(driven.node("groups", "production", "clusters").children[0])
    await driven.pilot.press("enter")
    await driven.settle()


async def cluster_json(driven: Any) -> None:
    await open_first_cluster(driven)
    await tab(driven, "json")


async def groups_headers(driven: Any) -> None:
    await driven.open("groups")
    await tab(driven, "headers")


async def clusters_log(driven: Any) -> None:
    await open_clusters(driven)
    await tab(driven, "log")


async def error_document(driven: Any) -> None:
    await driven.go_to("/groups/000000000000000000000000/clusters")
    await driven.pilot.press("x")
    await driven.until(lambda: type(driven.app.screen).__name__ == "ErrorScreen")


async def token_refresh(driven: Any) -> None:
    await driven.open("groups")
    driven.clock.advance(55)
    await driven.open("orgs")
    await tab(driven, "log")
    driven.screen.query_one("StatusBar").tick()


async def rate_limited(driven: Any) -> None:
    """Open a project's relations one by one until a 429, then hold the retry (the gate stays shut)."""
    await driven.open("groups")
    await driven.open("groups", "production")
    titles = iter(child.data.title for child in driven.node("groups", "production").children)
    while driven.app.session.log[-1].status != 429:
        driven.link_tree.move_cursor(driven.node("groups", "production", next(titles)))
        await driven.pilot.press("enter")
        await driven.until(lambda: driven.gate.waits or driven.screen.navigation.fetching is None)
        if not driven.gate.waits:
            await driven.settle()
    # the held fetch, as it is once it has gone on past the mark's time (fixed_surroundings keeps the
    # timer from firing at a moment that depends on the machine)
    driven.screen.show_pending_mark(driven.screen.navigation.fetching)
    await tab(driven, "log")
    driven.screen.refresh_log()
    driven.screen.query_one("StatusBar").tick()


async def watched_to_idle(driven: Any) -> None:
    """A cluster just created (CREATING, no connection strings), watched until it is IDLE: the
    sandbox ends its creation 20 s on, which the watch's waits (the gate, opened) bring about."""
    from textual.widgets import Input

    await open_first_cluster(driven)
    world = driven.sandbox.state.sandbox
    project = world.world.project_named("production")
    cluster = next(iter(project.clusters.values()))
    cluster.fields["connectionStrings"] = {}
    world.operations.start(project, cluster, "create")  # what a POST of it starts
    await driven.pilot.press("r")
    await driven.settle()
    await driven.pilot.press("w")
    await driven.until(lambda: isinstance(driven.app.focused, Input))
    driven.app.focused.value = '.stateName == "IDLE"'
    await driven.pilot.press("enter")
    await driven.until(lambda: driven.gate.waits)
    driven.gate.open.set()
    watch = driven.screen.watching.watch_for(cluster_url(driven))
    await driven.until(lambda: watch is not None and watch.ended is not None)
    await driven.pilot.pause()


def cluster_url(driven: Any) -> str:
    return driven.current.resource.url


async def help_screen(driven: Any) -> None:
    await driven.pilot.press("question_mark")
    await driven.until(lambda: type(driven.app.screen).__name__ == "HelpScreen")


async def presented(driven: Any) -> None:
    await driven.open("groups")
    await driven.open("groups", "production")
    await driven.pilot.press("down", "down")
    await driven.open("groups", "production", "clusters")


SHOTS: dict[str, Shot] = {
    "root": Shot("The link tree from the root", open_root),
    "list-page": Shot("A list, page 2 of its events", open_events_page_2),
    "entity": Shot("One cluster, field by field", open_first_cluster),
    "json": Shot("The JSON pane: pretty, coloured, searchable", cluster_json),
    "headers": Shot("Request and response headers, the token hidden", groups_headers),
    "log": Shot("Every request of the session", clusters_log),
    "error-document": Shot("The last error, from the status bar", error_document),
    "token-refresh": Shot("Tokens that live 60 s: renewed before they end", token_refresh, scenario="expiry"),
    "rate-limited": Shot(
        "Rate-limited: a 429, and the explorer waits out Retry-After", rate_limited, scenario="rate-limit", gated=True
    ),
    "login": Shot("No credentials yet: the login screen", login=True),
    "help": Shot("Every key, with its id for remapping", help_screen),
    "presenter": Shot("--presenter: the keys and the requests they sent", presented, presenter=True),
    "watch": Shot("A cluster watched from CREATING to IDLE", watched_to_idle, gated=True),
    **{
        f"theme-{name}": Shot(f"The {name} theme", cluster_json, theme=name)
        for name in ("explorer-dark", "explorer-light", "projector", "colorblind")
    },
}


@contextmanager
def fixed_surroundings() -> Iterator[None]:
    """The same time zone and terminal colours whoever runs this, and no fetch marked pending however
    slow the machine (a page turn that took over 0.15 s moved the tree by the line that said so); put
    back afterwards."""
    from explorer.tui.screens import main as main_screen

    saved = {name: os.environ.get(name) for name in ("TZ", "NO_COLOR", "COLORTERM")}
    os.environ.update(TZ="UTC", COLORTERM="truecolor")
    os.environ.pop("NO_COLOR", None)
    time.tzset()
    pending_mark_after = main_screen.PENDING_MARK_AFTER
    main_screen.PENDING_MARK_AFTER = 3600.0
    try:
        yield
    finally:
        main_screen.PENDING_MARK_AFTER = pending_mark_after
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        time.tzset()


def golden(name: str) -> Path:
    """Where pytest-textual-snapshot keeps the shot's golden (syrupy names it after the test)."""
    return GOLDENS / f"test_screen[{name}].svg"


def stale_copies() -> list[str]:
    """The docs' screenshots that are missing, extra, or not their golden's copy."""
    stale = [path.name for path in OUT.glob("*.svg") if path.stem not in SHOTS]
    for name in SHOTS:
        copy = OUT / f"{name}.svg"
        if not (copy.exists() and golden(name).exists()) or copy.read_bytes() != golden(name).read_bytes():
            stale.append(copy.name)
    return stale


def main(argv: list[str] | None = None) -> int:
    import pytest

    parser = argparse.ArgumentParser(prog="python -m tests.screenshots", description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="compare with the goldens and the copies; write nothing")
    args = parser.parse_args(argv)
    options = ["-q", "-p", "no:cacheprovider", f"{ROOT / 'tests' / 'tui' / 'test_screens.py'}::test_screen"]
    status = pytest.main(options if args.check else [*options, "--snapshot-update"])
    if status != 0:
        return int(status)
    if args.check:
        stale = stale_copies()
        if stale:
            print(f"stale: {', '.join(stale)}; remake them with: python -m tests.screenshots", file=sys.stderr)
            return 1
        return 0
    for path in OUT.glob("*.svg"):
        path.unlink()
    for name in SHOTS:
        shutil.copyfile(golden(name), OUT / f"{name}.svg")
        print(f"wrote {(OUT / f'{name}.svg').relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
