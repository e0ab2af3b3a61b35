"""explorer serve's parts without a browser: the address, the QR code, the size of a class, the keys."""

from __future__ import annotations

import asyncio
import ipaddress
import shlex
import sys
from functools import partial

import pytest
import segno
from textual.app import App
from textual_serve.app_service import AppService

from explorer.classroom.command import banner, default_max_sessions
from explorer.classroom.qr import QUIET, qr_lines
from explorer.classroom.server import Classroom, tab_flags
from explorer.sandbox.address import lan_address
from explorer.tui.keys import all_bindings

BROWSER_KEEPS = {"ctrl+w", "ctrl+t", "ctrl+n"}  # a browser closes, opens or makes a window with these


def test_the_address_given_is_never_the_unspecified_one():
    address = lan_address("0.0.0.0")
    assert not ipaddress.ip_address(address).is_unspecified
    assert lan_address("192.0.2.7") == "192.0.2.7"


def test_the_banner_gives_the_address_with_its_key_and_a_qr_code_of_it():
    text = banner("http://192.0.2.7:8000", "k3y", 12, "http://127.0.0.1:5555", "rate-limit")
    assert "Students open   http://192.0.2.7:8000/?key=k3y" in text
    assert (
        "12 at most" in text
        and "rate-limit: 5 requests a minute" in text
        and all(len(line) <= 80 for line in text.splitlines() if "\x1b" not in line)
    )
    assert "5 requests a minute per project, the whole class's (the drill)" in text
    assert "\n".join(f"  {line}" for line in qr_lines("http://192.0.2.7:8000/?key=k3y")) in text


def test_on_a_terminal_of_30_rows_the_address_stays_in_sight_below_the_whole_qr_code():
    url = "http://192.0.2.2:18765/?key=Xq3v9T_2aLkPq7"
    text = banner("http://192.0.2.2:18765", "Xq3v9T_2aLkPq7", 147, "http://127.0.0.1:5555", None)
    screen = text.splitlines()[-29:]  # 30 rows, the last one the cursor's
    code = [f"  {line}" for line in qr_lines(url)]
    start = screen.index(code[0])
    assert screen[start : start + len(code) + 2] == [*code, "", f"  Students open   {url}"]
    drill = banner("http://192.0.2.2:18765", "Xq3v9T_2aLkPq7", 147, "http://127.0.0.1:5555", "rate-limit")
    assert f"  Students open   {url}" in drill.splitlines()[-29:]


