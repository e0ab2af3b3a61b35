"""Every recorded real response, reached on the screen with `g` from a replay that demands a version.

The explorer runs on the replay of the real service (tests/versioned_service.py: a request to
/api/atlas/v2 that names no version is 406 INVALID_VERSION_DATE) and goes to each recording's URL as
a user would: `g`, the URL pasted, Enter. What is asserted for each is what a person reads: the URL
in the title, the status in the status bar, and in the Page pane the error's line, a list's first
item or an entity's first field. And every request the explorer sent to the versioned API named a
version. In process every recording in one screen session; over a socket one of each kind.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from textual import events
from textual.widgets import Input

from explorer.api.config import Credentials
from explorer.api.secret import Secret
from explorer.api.session import Session
from explorer.demo import demo_session
from explorer.tui.app import ExplorerApp
from tests.conftest import ROOT
from tests.tui.conftest import Explorer, started, wait_until
from tests.tui.screen_text import region_text, screen_lines
from tests.versioned_service import BASE, VERSIONED, VERSIONED_API, Recording, VersionedService

pytestmark = pytest.mark.sweep

DESCRIPTION = ROOT / "tests" / "fixtures" / "openapi" / "real-shape.json"
SIZE = (120, 40)  # a long error detail wraps in the Page pane: compared without line breaks
SWEEP_PARTS = 8  # the 148 go-tos, in parts the suite's workers share


def squeezed(text: str) -> str:
    """Text without its spaces and line breaks: a long line the pane wraps reads the same."""
    return re.sub(r"\s+", "", text)


def as_written(value: Any) -> str:
    """A scalar as the field tree and the table write it."""
    return value if isinstance(value, str) else json.dumps(value)


def missing_from_page(file: Path, page: str) -> str | None:
    """What the Page pane should show of this recording, from its body alone, if it does not:
    an error's line, a list's first column over its first item's value, an entity's first field."""
    status, body = int(file.name.split("_", 1)[0]), json.loads(file.read_bytes().partition(b"\n\n")[2])
    if status >= 400:
        reason = httpx.codes.get_reason_phrase(status)
        line = f"error {status} {reason} · {body['errorCode']}: {body['detail']}"
        return None if squeezed(line) in squeezed(page) else line  # a long line wraps
    items = body if isinstance(body, list) else body.get("results")
    if isinstance(items, list) and items and isinstance(items[0], dict):
        # The table's first column, whichever the table chose: a field of the first item, over its value
        # (the table may cut a long value, at its middle: its first five characters stay). Known from the
        # body and the screen, not from the table's code.
        shown = {key: as_written(value)[:5] for key, value in items[0].items() if not isinstance(value, dict | list)}
        lines = [line.strip() for line in page.splitlines()]
        found = any(
            a.startswith(key) and b.startswith(value)
            for a, b in zip(lines, lines[1:], strict=False)
            for key, value in shown.items()
        )
        return None if found else f"a field of the first item over its value: {shown}"
    if isinstance(items, list):
        said = f"[0]: {items[0]}" if items else "0 items"
    else:  # an entity: its first field, as the field tree writes it
        key, value = next(iter(body.items()))
        if isinstance(value, dict | list):
            said = f"{key}: {{{len(value)}}}" if isinstance(value, dict) else f"{key}: [{len(value)}]"
        else:
            said = f"{key}: {as_written(value)}"[:60]
    return None if squeezed(said) in squeezed(page) else said


def shown(explorer: Explorer) -> tuple[str, str, str]:
    """The title, the status bar and the Page pane, as drawn."""
    app, lines = explorer.app, screen_lines(explorer.app)
    title, bar, page = (
        region_text(app, app.screen.query_one(kind), lines) for kind in ("Header", "StatusBar", "PageView")
    )
    return title, bar, page


async def soon(condition: Callable[[], Any], timeout: float = 5.0) -> None:
    """Until `condition` holds, for `timeout` seconds at most, looking every 5 ms while the app runs.

    The wait of tests/tui/conftest.py (wait_until), with a shorter step: between looks 20 ms
    apart the app repaints more often, and 148 go-tos take half as long again."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        if loop.time() > deadline:
            raise AssertionError(f"the screen did not get there in {timeout:g} s")
        await asyncio.sleep(0.005)


