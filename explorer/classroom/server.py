"""The class's web server: a page and an explorer process for every browser tab that brings the key.

textual-serve does the hard part: `AppService` runs one app process per browser connection and
relays its screen over a websocket, and its JavaScript (xterm.js) draws it. Its `Server` checks
nothing, takes the page's font from the internet and logs tracebacks with their locals, so the
web application is made here instead, with textual-serve's public pieces: the class key every page,
websocket and download must bring (compared in constant time, by `key_refused`), the most sessions
at once, the explorer each tab runs (`student.py`, with the tab's presenter and theme, and a folder
of its own for its config, state and cache), the page with the bundled font
(templates/app_index.html), downloads (a tab's "save" arrives in its browser, never on this disk),
and every session stopped with the server.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import re
import secrets
import shlex
import sys
import tempfile
from collections.abc import Sequence
from functools import partial
from pathlib import Path
from urllib.parse import parse_qsl, quote, urlencode

import aiohttp_jinja2
import jinja2
import textual_serve
from aiohttp import WSMsgType, web
from textual_serve.app_service import AppService
from textual_serve.download_manager import DownloadManager

TEMPLATES = Path(__file__).parent / "templates"
STATICS = Path(textual_serve.__file__).parent / "static"
STOP_TIMEOUT = 5.0  # seconds a session has to end (its token revoked) when its tab or the server goes
THEME_NAME = re.compile(r"[a-z0-9-]{1,40}")
TAB_FLAGS = ("presenter", "theme")

log = logging.getLogger("explorer.classroom")


class Classroom:
    """Serve one explorer per browser tab that brings `key`, `max_sessions` at once.

    `student` is the command line of a tab's explorer, before the tab's own flags (--presenter,
    --theme) that its address asks for (?presenter=1, ?theme=NAME) and its own folder (--home), made
    in `home`, the class's folder: one student's theme or tree width is never the next tab's.
    """

    def __init__(self, student: Sequence[str], *, key: str, max_sessions: int, home: Path) -> None:
        self.student = list(student)
        self.key = key
        self.home = home
        self.max_sessions = max_sessions
        self.sessions: set[AppService] = set()
        self.endings: dict[AppService, asyncio.Task[None]] = {}
        self.downloads = DownloadManager()

    def application(self) -> web.Application:
        app = web.Application()
        aiohttp_jinja2.setup(app, loader=jinja2.FileSystemLoader(TEMPLATES))
        app.add_routes(
            [
                web.get("/", self.index),
                # The key and the tab's flags are in the path: the page's script adds its own query.
                web.get("/ws/{key}/{tab}", self.websocket),
                web.get("/download/{download}", self.download),
                web.static("/static", STATICS),
            ]
        )
        app.on_shutdown.append(self.end_all)
        app.on_cleanup.append(collect)
        return app

    # Pages ---------------------------------------------------------------------------------

    async def index(self, request: web.Request) -> web.StreamResponse:
        """The class's page (textual-serve's, with the bundled font), or the page that says why not."""
        refused = self.refusal(request, request.query.get("key", ""))
        if refused is not None:
            return refused
        tab = urlencode({name: request.query[name] for name in TAB_FLAGS if name in request.query})
        context = {
            "font_size": to_int(request.query.get("fontsize", "16"), 16),
            "app_websocket_url": f"ws://{request.host}/ws/{quote(self.key, safe='')}/{quote(tab or '-', safe='')}",
            "config": {"static": {"url": "/static/"}},
            "application": {"name": "explorer"},
        }
        return aiohttp_jinja2.render_template("app_index.html", request, context)

    def key_refused(self, request: web.Request, key: str) -> web.Response | None:
        """The page that says a request did not bring the class's key (403); None if it did.

        Args:
            request: the page, websocket or download asked for.
            key: the key it brought ("" for none).

        Returns:
            The refusal, or None when `key` is the class's.
        """
        if secrets.compare_digest(key.encode(), self.key.encode()):
            return None
        return refused_page(
            request,
            403,
            "This class needs its key",
            "The address the trainer gives ends with ?key=…: open that address, whole. Nothing was started.",
        )

    def refusal(self, request: web.Request, key: str) -> web.Response | None:
        """The page that says why a request starts nothing: no key or a wrong one, or a full class."""
        refused = self.key_refused(request, key)
        if refused is not None:
            return refused
        if len(self.sessions) >= self.max_sessions:
            return refused_page(
                request,
                503,
                "The class is full",
                f"{self.max_sessions} explorers are open, as many as this class allows. Ask the trainer, or try "
                "again when a tab is closed.",
            )
        return None

    # Sessions ------------------------------------------------------------------------------

    async def websocket(self, request: web.Request) -> web.StreamResponse:
        """One tab's explorer, for as long as its websocket is open."""
        refused = self.refusal(request, request.match_info["key"])
        if refused is not None:
            return refused  # before the upgrade: the page's script sees the socket fail
        socket = web.WebSocketResponse(heartbeat=15)
        await socket.prepare(request)
        # textual.js adds its "instance" to a download's address (/download/ID?instance=…): the key, there.
        await socket.send_json(["instance_id", self.key])
        tab = dict(parse_qsl(request.match_info["tab"]))
        service = AppService(
            shlex.join(self.command_for(tab)),
            write_bytes=socket.send_bytes,
            write_str=socket.send_str,
            close=partial(close, socket),
            download_manager=self.downloads,
        )
        self.sessions.add(service)
        log.info("A session started: %d open, %d at most.", len(self.sessions), self.max_sessions)
        try:
            await service.start(
                to_int(request.query.get("width", "80"), 80), to_int(request.query.get("height", "24"), 24)
            )
            await relay(socket, service)
        except Exception as error:
            log.warning("A session failed: %s: %s", type(error).__name__, error)
        finally:
            await self.end(service)
            log.info("A session ended: %d open.", len(self.sessions))
        return socket

    def command_for(self, tab: dict[str, str]) -> list[str]:
        """The command line of one tab's explorer: the student's, the tab's flags, and a folder of its
        own for its config, state and cache (--home), made now in the class's folder, private (0700),
        and deleted with the class's.

        Args:
            tab: what the tab's address asks for (?presenter=1, ?theme=NAME).

        Returns:
            The command line, a word an item.
        """
        own = tempfile.mkdtemp(prefix="student-", dir=self.home)  # mkdtemp: new, and only this user's
        return [*self.student, *tab_flags(tab), "--home", own]

    def begin_ending(self, service: AppService) -> None:
        """Begin ending one session, once: a task of its own (see `stop`), in `self.endings` until done."""
        if service not in self.sessions:
            return
        self.sessions.discard(service)
        ending = asyncio.create_task(stop(service))
        self.endings[service] = ending
        ending.add_done_callback(lambda _: self.endings.pop(service))

    async def end(self, service: AppService) -> None:
        """End one session: its explorer quits (revoking its token) and its process is gone."""
        self.begin_ending(service)
        if (ending := self.endings.get(service)) is not None:
            await asyncio.shield(ending)  # the tab's handler may be cancelled as the class ends: not its ending

    async def end_all(self, app: web.Application) -> None:
        """Every session ends with the server, those already ending too: a tab closed just as the class
        ends is neither cut off half way nor left to outlive the event loop."""
        for service in list(self.sessions):
            self.begin_ending(service)
        await asyncio.gather(*self.endings.values())

    async def download(self, request: web.Request) -> web.StreamResponse:
        """A file a tab's explorer delivers (its "save"), streamed to that tab's browser: to a request
        that brings the class's key (as textual.js asks for it: ?instance=KEY), as every page must."""
        refused = self.key_refused(request, request.query.get("instance", ""))
        if refused is not None:
            return refused
        try:
            meta = await self.downloads.get_download_metadata(request.match_info["download"])
        except KeyError:
            raise web.HTTPNotFound(text="No such download: it was delivered already, or its tab closed.") from None
        response = web.StreamResponse()
        response.content_type = meta.mime_type
        if meta.encoding:
            response.charset = meta.encoding
        disposition = "inline" if meta.open_method == "browser" else "attachment"
        response.headers["Content-Disposition"] = f'{disposition}; filename="{quote(meta.file_name)}"'
        await response.prepare(request)
        async for chunk in self.downloads.download(request.match_info["download"]):
            await response.write(chunk)
        await response.write_eof()
        return response


