"""Issue 11's cases against the hostile server (tests/hostile_service.py), through `explorer get`
over a real socket and through the screen: nothing crashes, leaks, hangs or reaches the terminal raw.

What a person would see is asserted: the exit code, a one-line error with its hint, no escape or
bidi byte on stderr (nor on stdout, but for the body `get` prints as received), no token anywhere,
and the screen still up and answering keys after each case.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from textual.widgets import Static

from explorer.api.options import Bounds
from explorer.sandbox.server import ServerThread
from explorer.tui.screens.main import MainScreen
from tests.conftest import ROOT
from tests.hostile_service import DIGEST_CASES, ROOT_PATH, TOKEN, TOKEN_CASES, HostileService
from tests.tui.conftest import on_hostile_service
from tests.tui.screen_text import region_text, rows_of, screen_text

pytestmark = pytest.mark.sweep

RAW = ("\x1b", "\x07", "\x9b", "\u202e")  # what must never reach the terminal from a server


@dataclass
class Served:
    url: str
    service: HostileService
    other: HostileService


@pytest.fixture(scope="module")
def served() -> Iterator[Served]:
    other = HostileService("http://unused.invalid")
    with ServerThread(other) as elsewhere:
        other.origin = elsewhere.url
        service = HostileService("http://unused.invalid", other=elsewhere.url)
        with ServerThread(service) as server:
            service.origin = server.url  # before its first request: the answers' links are made from it
            yield Served(server.url, service, other)


@dataclass
class Run:
    code: int
    out: bytes
    err: str


def explorer_get(served: Served, tmp_path, *arguments: str, client: str = "good", api_key: bool = False) -> Run:
    environ = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(tmp_path),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "EXPLORER_BASE_URL": served.url + ROOT_PATH,
    }
    if api_key:
        environ |= {"EXPLORER_PUBLIC_KEY": "key", "EXPLORER_PRIVATE_KEY": "private"}
    else:
        environ |= {"EXPLORER_CLIENT_ID": client, "EXPLORER_CLIENT_SECRET": "s"}
    command = [sys.executable, "-m", "explorer", "get", "--no-token-cache", "--deadline", "2", *arguments]
    done = subprocess.run(command, capture_output=True, env=environ, cwd=ROOT, timeout=60)
    run = Run(done.returncode, done.stdout, done.stderr.decode("utf-8", "replace"))
    assert "Traceback" not in run.err and "a bug; please report it" not in run.err, run.err
    assert not any(raw in run.err for raw in RAW), run.err
    assert TOKEN.encode() not in done.stdout + done.stderr
    return run


def said(run: Run) -> tuple[str, str]:
    """The error's one line and its hint: the last two lines on stderr."""
    lines = run.err.rstrip("\n").split("\n")
    assert len(lines) >= 2 and lines[-1].startswith("hint: "), run.err
    assert lines[-2].startswith("explorer get: "), run.err
    return lines[-2], lines[-1]


CASE_CODES = {
    "escapes-in-error": 4,
    "html-error-page": 5,
    "retry-after-superscript": 4,
    "retry-after-huge": 4,
    "href-ipv6": 0,
    "href-port": 0,
    "href-escape": 0,
    "href-nfkc": 0,
    "deep-json": 0,
    "deeper-json": 0,
    "deep-fields": 0,
    "deep-error": 4,
    "deeper-error": 4,
    "deep-error-fields": 5,
    "deep-error-document": 4,
    "deeper-429": 4,
    "unknown-charset": 0,
    "blank-unknown-charset": 0,
    "undefined-charset": 0,
    "error-unknown-charset": 5,
    "year-99999": 0,
    "date-past-9999": 0,
    "date-before-1": 0,
    "bson-past-9999": 0,
    "huge-total": 0,
    "lone-surrogate": 0,
}


@pytest.mark.parametrize("case", sorted(CASE_CODES))
def test_get_each_case(served, tmp_path, case):
    run = explorer_get(served, tmp_path, f"/cases/{case}", "-i")
    assert run.code == CASE_CODES[case], run.err
    head = run.out.split(b"\r\n\r\n", 1)[0]
    assert not any(raw.encode() in head for raw in RAW), head  # the headers -i shows, not the body
    if run.code:
        said(run)


