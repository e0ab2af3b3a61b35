"""The README's screenshots, made from the demo sandbox with a fixed seed and a fixed clock.

    python -m tests.screenshots            # writes screenshots/*.svg
    python -m tests.screenshots --check    # says which committed files are stale (exit 1)

The same code gives the same files, byte for byte: the clock, the request timer, the time zone,
the seed and the terminal size are fixed, and nothing random is on screen.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "screenshots"
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


@asynccontextmanager
async def explorer(
    *, scenario: str | None = None, theme: str | None = None, presenter: bool = False, gated: bool = False, **app: Any
) -> AsyncIterator[Any]:
    """The explorer on a fresh demo sandbox, driven as in the tests, at the screenshots' size."""
    from explorer.demo import demo_session
    from explorer.sandbox import Settings, create_app
    from explorer.sandbox.scenarios import scenario_named
    from explorer.tui.app import ExplorerApp
    from explorer.tui.screens.main import MainScreen
    from tests.tui.conftest import Explorer, Gate

    clock = Clock()
    settings = Settings(clock=clock)
    sandbox = create_app(scenario_named(scenario).settings(settings) if scenario else settings)
    gate = Gate(clock) if gated else None  # type: ignore[arg-type]
    options: dict[str, Any] = {"sleep": gate} if gate else {}
    session = demo_session(settings, app=sandbox, scenario=scenario, timer=fixed_timer(), **options)
    application = ExplorerApp(
        session, demo=lambda: demo_session(Settings(clock=clock)), theme=theme, presenter=presenter, **app
    )
    application.animation_level = "none"
    async with application.run_test(size=SIZE, notifications=True) as pilot:
        driven = Explorer(pilot, application, sandbox, clock, gate)  # type: ignore[arg-type]
        await driven.until(
            lambda: isinstance(application.screen, MainScreen) and driven.screen.navigation.root.resource
        )
        await driven.settle()
        yield driven


async def tab(driven: Any, name: str) -> None:
    await driven.pilot.press({"page": "1", "json": "2", "headers": "3", "log": "4"}[name])
    await driven.pilot.pause()


async def shot(driven: Any, title: str) -> str:
    await driven.pilot.pause()
    if driven.app.presenter is not None:
        driven.app.present()  # not only at its next tick
        await driven.pilot.pause()
    return driven.app.export_screenshot(title=title)


async def root() -> str:
    async with explorer() as driven:
        await driven.open("groups")
        await driven.open("orgs")
        return await shot(driven, "The link tree from the root")


async def list_page() -> str:
    async with explorer() as driven:
        await driven.open("groups")
        await driven.open("groups", "production")
        await driven.open("groups", "production", "events")
        await driven.pilot.press("right_square_bracket")
        await driven.settle()
        return await shot(driven, "A list, page 2 of its events")


async def open_clusters(driven: Any) -> None:
    """From the root to the production project's clusters, as a user clicks through."""
    await driven.open("groups")
    await driven.open("groups", "production")
    await driven.open("groups", "production", "clusters")


async def open_first_cluster(driven: Any) -> None:
    await open_clusters(driven)
    driven.links.move_cursor(driven.node("groups", "production", "clusters").children[0])
    await driven.pilot.press("enter")
    await driven.settle()


async def entity() -> str:
    async with explorer() as driven:
        await open_first_cluster(driven)
        return await shot(driven, "One cluster, field by field")


async def cluster_json(driven: Any) -> None:
    await open_first_cluster(driven)
    await tab(driven, "json")


async def json_pane() -> str:
    async with explorer() as driven:
        await cluster_json(driven)
        return await shot(driven, "The JSON pane: pretty, coloured, searchable")


async def headers() -> str:
    async with explorer() as driven:
        await driven.open("groups")
        await tab(driven, "headers")
        return await shot(driven, "Request and response headers, the token hidden")


async def log() -> str:
    async with explorer() as driven:
        await open_clusters(driven)
        await tab(driven, "log")
        return await shot(driven, "Every request of the session")


async def error_document() -> str:
    async with explorer() as driven:
        await driven.go_to("/groups/000000000000000000000000/clusters")
        await driven.pilot.press("x")
        await driven.until(lambda: type(driven.app.screen).__name__ == "ErrorScreen")
        return await shot(driven, "The last error, from the status bar")