def test_the_qr_code_is_segnos_matrix_two_rows_a_line():
    text = "http://192.0.2.7:8000/?key=k3y"
    matrix = segno.make(text, error="m", boost_error=False).matrix
    lines = qr_lines(text)
    assert len(lines) == (len(matrix) + 2 * QUIET + 1) // 2
    first_code_line = lines[QUIET // 2]  # rows QUIET and QUIET+1: the top of the finder patterns
    cells = first_code_line.split("m", 1)[1].rsplit("\x1b", 1)[0]
    assert cells[QUIET : QUIET + 7] == "█▀▀▀▀▀█"  # a finder pattern's top edge, then its inside


def test_a_class_is_sized_to_half_the_free_memory(tmp_path):
    meminfo = tmp_path / "meminfo"
    meminfo.write_text("MemTotal:       24000000 kB\nMemAvailable:    1638400 kB\n")
    assert default_max_sessions(meminfo) == 10  # 1,600 MiB free: 800 MiB at 80 MiB a session
    meminfo.write_text("MemAvailable:    100 kB\n")
    assert default_max_sessions(meminfo) == 1
    assert default_max_sessions(tmp_path / "none") == 30


def test_a_tab_asks_only_for_presenter_and_a_theme_name():
    assert tab_flags({"presenter": "1", "theme": "projector"}) == ["--presenter", "--theme", "projector"]
    assert tab_flags({"theme": "x; rm -rf /", "presenter": "0", "other": "--demo"}) == []


def test_a_tab_s_explorer_is_started_with_its_flags_and_a_folder_of_its_own(tmp_path):
    from explorer.classroom.server import Classroom, student_command
    from explorer.classroom.student import folders_in, parser

    classroom = Classroom(student_command("http://127.0.0.1:9"), key="k3y", max_sessions=2, home=tmp_path)
    words = classroom.command_for({"presenter": "1", "theme": "x; rm -rf /"})
    assert words[:-2] == [*student_command("http://127.0.0.1:9"), "--presenter"] and words[-2] == "--home"
    args = parser().parse_args(words[words.index("explorer.classroom.student") + 1 :])
    assert args.presenter and args.theme is None and args.home.parent == tmp_path
    assert folders_in(args.home) == {
        "XDG_CONFIG_HOME": str(args.home / "config"),
        "XDG_STATE_HOME": str(args.home / "state"),
        "XDG_CACHE_HOME": str(args.home / "cache"),
        "XDG_DATA_HOME": str(args.home / "data"),
        "HOME": str(args.home),
    }


def test_no_binding_needs_a_key_the_browser_keeps():
    keys = {key.strip() for binding in all_bindings() for key in binding.key.split(",")}
    keys |= {binding.key for binding in App.BINDINGS if hasattr(binding, "key")}  # Textual's own
    assert not keys & BROWSER_KEEPS, keys & BROWSER_KEEPS


def test_every_seat_has_the_limits_a_student_has_alone_but_a_drill_is_shared():
    from explorer.classroom.command import class_settings

    plain = class_settings(30, None)
    assert (plain.rate_limit, plain.token_rate_limit, plain.control) == (3000, 300, True)
    drill = class_settings(30, "rate-limit")
    assert (drill.rate_limit, drill.token_rate_limit) == (5, 300)


@pytest.mark.subprocess
def test_a_port_in_use_or_no_seats_is_said_in_a_line(tmp_path):
    import socket
    import subprocess
    import sys

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        run = subprocess.run(
            [sys.executable, "-m", "explorer", "serve", "--host", "127.0.0.1", "--port", str(port)],
            capture_output=True,
            text=True,
            timeout=30,
        )
    assert run.returncode == 1 and "Traceback" not in run.stderr
    assert f"cannot listen on 127.0.0.1:{port}" in run.stderr and "--port" in run.stderr
    run = subprocess.run(
        [sys.executable, "-m", "explorer", "serve", "--max-sessions", "0"], capture_output=True, text=True, timeout=30
    )
    assert (run.returncode, run.stderr) == (2, "explorer serve: --max-sessions must be 1 or more.\n")


# A tab's explorer whose output ends half a second before its process does: as an explorer's
# does while it revokes its token and exits, held back here so that the gap cannot be missed.
SLOW_TO_EXIT = "import os, time; print('__GANGLION__', flush=True); os.close(1); time.sleep(0.5)"


async def started(classroom: Classroom) -> AppService:
    """One session of `classroom`, started as a tab's would be, that sends nowhere."""

    async def nowhere(data: object) -> None:
        return None

    service = AppService(
        shlex.join(classroom.student),
        write_bytes=nowhere,
        write_str=nowhere,
        close=partial(nowhere, None),
        download_manager=classroom.downloads,
    )
    classroom.sessions.add(service)
    await service.start(80, 24)
    return service


async def test_a_session_has_ended_when_its_process_is_gone_not_when_its_output_is(tmp_path):
    classroom = Classroom([sys.executable, "-c", SLOW_TO_EXIT], key="k", max_sessions=2, home=tmp_path)
    service = await started(classroom)
    await classroom.end(service)
    assert service._process is not None and service._process.returncode == 0
    assert not classroom.sessions and not classroom.endings


async def test_the_class_ends_after_the_sessions_already_ending_as_it_ends(tmp_path):
    """A tab closed just before Ctrl+C: its ending has begun, out of `sessions`, when the class's
    begins; the class's waits for it, or the event loop closes under its process."""
    classroom = Classroom([sys.executable, "-c", SLOW_TO_EXIT], key="k", max_sessions=2, home=tmp_path)
    closed, still_open = await started(classroom), await started(classroom)
    tab_ending = asyncio.create_task(classroom.end(closed))
    await asyncio.sleep(0)  # the closed tab's handler has begun its ending
    assert classroom.sessions == {still_open}
    await classroom.end_all(classroom.application())
    for service in (closed, still_open):
        assert service._process is not None and service._process.returncode == 0
    await tab_ending
