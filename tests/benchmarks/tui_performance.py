"""The explorer screen's speed, headless: launch, turning a 500-item page, a 5 MB body.

    python tests/benchmarks/tui_performance.py [--runs 5] [--presses 30]

1. Launch to root shown with --demo, in a fresh interpreter each time (imports counted), beside
   the floor: a bare Textual app with the same widget tree, in Textual's own widgets, and the
   same number of keys in its footer, that fetches nothing. The two alternate, run by run.
2. Keypress (]) to the next page of 500 items drawn in the table: from the key's action to the
   first row of the new page drawn, p50 and p95.
3. The JSON pane given a 5 MB body: time to first paint, memory it holds, time per page down.
Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

LAUNCH = """
import time
started = time.perf_counter()
import asyncio, sys
sys.path.insert(0, {root!r})

async def main():
    if {floor!r}:
        from textual.app import App
        from textual.containers import Horizontal, Vertical, VerticalScroll
        from textual.scroll_view import ScrollView
        from textual.widgets import DataTable, Footer, Header, Static, TabbedContent, TabPane, Tree

        class Floor(App):
            # the explorer's widget tree, node for node, in Textual's own widgets, and a footer
            # showing as many keys as the explorer's (the footer mounts a widget for each)
            BINDINGS = [(key, "noop(" + repr(key) + ")", key) for key in ("backspace", "g", "]", "r", "/", "?", "q")]

            def action_noop(self, key):
                pass

            def compose(self):
                yield Header()
                with Horizontal():
                    yield Tree("root")
                    with TabbedContent():
                        with TabPane("Page"), Vertical():
                            yield Static("message")
                            yield Tree("fields")
                            yield Static("pagination")
                            yield ScrollView()
                        with TabPane("JSON"), Vertical():
                            yield Static("where")
                            yield ScrollView()
                        with TabPane("Headers"), VerticalScroll():
                            yield Static("headers")
                        with TabPane("Log"):
                            yield DataTable()
                yield Static("status")
                yield Footer()

        app = Floor()
        ready = lambda: app.screen.query(Tree)
    else:
        from explorer.cli import parser  # the path `explorer --demo` takes, imports and all
        from explorer.tui.run import build
        from explorer.tui.screens.main import MainScreen

        app = build(parser().parse_args(["--demo"]))
        ready = lambda: isinstance(app.screen, MainScreen) and app.screen.navigation.root.resource
    async with app.run_test(size=(160, 50)) as pilot:
        while not ready():
            await pilot.pause(0.005)
        await pilot.pause()
        print(time.perf_counter() - started)
        await app.action_quit() if not {floor!r} else app.exit()