async def token_refresh() -> str:
    async with explorer(scenario="expiry") as driven:
        await driven.open("groups")
        driven.clock.advance(55)
        await driven.open("orgs")
        await tab(driven, "log")
        driven.screen.query_one("StatusBar").tick()
        return await shot(driven, "Tokens that live 60 s: renewed before they end")


async def rate_limited() -> str:
    async with explorer(scenario="rate-limit", gated=True) as driven:
        await driven.open("groups")
        await driven.open("groups", "production")
        titles = iter(child.data.title for child in driven.node("groups", "production").children)
        while driven.app.session.log[-1].status != 429:
            driven.links.move_cursor(driven.node("groups", "production", next(titles)))
            await driven.pilot.press("enter")
            await driven.until(lambda: driven.gate.waits or driven.screen.navigation.fetching is None)
            if not driven.gate.waits:
                await driven.settle()
        await tab(driven, "log")
        driven.screen.refresh_log()
        driven.screen.query_one("StatusBar").tick()
        svg = await shot(driven, "Rate-limited: a 429, and the explorer waits out Retry-After")
        driven.gate.open.set()
        await driven.settle()
        return svg


async def login() -> str:
    from explorer.demo import demo_session
    from explorer.tui.app import ExplorerApp
    from tests.tui.conftest import wait_until

    app = ExplorerApp(None, demo=demo_session, settings_path=Path("/nonexistent/config.toml"))
    app.animation_level = "none"
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await wait_until(lambda: type(app.screen).__name__ == "LoginScreen", pilot=pilot)
        await pilot.pause()
        return app.export_screenshot(title="No credentials yet: the login screen")


async def help_screen() -> str:
    async with explorer() as driven:
        await driven.pilot.press("question_mark")
        await driven.until(lambda: type(driven.app.screen).__name__ == "HelpScreen")
        await driven.pilot.pause()
        return await shot(driven, "Every key, with its id for remapping")


async def presenter() -> str:
    async with explorer(presenter=True) as driven:
        await driven.open("groups")
        await driven.open("groups", "production")
        await driven.pilot.press("down", "down")
        await driven.open("groups", "production", "clusters")
        return await shot(driven, "--presenter: the keys and the requests they sent")


def themed(name: str) -> Callable[[], Awaitable[str]]:
    async def make() -> str:
        async with explorer(theme=name) as driven:
            await cluster_json(driven)
            return await shot(driven, f"The {name} theme")

    return make


SHOTS: dict[str, Callable[[], Awaitable[str]]] = {
    "root": root,
    "list-page": list_page,
    "entity": entity,
    "json": json_pane,
    "headers": headers,
    "log": log,
    "error-document": error_document,
    "token-refresh": token_refresh,
    "rate-limited": rate_limited,
    "login": login,
    "help": help_screen,
    "presenter": presenter,
    **{f"theme-{name}": themed(name) for name in ("explorer-dark", "explorer-light", "projector", "colorblind")},
}


@contextmanager
def fixed_surroundings() -> Iterator[None]:
    """The same time zone and terminal colours whoever runs this; put back afterwards."""
    saved = {name: os.environ.get(name) for name in ("TZ", "NO_COLOR", "COLORTERM")}
    os.environ.update(TZ="UTC", COLORTERM="truecolor")
    os.environ.pop("NO_COLOR", None)
    time.tzset()
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        time.tzset()


async def make_all(names: list[str] | None = None) -> dict[str, str]:
    with fixed_surroundings():
        return {name: await SHOTS[name]() for name in names or list(SHOTS)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.screenshots", description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="compare with the committed files; write nothing")
    parser.add_argument("names", nargs="*", metavar="NAME", help=f"only these (default: all): {', '.join(SHOTS)}")
    args = parser.parse_args(argv)
    unknown = [name for name in args.names if name not in SHOTS]
    if unknown:
        parser.error(f"no screenshot {unknown[0]!r}")
    made = asyncio.run(make_all(args.names or None))
    stale = []
    for name, svg in made.items():
        path = OUT / f"{name}.svg"
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != svg:
                stale.append(path.name)
        else:
            path.write_text(svg, encoding="utf-8")
            print(f"wrote {path.relative_to(ROOT)}")
    if stale:
        print(f"stale: {', '.join(stale)}; remake them with: python -m tests.screenshots", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