@pytest.mark.parametrize("case", ["loop", "ping", "next-not-a-url"])
def test_get_all_ends_on_a_page_seen_twice_or_a_next_that_is_not_a_url(served, tmp_path, case):
    run = explorer_get(served, tmp_path, f"/cases/{case}", "--all")
    assert run.code == 1, run.err
    _, hint = said(run)
    items = json.loads(run.out + b"]")  # what came before the error, the array left open
    assert run.out.startswith(b"[") and items and all(isinstance(item, dict) for item in items)
    count = f"{len(items)} item{'s' if len(items) > 1 else ''} of {len(items)} page{'s' if len(items) > 1 else ''}"
    assert hint.endswith(
        f"{count} were printed before it; the array is left open, so no JSON reader takes them for the whole list."
    )


@pytest.mark.parametrize("case", ["bomb", "trickle"])
def test_get_a_body_without_end(served, tmp_path, case):
    run = explorer_get(served, tmp_path, f"/cases/{case}")
    assert run.code == 1 and run.out == b""
    line, _ = said(run)
    assert ("compression bomb" if case == "bomb" else "(the deadline of a request)") in line


REFUSED_TOKENS = {"escapes-oauth", "deep-token-401", "deeper-token-401"}  # a 401: exit 4, as any 4xx


@pytest.mark.parametrize("client", sorted(set(TOKEN_CASES) - {"good"}))
def test_a_token_answer_that_cannot_be_used_is_named_without_its_content(served, tmp_path, client):
    run = explorer_get(served, tmp_path, "/cases/year-99999", client=client)
    assert run.code == (4 if client in REFUSED_TOKENS else 1), run.err
    said(run)


DEEP = "JSON nested deeper than 100 levels (the depth limit)"
DEEPER = "A higher depth limit reads it (up to 500 levels)."
DEEPER_FLAG = f"{DEEPER} Set it with --max-depth LEVELS."  # as the command line words it
DEEPER_AGAIN = f"{DEEPER} Start explorer again with --max-depth LEVELS."  # as the screen does
MALFORMED = "The service refused the request as malformed: the detail and parameters name what to change."
CREDENTIALS = "Authentication failed: check the credentials, then retry."
NOTHING_THERE = "Nothing is there: check the IDs in the path, or reach it by following links from the root."
RATE_LIMITED = "Rate limited: retry in 1 s. Limits count per project and at the token endpoints (10 a minute)."


@pytest.mark.parametrize(
    ("case", "client", "status", "status_hint"),
    [
        ("deep-error", "good", "400 Bad Request", MALFORMED),
        ("deeper-error", "good", "404 Not Found", NOTHING_THERE),
        ("deep-error-fields", "good", "500 Internal Server Error", None),
        ("deep-error-document", "good", "400 Bad Request", MALFORMED),
        ("deeper-429", "good", "429 Too Many Requests", RATE_LIMITED),
        ("year-99999", "deep-token-401", "401 Unauthorized", CREDENTIALS),
        ("year-99999", "deeper-token-401", "401 Unauthorized", CREDENTIALS),
    ],
)
def test_an_error_nested_past_max_depth_says_the_limit_and_how_to_read_deeper(
    served, tmp_path, case, client, status, status_hint
):
    """Whatever the status, whichever endpoint, and however deep past the limit (400 levels, 950,
    100,000: json's own RecursionError, which once ended the command as a bug)."""
    run = explorer_get(served, tmp_path, f"/cases/{case}", client=client)
    line, hint = said(run)
    assert line == f"explorer get: {status} · {DEEP}"
    assert hint == (f"hint: {status_hint} {DEEPER_FLAG}" if status_hint else f"hint: {DEEPER_FLAG}")


@pytest.mark.parametrize("challenge", sorted(DIGEST_CASES))
def test_a_digest_challenge_that_cannot_be_answered(served, tmp_path, challenge):
    run = explorer_get(served, tmp_path, f"/cases/digest-{challenge}", api_key=True)
    assert run.code == 1, run.err
    line, _ = said(run)
    assert "Digest" in line


def test_credentials_never_go_to_another_origin(served, tmp_path):
    before = len(served.other.seen)
    run = explorer_get(served, tmp_path, served.other.origin + ROOT_PATH)
    assert run.code == 1
    said(run)
    assert len(served.other.seen) == before  # not even asked


# The screen --------------------------------------------------------------------------------------

