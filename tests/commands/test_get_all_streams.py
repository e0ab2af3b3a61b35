"""`explorer get --all` writes each page's items as the page comes: memory is about one page
whatever the list's length, and the output is what one JSON array of every item would be."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from typing import Any
from urllib.parse import parse_qs

import httpx
import pytest

from explorer.api.config import Credentials
from explorer.api.secret import Secret
from explorer.api.session import Session
from explorer.commands.get import get_all
from explorer.commands.output import ItemsOut
from explorer.sandbox.server import ServerThread
from tests.conftest import ROOT
from tests.hostile_service import ROOT_PATH, answer

ITEMS = 123_400  # the list the issue measured: 282 MiB when every page was kept
PAGE = 500


def item(number: int) -> dict[str, Any]:
    return {"id": f"{number:024x}", "name": f"event-{number}", "eventTypeName": "CLUSTER_READY", "n": number,
            "created": "2026-11-24T10:00:00Z", "links": [{"rel": "self", "href": f"/events/{number}"}]}  # fmt: skip


async def long_list(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """A token for anyone, and a list of ITEMS items, PAGE a page, each page linking the next."""
    if scope["type"] != "http":
        return
    json_type = {"content-type": "application/json"}
    if scope["path"] == "/api/oauth/token":
        token = {"access_token": "t0ken", "token_type": "Bearer", "expires_in": 3600}
        return await answer(send, 200, json_type, json.dumps(token).encode())
    query = parse_qs(scope["query_string"].decode())
    number = int(query.get("pageNum", ["1"])[0])
    first = (number - 1) * PAGE
    base = f"http://{scope['server'][0]}:{scope['server'][1]}{ROOT_PATH}/events"
    links = [{"rel": "self", "href": f"{base}?pageNum={number}&itemsPerPage={PAGE}"}]
    if first + PAGE < ITEMS:
        links.append({"rel": "next", "href": f"{base}?pageNum={number + 1}&itemsPerPage={PAGE}"})
    page = {"results": [item(n) for n in range(first, min(first + PAGE, ITEMS))], "totalCount": ITEMS, "links": links}
    await answer(send, 200, json_type, json.dumps(page).encode())


@pytest.mark.subprocess
def test_a_long_list_is_written_as_it_comes_in_about_a_pages_memory(tmp_path):
    """The aim: 123,400 items in under 48 MiB (the interpreter and its imports are most of it: 35 MiB on
    3.11, 38 on 3.13). explorer's own memory: without coverage's tracer, which CI's run would start in it."""
    measure = (
        "import resource, subprocess, sys; "
        "done = subprocess.run(sys.argv[2:], stdout=open(sys.argv[1], 'wb')); "
        "print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
    )
    unmeasured = {name: value for name, value in os.environ.items() if not name.startswith("COVERAGE_")}
    environ = {**unmeasured, "HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "c"),
               "XDG_CACHE_HOME": str(tmp_path / "k"), "EXPLORER_CLIENT_ID": "c",
               "EXPLORER_CLIENT_SECRET": "s"}  # fmt: skip
    with ServerThread(long_list) as server:
        environ["EXPLORER_BASE_URL"] = server.url + ROOT_PATH
        command = [sys.executable, "-m", "explorer", "get", "--no-token-cache", "/events", "--all"]
        run = subprocess.run(
            [sys.executable, "-c", measure, str(tmp_path / "items.out"), *command],
            capture_output=True, text=True, env=environ, cwd=ROOT, timeout=300,
        )  # fmt: skip
    code, peak_kib = map(int, run.stdout.split())
    assert code == 0, run.stderr
    items = json.loads((tmp_path / "items.out").read_bytes())
    assert len(items) == ITEMS and items[-1] == item(ITEMS - 1)
    assert peak_kib < 48 * 1024, f"{peak_kib / 1024:.1f} MiB at the peak"


@pytest.mark.parametrize("indent", [None, 2])
def test_the_pages_written_are_one_json_array_as_json_dumps_writes_it(indent, monkeypatch):
    pages = [[{"a": [1, 2], "b": "x\ny", "c": {}}, 2], [], [{"d": {"e": []}}, "é"]]
    written = io.BytesIO()
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(written))
    out = ItemsOut(indent)
    for page in pages:
        out.write(page)
    out.close()
    items = [item for page in pages for item in page]
    assert written.getvalue().decode() == json.dumps(items, indent=indent, ensure_ascii=False) + "\n"
    assert out.so_far() == (
        "4 items of 2 pages were printed before it; the array is left open, so no JSON reader takes them "
        "for the whole list."
    )


def test_nothing_written_is_said_so(monkeypatch):
    written = io.BytesIO()
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(written))
    out = ItemsOut(None)
    assert out.so_far() == "Nothing was printed."
    out.close()
    assert written.getvalue() == b"[]\n"


async def test_a_next_page_nested_past_the_depth_limit_ends_the_array_and_names_the_flag(capsys):
    """A page that cannot be read as JSON is no page: the walk ends there, said with the hint the
    command line words (its --max-depth) and what was printed before it."""
    base = "https://api.example/api/service/v1.0/events"

    def pages(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/api/oauth/token":
            return httpx.Response(200, json={"access_token": "t0ken", "token_type": "Bearer", "expires_in": 3600})
        if request.url.params.get("pageNum") == "2":
            return httpx.Response(200, content=("[" * 150 + "]" * 150).encode())
        links = [{"rel": "self", "href": f"{base}?pageNum=1"}, {"rel": "next", "href": f"{base}?pageNum=2"}]
        return httpx.Response(200, json={"results": [item(0), item(1)], "totalCount": 4, "links": links})

    credentials = Credentials(base.removesuffix("/events"), client_id="c", client_secret=Secret("s"))
    async with Session(credentials, transport=httpx.MockTransport(pages)) as session:
        first = await session.fetch("/events", params={"itemsPerPage": "2"})
        code = await get_all(session, first, "/events", {"itemsPerPage": "2"})
    assert code == 1
    assert capsys.readouterr().err.splitlines()[-2:] == [
        f"explorer get: {base}?pageNum=2 is not a page of the list: its body is JSON nested deeper than 100 levels "
        "(the depth limit)",
        "hint: A higher depth limit reads it (up to 500 levels). Set it with --max-depth LEVELS. 2 items of 1 page "
        "were printed before it; the array is left open, so no JSON reader takes them for the whole list.",
    ]