asyncio.run(main())
"""


def with_bytecode() -> dict[str, str]:
    """As an installed program runs: modules loaded from bytecode, which pip compiles at install.

    (Some shells set PYTHONDONTWRITEBYTECODE; then every start would compile the explorer from source
    while Textual, installed by pip, loads compiled, and the comparison would be unfair.)
    """
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "explorer")], check=True, env=environment)
    return environment


def launch(floor: bool, environment: dict[str, str]) -> float:
    done = subprocess.run(
        [sys.executable, "-c", LAUNCH.format(root=str(ROOT), floor=floor)],
        capture_output=True, text=True, check=True, env=environment,
    )  # fmt: skip
    return float(done.stdout.strip().splitlines()[-1]) * 1000


async def page_turns(presses: int) -> list[float]:
    from textual.widgets import Static

    from explorer.demo import demo_session
    from explorer.sandbox import Settings
    from explorer.tui.app import ExplorerApp
    from explorer.tui.screens.main import MainScreen
    from explorer.tui.widgets.items_table import ItemsTable

    app = ExplorerApp(demo_session(Settings(rate_limit=10**9)), demo=demo_session)
    app.animation_level = "none"
    timings = []
    async with app.run_test(size=(160, 50)) as pilot:
        screen = None
        while not (isinstance(app.screen, MainScreen) and app.screen.navigation.root.resource):
            await pilot.pause(0.01)
        screen = app.screen

        async def settle() -> None:
            while screen.navigation.fetching is not None or not all(w.is_finished for w in app.workers):
                await pilot.pause(0.001)

        async def open_(*titles: str) -> None:
            node = screen.links.root
            for title in titles:
                node = next(c for c in node.children if c.data.title == title)
            screen.links.move_cursor(node)
            await pilot.press("enter")
            await settle()

        await open_("groups")
        await open_("groups", "production")
        await open_("groups", "production", "events")
        for _ in range(3):
            await pilot.press("plus")
            await settle()
        pagination = screen.query_one("PageView #pagination", Static)
        table = screen.query_one(ItemsTable)
        for index in range(presses):
            action, expected = ("page(1)", "page 2") if index % 2 == 0 else ("page(-1)", "page 1")
            started = time.perf_counter()
            await app.run_action(action, screen)  # what the ] and [ keys run
            while not (str(pagination.render()).startswith(expected) and table.painted_at > started):
                await asyncio.sleep(0)
            timings.append((table.painted_at - started) * 1000)
            assert table.row_count == 500
            await settle()
    return timings


def five_megabytes() -> bytes:
    item = {
        "id": "0123456789abcdef01234567",
        "created": "2026-11-01T09:00:00Z",
        "eventTypeName": "CLUSTER_UPDATE_COMPLETED",
        "groupId": "0123456789abcdef01234567",
        "clusterName": "orders-prod",
        "remoteAddress": "203.0.113.9",
        "links": [{"href": "https://sandbox.invalid/api/service/v1.0/groups/x/events/y", "rel": "self"}],
    }
    count = 5 * 1024 * 1024 // len(json.dumps(item))
    return json.dumps({"links": [], "results": [item] * count, "totalCount": count}, separators=(",", ":")).encode()


async def big_body() -> dict[str, float]:
    import httpx

    from explorer.api.resource import Resource
    from explorer.tui.palette import PaletteApp
    from explorer.tui.widgets.json_view import JsonPane, JsonView

    body = five_megabytes()
    resource = Resource(
        method="GET", url="https://h/x", status=200, headers=httpx.Headers({"content-type": "application/json"}),
        request_headers=[], body=body, elapsed=0, received_at=0,
    )  # fmt: skip

    class One(PaletteApp):
        def compose(self):
            yield JsonPane()

    app = One()
    app.animation_level = "none"
    async with app.run_test(size=(160, 50)) as pilot:
        pane = app.query_one(JsonPane)
        view = app.query_one(JsonView)
        view.focus()
        await pilot.pause()
        resource.json  # noqa: B018 - parsed as the session's worker would have, before the pane sees it
        started = time.perf_counter()
        pane.show(resource)
        while not view.painted_at:
            await asyncio.sleep(0)
        first_paint = (view.painted_at - started) * 1000
        while view.pretty is None:
            await pilot.pause(0.01)
        pretty_ready = (time.perf_counter() - started) * 1000
        await pilot.press("v")  # the pretty view
        await pilot.pause()
        assert view.showing_pretty
        lines = len(view.lines)
        pages, timings = 50, []
        for _ in range(pages):
            started = time.perf_counter()
            view.action_page(1)  # what pagedown runs
            while view.scroll_offset.y + 1 not in view.cache:  # the new screenful drawn
                await asyncio.sleep(0)
            timings.append((time.perf_counter() - started) * 1000)
        per_page = statistics.median(timings)
        tracemalloc.start()
        pane.show(resource)  # again, to count what showing it holds
        while view.generation and not view.painted_at:
            await asyncio.sleep(0)
        held = tracemalloc.get_traced_memory()[0] / 1024 / 1024
        while view.pretty is None:  # and once its pretty lines are made too
            await pilot.pause(0.01)
        held_with_pretty = tracemalloc.get_traced_memory()[0] / 1024 / 1024
        tracemalloc.stop()
        return {
            "size": len(body) / 1024 / 1024,
            "first_paint": first_paint,
            "held": held,
            "held_with_pretty": held_with_pretty,
            "pretty_ready": pretty_ready,
            "lines": lines,
            "per_page": per_page,
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--presses", type=int, default=30)
    args = parser.parse_args()

    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores")
    environment = with_bytecode()
    explorer, floor = [], []
    for _ in range(args.runs):  # alternating, so that the machine's moods fall on both alike
        explorer.append(launch(floor=False, environment=environment))
        floor.append(launch(floor=True, environment=environment))
    ours, bare = statistics.median(explorer), statistics.median(floor)
    print(f"launch to root shown (--demo), median of {args.runs} fresh interpreters, imports (compiled) included:")
    print(f"  explorer {ours:.0f} ms · floor (same widgets, no fetching) {bare:.0f} ms · ratio {ours / bare:.2f}")
    print(f"  spread: explorer {min(explorer):.0f}–{max(explorer):.0f} ms · floor {min(floor):.0f}–{max(floor):.0f} ms")

    turns = sorted(asyncio.run(page_turns(args.presses)))
    p95 = turns[min(len(turns) - 1, int(len(turns) * 0.95))]
    print(f"keypress to the next page of 500 items shown, {args.presses} presses:")
    print(f"  p50 {statistics.median(turns):.0f} ms · p95 {p95:.0f} ms · spread {turns[0]:.0f}–{turns[-1]:.0f} ms")

    big = asyncio.run(big_body())
    print(f"JSON pane with a {big['size']:.1f} MB body:")
    print(
        f"  first paint {big['first_paint']:.0f} ms · memory held after it {big['held']:.1f} MB, "
        f"{big['held_with_pretty']:.1f} MB with the pretty view · "
        f"pretty view ready in the background after {big['pretty_ready']:.0f} ms ({big['lines']:,} lines) · "
        f"page down {big['per_page']:.1f} ms a page (median of 50)"
    )
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
