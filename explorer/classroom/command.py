"""`explorer serve`: the classroom sandbox, and the explorer served to every student's browser."""

from __future__ import annotations

import argparse
import logging
import os
import sys
import tempfile
import textwrap
from dataclasses import replace
from pathlib import Path

from explorer import __version__
from explorer.sandbox.scenarios import SCENARIOS
from explorer.sandbox.settings import Settings

PORT = 8000
SESSION_MIB = 80  # what one session may take, measured at about 50 (docs/performance.md), with room
MOST_SESSIONS = 200


def default_max_sessions(meminfo: Path = Path("/proc/meminfo")) -> int:
    """As many sessions as half the memory available now holds, at SESSION_MIB each (1 to 200)."""
    try:
        fields = dict(line.split(":", 1) for line in meminfo.read_text().splitlines() if ":" in line)
        available_kib = int(fields["MemAvailable"].split()[0])
    except (OSError, KeyError, ValueError):
        return 30  # a class, where the memory cannot be read
    return max(1, min(MOST_SESSIONS, available_kib // 1024 // 2 // SESSION_MIB))


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--host", default="0.0.0.0", help="the address to listen on (default: %(default)s, every network)"
    )
    parser.add_argument("--port", type=int, default=PORT, help="the port for browsers (default: %(default)s)")
    parser.add_argument(
        "--scenario", choices=sorted(SCENARIOS), help="a drill for the whole class (see --help of explorer)"
    )
    parser.add_argument(
        "--max-sessions",
        type=int,
        metavar="N",
        help=f"explorers open at once, a tab each (default: half the free memory at {SESSION_MIB} MiB each)",
    )


def class_settings(seats: int, scenario: str | None) -> Settings:
    """The classroom sandbox's settings: the control endpoint on, and the limits a student has alone
    (requests a minute per project, token requests a minute) given to every seat, since the whole
    class shares one service account and its projects. A drill's own limit is the class's, shared:
    the drill reaches everyone at once."""
    base = Settings()
    settings = replace(
        base, control=True, rate_limit=base.rate_limit * seats, token_rate_limit=base.token_rate_limit * seats
    )
    return SCENARIOS[scenario].settings(settings) if scenario else settings


def limits_line(settings: Settings, seats: int) -> str:
    each = Settings()
    if settings.rate_limit != each.rate_limit * seats:
        return f"{settings.rate_limit} requests a minute per project, the whole class's (the drill)"
    return f"a seat's: {each.rate_limit} requests a minute per project, {each.token_rate_limit} for tokens"


def banner(address: str, key: str, max_sessions: int, sandbox: str, scenario: str | None) -> str:
    from explorer.classroom.qr import qr_lines
    from explorer.sandbox.links import API_ROOT

    url = f"{address}/?key={key}"
    lines = [
        f"explorer serve {__version__}: a class in the browser, offline.",
        "",
        # The code first, the address below it: on a terminal of 30 rows, the address stays in sight.
        *(f"  {line}" for line in qr_lines(url)),
        "",
        f"  Students open   {url}",
        f"  Class key       {key} (a page without it starts nothing)",
        f"  Sessions        {max_sessions} at most (--max-sessions), a tab each, ended with it",
        f"  Sandbox         {sandbox}{API_ROOT} (this machine only)",
        f"  Limits          {limits_line(class_settings(max_sessions, scenario), max_sessions)}",
        f"  Control         {sandbox}/_sandbox (faults for everyone), e.g.",
        f"    curl -X POST '{sandbox}/_sandbox/unavailable?count=3'",  # quoted: zsh globs an unquoted ?
        "  Projector       the address with &presenter=1 (keys shown, projector theme)",
    ]
    if scenario:
        lines += textwrap.wrap(
            f"{scenario}: {SCENARIOS[scenario].lesson}",
            78,
            initial_indent="  Scenario        ",
            subsequent_indent=" " * 18,
        )
    lines += ["", "Press Ctrl+C to end the class (every session ends with it).", ""]
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    from aiohttp import web

    from explorer.classroom.server import STOP_TIMEOUT, Classroom, new_key, student_command
    from explorer.sandbox.address import lan_address
    from explorer.sandbox.app import create_app
    from explorer.sandbox.server import ServerThread, bind, cannot_listen

    if args.max_sessions is not None and args.max_sessions < 1:
        print("explorer serve: --max-sessions must be 1 or more.", file=sys.stderr)
        return 2
    try:
        listening = bind(args.host, args.port)  # a clash said now, in a line, not by aiohttp's traceback
    except OSError as error:
        print(f"explorer serve: {cannot_listen(error, args.host, args.port)}", file=sys.stderr)
        return 1
    max_sessions = args.max_sessions or default_max_sessions()
    settings = class_settings(max_sessions, args.scenario)
    key = new_key()
    with ServerThread(create_app(settings)) as sandbox, tempfile.TemporaryDirectory(prefix="explorer-class-") as home:
        # Every tab's explorer: the sandbox's credentials in its environment, never its command line; its
        # config, state and cache in a folder of its own in this class's folder (Classroom.command_for),
        # neither the trainer's nor another student's.
        os.environ.update(EXPLORER_CLIENT_ID=settings.client_id, EXPLORER_CLIENT_SECRET=settings.client_secret)
        flags = ["--rate-limit", str(settings.rate_limit), "--token-rate-limit", str(settings.token_rate_limit)]
        if args.scenario:
            flags += ["--scenario", args.scenario]
        address = f"http://{lan_address(args.host)}:{listening.getsockname()[1]}"
        classroom = Classroom(student_command(sandbox.url, *flags), key=key, max_sessions=max_sessions, home=Path(home))
        logging.basicConfig(level=logging.INFO, format="%(message)s")  # a line a session; no tracebacks
        logging.getLogger("aiohttp.access").setLevel(logging.WARNING)
        print(banner(address, key, max_sessions, sandbox.url, args.scenario), flush=True)
        web.run_app(classroom.application(), sock=listening, print=None, shutdown_timeout=STOP_TIMEOUT + 1)
    return 0