async def collect(app: web.Application) -> None:
    """Let the ended sessions' process transports go while the event loop runs: left to the end of
    the interpreter, asyncio would print a traceback for each ("Event loop is closed")."""
    gc.collect()


async def stop(service: AppService) -> None:
    """Stop one tab's explorer and wait for its process to be gone.

    textual-serve's `AppService.stop` returns once the app's output has ended, which is before its
    process has exited and been reaped: a server that ended then would close its event loop under the
    process's transport ("Loop that handles pid … is closed", then a traceback as the transport is
    freed). AppService has no public way to its process, hence `_process`, read and never replaced.
    A process that outlasts STOP_TIMEOUT is killed.
    """
    with contextlib.suppress(Exception):
        await asyncio.wait_for(service.stop(), STOP_TIMEOUT)
    process = service._process  # see above
    if process is None:
        return
    try:
        await asyncio.wait_for(process.wait(), STOP_TIMEOUT)
    except TimeoutError:
        with contextlib.suppress(ProcessLookupError):
            process.kill()
        await process.wait()


async def close(socket: web.WebSocketResponse) -> None:
    """Close a tab's websocket: its explorer has ended."""
    await socket.close()


async def relay(socket: web.WebSocketResponse, service: AppService) -> None:
    """The browser's messages to the tab's explorer: keys and clicks, its size, its focus."""
    async for message in socket:
        if message.type != WSMsgType.TEXT:
            continue
        try:
            kind, data = message.json()
        except ValueError:
            continue  # not an envelope the page sends
        if kind == "stdin" and isinstance(data, str):
            await service.send_bytes(data.encode("utf-8"))
        elif kind == "resize" and isinstance(data, dict):
            await service.set_terminal_size(to_int(str(data.get("width")), 80), to_int(str(data.get("height")), 24))
        elif kind == "ping":
            await socket.send_json(["pong", data])
        elif kind == "blur":
            await service.blur()
        elif kind == "focus":
            await service.focus()


def tab_flags(tab: dict[str, str]) -> list[str]:
    """The explorer's flags a tab's address asks for: ?presenter=1, ?theme=NAME (a name, nothing else)."""
    flags = []
    if tab.get("presenter") in ("1", "true", "yes"):
        flags.append("--presenter")
    theme = tab.get("theme", "")
    if THEME_NAME.fullmatch(theme):
        flags += ["--theme", theme]
    return flags


def refused_page(request: web.Request, status: int, title: str, message: str) -> web.Response:
    return aiohttp_jinja2.render_template("refused.html", request, {"title": title, "message": message}, status=status)


def to_int(value: str, default: int) -> int:
    try:
        return int(value)
    except ValueError:
        return default


def student_command(sandbox: str, *flags: str) -> list[str]:
    """The command line of one tab's explorer on the classroom sandbox at `sandbox`."""
    return [sys.executable, "-m", "explorer.classroom.student", "--sandbox", sandbox, *flags]


def new_key() -> str:
    """A class key: 64 random bits, short enough to read out or type."""
    return secrets.token_urlsafe(8)