SCREEN_CASES = sorted(
    [*CASE_CODES, "escapes-in-headers", "next-not-a-url", "bomb", "big-string", "big-entity", "other-origin", "loop"]
)


# A screen run per eighth of the cases (a few each), which pytest-xdist spreads over the cores: the
# cases at some 5 s each (every pane drawn) in one run outlast the suite's 120 s limit on a loaded machine.
EIGHTHS = [SCREEN_CASES[start::8] for start in range(8)]


@pytest.mark.parametrize("cases", EIGHTHS, ids=[f"part{n}" for n in range(1, 9)])
async def test_the_screen_goes_to_every_case_and_keeps_answering(cases):
    async with on_hostile_service(bounds=Bounds(deadline=2)) as explorer:
        app, pilot = explorer.app, explorer.pilot
        for case in cases:
            node = await explorer.go_to(f"/cases/{case}")
            assert isinstance(app.screen, MainScreen) and app.is_running, case
            shown = screen_text(app)
            assert not any(raw in shown for raw in RAW), (case, shown)
            assert TOKEN not in shown and node is not None, case
            for name in ("2", "3", "4", "1"):  # every pane draws it
                await pilot.press(name)
                await explorer.settle()
            assert isinstance(app.screen, MainScreen), case


async def test_the_screen_shows_a_body_past_max_depth_as_received_and_a_batch_of_a_big_entity():
    async with on_hostile_service(bounds=Bounds(deadline=2)) as explorer:
        app, pilot = explorer.app, explorer.pilot
        await explorer.go_to("/cases/deep-json")  # 400 levels: past --max-depth, shown as received
        assert page_message(app).startswith(f"The body is {DEEP}")
        await pilot.press("2")
        await explorer.settle()
        assert "[[[[[[[[" in screen_text(app)
        await pilot.press("1")
        await explorer.go_to("/cases/big-entity")  # 100,000 fields: a batch of them, and a line for the rest
        assert "field000000: {2}" in screen_text(app)
        fields = [str(child.label) for child in explorer.q("#fields").root.children]
        assert fields[-2:] == ["field000499: {2}", "… 99,500 more fields: Enter shows the next 500"]


async def test_the_screen_says_what_it_could_not_read_and_stays_up():
    """Bodies that once ended the screen: an error nested 100,000 deep (a RecursionError), a date in
    the year 10000 in local time (an OverflowError), a blank body in a charset no codec reads."""
    async with on_hostile_service(bounds=Bounds(deadline=2)) as explorer:
        app, pilot = explorer.app, explorer.pilot
        await explorer.go_to("/cases/deeper-error")
        bar = screen_text(app).splitlines()[-2]
        assert "│ 404 Not Found · " in bar and bar.endswith(f" │ ⚠ {DEEP}"), bar
        assert page_rows(app)[0] == f"error    404 Not Found · {DEEP}"
        assert page_rows(app)[-1] == f"hint     {NOTHING_THERE} {DEEPER_AGAIN}"
        await explorer.go_to("/cases/deep-json")
        assert page_message(app) == f"The body is {DEEP}: the JSON pane shows it as received. {DEEPER_AGAIN}"
        await explorer.go_to("/cases/date-past-9999")
        assert "│ created: 9999-12-31T23:59:59-14:00\n" in screen_text(app)  # no local time: there is none
        await explorer.go_to("/cases/blank-unknown-charset")
        await pilot.press("2")
        await explorer.settle()
        assert isinstance(app.screen, MainScreen) and app.is_running
        assert "JSON" in screen_text(app)


async def test_the_screen_says_a_token_refusal_nested_past_max_depth():
    async with on_hostile_service(client="deeper-token-401", bounds=Bounds(deadline=2)) as explorer:
        assert f"│ ⚠ 401 Unauthorized · {DEEP}" in screen_text(explorer.app)
        assert page_rows(explorer.app)[0] == f"error    401 Unauthorized · {DEEP}"
        assert page_rows(explorer.app)[-1] == f"hint     {CREDENTIALS} {DEEPER_AGAIN}"


def page_message(app) -> str:
    """What the Page pane says, as one text (the screen wraps it)."""
    return str(app.screen.query_one("PageView #message", Static).render())


def page_rows(app) -> list[str]:
    """The error document the Page pane shows, as its rows (a value wraps under itself on the screen)."""
    return rows_of(region_text(app, app.screen.query_one("PageView #message", Static)))
