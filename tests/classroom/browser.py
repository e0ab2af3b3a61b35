"""The class in a real browser: `explorer serve` in a process, Chromium driven by Playwright.

A tab's screen is read as the browser's terminal gets it: every frame its websocket receives is
fed to pyte, a VT100 emulator, at the size the page asked for (the page draws on a canvas, so the
text is not in the DOM). Keys are pressed in the page, as a student presses them.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyte

BROWSERS = ("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome")


def browser_path() -> str | None:
    """Chromium from the system (the Debian package), or None: Playwright downloads none here."""
    found = os.environ.get("EXPLORER_CHROMIUM") or next((p for p in BROWSERS if os.path.exists(p)), None)
    return found or shutil.which("chromium")


CLASS_MARK = "EXPLORER_TEST_CLASS"  # what tells one class's processes from another's


def student_processes(served: Class) -> list[int]:
    """Processes running a tab's explorer of this class (Python, not the shell that starts it): known
    by the class's mark in their environment, which they inherit from the server, so another test's
    class beside this one (pytest -n) is not counted, and a process that outlived its server is."""
    mark = f"{CLASS_MARK}={served.mark}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        try:
            command = (entry / "cmdline").read_bytes()
            environment = (entry / "environ").read_bytes().split(b"\0")
        except OSError:
            continue
        program = command.split(b"\0", 1)[0]
        if (
            entry.name.isdigit()
            and b"explorer.classroom.student" in command
            and not program.endswith(b"sh")
            and mark in environment
        ):
            found.append(int(entry.name))
    return found


def student_homes(served: Class) -> list[str]:
    """The folder each running tab's explorer of this class was given for its config, state and cache."""
    homes = []
    for pid in student_processes(served):
        with contextlib.suppress(OSError, ValueError):
            words = Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0")
            homes.append(words[words.index("--home") + 1])
    return homes


def until_no_student(served: Class, timeout: float = 10.0) -> None:
    """Wait until no tab's explorer of this class runs: a session is said ended once its explorer has
    closed its output, a moment before its process has gone."""
    deadline = time.monotonic() + timeout
    while student_processes(served):
        if time.monotonic() > deadline:
            raise AssertionError(f"still running after {timeout} s: {student_processes(served)}")
        time.sleep(0.05)


@dataclass
class Class:
    """A running `explorer serve`: its address for students, its key, what it has printed."""

    process: subprocess.Popen[str]
    address: str
    key: str
    mark: str
    printed: list[str] = field(default_factory=list)

    @property
    def url(self) -> str:
        return f"{self.address}/?key={self.key}"

    def read_lines(self, until: Callable[[str], bool], timeout: float = 20.0) -> str:
        """Read what the server prints until a line matches (the log: sessions started and ended)."""
        deadline = time.monotonic() + timeout
        assert self.process.stdout is not None
        while time.monotonic() < deadline:
            line = self.process.stdout.readline()
            if not line:
                break
            self.printed.append(line)
            if until(line):
                return line
        raise AssertionError(f"not printed within {timeout} s; printed: {''.join(self.printed[-20:])}")


@contextmanager
def serving(*flags: str) -> Iterator[Class]:
    """`explorer serve --port 0` with these flags, until the block ends (then Ctrl+C, as a trainer)."""
    mark = uuid.uuid4().hex
    process = subprocess.Popen(
        [sys.executable, "-m", "explorer", "serve", "--port", "0", *flags],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1", CLASS_MARK: mark},
    )
    served = Class(process, "", "", mark)
    try:
        line = served.read_lines(lambda text: "Students open" in text)
        match = re.search(r"(http://\S+)/\?key=(\S+)", line)
        assert match, line
        served.address, served.key = match.groups()
        served.read_lines(lambda text: text.startswith("Press Ctrl+C"))
        yield served
    finally:
        process.send_signal(signal.SIGINT)
        try:
            rest, _ = process.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            rest, _ = process.communicate()
        served.printed.append(rest or "")


class Tab:
    """One browser tab on the class: its page, and its screen as text."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.screen: pyte.Screen | None = None
        self.stream: pyte.ByteStream | None = None
        self.sockets: list[Any] = []
        page.on("websocket", self.watch)

    def watch(self, socket: Any) -> None:
        self.sockets.append(socket)
        socket.on("framesent", self.sent)
        socket.on("framereceived", self.received)

    def sent(self, payload: str | bytes) -> None:
        if isinstance(payload, str):
            envelope = json.loads(payload)
            if envelope[0] == "resize":
                size = envelope[1]
                self.screen = pyte.Screen(size["width"], size["height"])
                self.stream = pyte.ByteStream(self.screen)

    def received(self, payload: str | bytes) -> None:
        if isinstance(payload, bytes) and self.stream is not None:
            self.stream.feed(payload)

    @property
    def text(self) -> str:
        return "\n".join(self.screen.display) if self.screen is not None else ""

    def until(self, condition: Callable[[str], bool], timeout: float = 30.0) -> float:
        """Wait until the screen's text meets `condition`; the seconds it took."""
        start = time.monotonic()
        while time.monotonic() - start < timeout:
            if condition(self.text):
                return time.monotonic() - start
            self.page.wait_for_timeout(50)
        raise AssertionError(f"not on screen within {timeout} s:\n{self.text}")

    def go_to(self, path: str) -> None:
        """g, the path typed, Enter: as a student goes somewhere."""
        self.press("g")
        self.until(lambda text: "Go to a path under the API root" in text)
        self.page.keyboard.type(path)
        self.page.keyboard.press("Enter")

    def press(self, *keys: str) -> None:
        """Keys as a student presses them: into the terminal the page draws."""
        self.page.focus(".xterm-helper-textarea")
        for key in keys:
            self.page.keyboard.press(key)
