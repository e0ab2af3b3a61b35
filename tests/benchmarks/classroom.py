"""explorer serve with 1, 10 and 30 browser tabs: time to each tab's first screen, memory per session.

    python tests/benchmarks/classroom.py [--tabs 1 10 30] [--sockets]

For each count: a fresh `explorer serve`, then that many tabs of headless Chromium opened at once;
"shown" is the root's relations on a tab's screen (its websocket's frames, read by pyte). With
--sockets, each tab is a bare websocket client speaking the page's protocol instead: the browsers'
own drawing is then not on this machine, as in a class where every student has a laptop. Memory is
the proportional set size (PSS, /proc/PID/smaps_rollup) of every tab's explorer process once all are
shown, divided by the tabs: what each student costs the trainer's machine, shared libraries split
fairly. Prints median and range, and the machine's load.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.classroom.browser import Tab, browser_path, serving, student_processes


def pss_kib(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def run(browser: object, tabs: int) -> None:
    with serving("--max-sessions", str(tabs)) as served:
        opened = []
        start = time.monotonic()
        for _ in range(tabs):
            tab = Tab(browser.new_page(viewport={"width": 1280, "height": 800}))  # type: ignore[attr-defined]
            tab.page.goto(served.url, wait_until="commit")
            opened.append(tab)
        shown: list[float] = []
        pending = list(opened)
        while pending and time.monotonic() - start < 300:
            for tab in list(pending):
                if "groups" in tab.text and "orgs" in tab.text:
                    shown.append(time.monotonic() - start)
                    pending.remove(tab)
            opened[0].page.wait_for_timeout(20)
        memory = [pss_kib(pid) / 1024 for pid in student_processes(served)]
        report(tabs, shown, memory, "Chromium tabs")
        for tab in opened:
            tab.page.close()


async def socket_tab(url: str, shown: list[float], start: float) -> None:
    """One tab as its page's script is, without the drawing: resize, then read the screen."""
    import aiohttp
    import pyte

    screen = pyte.Screen(160, 45)
    stream = pyte.ByteStream(screen)
    async with aiohttp.ClientSession() as client, client.ws_connect(url + "?width=160&height=45") as socket:
        await socket.send_json(["resize", {"width": 160, "height": 45}])
        async for message in socket:
            if isinstance(message.data, bytes):
                stream.feed(message.data)
                text = "\n".join(screen.display)
                if "groups" in text and "orgs" in text:
                    shown.append(time.monotonic() - start)
                    await asyncio.sleep(2)  # stay open while the others start
                    return


def run_sockets(tabs: int) -> None:
    with serving("--max-sessions", str(tabs)) as served:
        url = f"{served.address.replace('http://', 'ws://')}/ws/{served.key}/-"
        shown: list[float] = []
        start = time.monotonic()

        async def all_tabs() -> None:
            await asyncio.gather(*(socket_tab(url, shown, start) for _ in range(tabs)))

        asyncio.run(all_tabs())
        report(tabs, shown, [], "websocket clients")


def report(tabs: int, shown: list[float], memory: list[float], what: str) -> None:
    load = os.getloadavg()
    said = (
        f"{tabs:>3} {what}: first screen median {statistics.median(shown):.2f} s "
        f"(range {min(shown):.2f}–{max(shown):.2f} s, {len(shown)} of {tabs} shown)"
    )
    if memory:
        said += (
            f"; PSS per session median {statistics.median(memory):.0f} MiB "
            f"(range {min(memory):.0f}–{max(memory):.0f}, {sum(memory):.0f} MiB in all)"
        )
    print(f"{said}; load {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tabs", type=int, nargs="+", default=[1, 10, 30])
    parser.add_argument("--sockets", action="store_true", help="bare websocket clients instead of Chromium tabs")
    args = parser.parse_args()
    if args.sockets:
        for tabs in args.tabs:
            run_sockets(tabs)
        return 0
    path = browser_path()
    if path is None:
        print("NO BROWSER: install Chromium (apt-get install chromium)", file=sys.stderr)
        return 1
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=path, args=["--no-sandbox"])
        print(f"{os.cpu_count()} cores; Chromium {browser.version}")
        for tabs in args.tabs:
            run(browser, tabs)
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