async def go_to(explorer: Explorer, replay: VersionedService, target: str) -> None:
    """g, the target pasted, Enter, as a terminal sends them: the keys posted, without the pilot's
    wait for an idle process after each key (some 200 ms a key, a minute more over 148 go-tos)."""
    app = explorer.app
    app.post_message(events.Key("g", "g"))
    await soon(lambda: isinstance(app.focused, Input))
    field = app.focused
    app.post_message(events.Paste(target))  # a bracketed paste, as a terminal sends it
    await soon(lambda: field.value == target)
    answered = len(replay.served)
    app.post_message(events.Key("enter", "\r"))
    await soon(lambda: len(replay.served) > answered and explorer.idle())
    await explorer.pilot.pause()  # what came is drawn


async def go_to_every_recording(explorer: Explorer, replay: VersionedService, files: list[Path]) -> list[str]:
    """Each recording's URL with `g`; what the screen got wrong, one line each."""
    wrong = []
    for file in files:
        target = replay.target(file)
        await go_to(explorer, replay, target)
        status = int(file.name.split("_", 1)[0])
        title, bar, page = shown(explorer)
        reason = httpx.codes.get_reason_phrase(status)
        said = rf"{status} {re.escape(reason)}(?: · | │|$)"  # then its time, or the next part: it can give way
        if not title.rstrip().endswith(target[-40:]):  # a long URL is cut in the middle, its end kept
            wrong.append(f"{file.name}: the title is {title.strip()!r}")
        if not re.search(said, bar.strip()):
            wrong.append(f"{file.name}: the status bar says {bar.strip()!r}, not {said!r}")
        missing = missing_from_page(file, page)
        if missing:
            wrong.append(f"{file.name}: the Page pane lacks {missing!r}:\n{page}")
    return wrong


async def sweep(session: Session, replay: VersionedService, files: list[Path]) -> None:
    app = ExplorerApp(session, demo=demo_session)
    app.animation_level = "none"
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(lambda: started(app), pilot=pilot)
        explorer = Explorer(pilot, app, None, None, None)
        await explorer.settle()
        wrong = await go_to_every_recording(explorer, replay, files)
    assert not wrong, "\n".join(wrong)
    assert set(replay.served) == {file.name for file in files}  # every recording reached the screen
    versioned = [request for request in replay.requests if VERSIONED_API.match(request.path)]
    assert len(versioned) >= sum(Recording.of(file).versioned for file in files)  # not v1.0, not the address lookup
    unversioned = [request for request in versioned if not VERSIONED.search(request.accept)]
    assert not unversioned, unversioned


@pytest.mark.parametrize("part", range(SWEEP_PARTS), ids=[f"part{n}" for n in range(1, SWEEP_PARTS + 1)])
async def test_every_recorded_response_is_shown_on_the_screen_in_process(real_responses, part):
    """In eight screen runs of some 19 go-tos each (a few seconds apiece), which pytest-xdist spreads
    over the cores: all 148 in one run took 110-125 s, at the suite's 120 s limit on a loaded machine."""
    replay = VersionedService(real_responses[0].parent)
    credentials = Credentials(BASE, client_id="c", client_secret=Secret("s"), openapi=str(DESCRIPTION))
    session = Session(credentials, transport=httpx.ASGITransport(app=replay))
    await sweep(session, replay, real_responses[part::SWEEP_PARTS])


def one_of_each_kind(files: list[Path]) -> list[Path]:
    """The first recording of each status, method and shape of body, and those outside the versioned API."""
    kinds: dict[str, Path] = {}
    for file in files:
        status, method, path = file.name.split("_", 2)
        body = json.loads(file.read_bytes().partition(b"\n\n")[2])
        shape = "list" if isinstance(body, dict) and "results" in body else "entity" if isinstance(body, dict) else ""
        shape = shape or ("array of objects" if body and isinstance(body[0], dict) else "array")
        kinds.setdefault(f"{status} {method} {shape}" if path.startswith("api_atlas_v2_") else file.name, file)
    return list(kinds.values())


async def test_recorded_responses_are_shown_on_the_screen_over_a_socket(real_responses, live_server):
    """One of each kind (over a socket, the sweep above would add as long again), without a description."""
    server, switchboard = live_server
    replay = VersionedService(real_responses[0].parent)
    switchboard.app = replay
    credentials = Credentials(f"{server.url}/api/atlas/v2", client_id="c", client_secret=Secret("s"))
    sample = one_of_each_kind(real_responses)
    assert len(sample) == 17
    await sweep(Session(credentials), replay, sample)
