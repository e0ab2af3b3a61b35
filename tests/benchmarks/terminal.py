"""A program in a pseudo-terminal, its screen read as a person would read it.

The program is started in a pty of a given size; a thread reads what it writes, noting when each
piece arrived, and a second feeds the pieces to pyte, a VT100 emulator. `shown(text)` waits until
`text` is on the screen and returns when the bytes that put it there arrived: the emulator's own
time (pyte is pure Python: a first frame of 120 × 40 takes it tens of milliseconds) is not counted,
nor does it hold back the reading of what follows. Keys are written to the terminal as bytes, as a
keyboard's would be.

    with Terminal([sys.executable, "-m", "explorer", "--demo"]) as term:
        drawn = term.shown("groups", since=term.started)
        term.press(b"?")
        term.shown("Keys")
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import signal
import struct
import subprocess
import termios
import threading
import time
from collections import deque
from collections.abc import Sequence
from pathlib import Path

import pyte

ESC = b"\x1b"
KEYS = {
    "enter": b"\r",
    "escape": ESC,
    "down": ESC + b"[B",
    "up": ESC + b"[A",
    "left": ESC + b"[D",
    "end": ESC + b"[F",
    "tab": b"\t",
}


class Screen(pyte.Screen):
    """pyte's screen, taking the cursor moves Textual writes with more parameters than pyte expects
    (CSI n;m E/F, CSI l;c;x H)."""

    def cursor_down1(self, count: int | None = None, *_: object) -> None:
        super().cursor_down1(count)

    def cursor_up1(self, count: int | None = None, *_: object) -> None:
        super().cursor_up1(count)

    def cursor_position(self, line: int | None = None, column: int | None = None, *_: object) -> None:
        """CSI l;c H, with any parameter past the two pyte knows left out (it once raised and stopped the reader)."""
        super().cursor_position(line, column)


def controlling_terminal() -> None:
    """In the child, its new session's controlling terminal is the pty on stdin, as a terminal
    window's shell has: ctrl+c written to it is SIGINT, not a byte read."""
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class NotShown(AssertionError):
    """The text awaited did not come on the screen in time."""


class Terminal:
    """A command in a pty of `columns` × `rows`, and what its screen shows (see the module)."""

    def __init__(
        self,
        command: Sequence[str],
        columns: int = 120,
        rows: int = 40,
        env: dict[str, str] | None = None,
        cwd: Path | None = None,
    ) -> None:
        self.command = list(command)
        self.cwd = cwd
        self.columns, self.rows = columns, rows
        self.env = {**(env or os.environ), "TERM": "xterm-256color", "COLUMNS": str(columns), "LINES": str(rows)}
        self.screen = Screen(columns, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.changed = threading.Condition()
        self.fed_at = 0.0  # when the last bytes fed to the screen arrived
        self.arrived: deque[tuple[float, bytes]] = deque()  # read, not yet fed: when each came, and what
        self.came = threading.Condition()
        self.started = 0.0
        self.modes_before: list[object] = []
        self.process: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> Terminal:
        main, child = os.openpty()
        fcntl.ioctl(child, termios.TIOCSWINSZ, struct.pack("HHHH", self.rows, self.columns, 0, 0))
        self.main = main
        # the terminal's modes before the program could change them: a test that read them once the
        # program was started raced it (a loaded run read them after the explorer's first lines)
        self.modes_before = termios.tcgetattr(main)
        self.started = time.perf_counter()
        self.process = subprocess.Popen(
            self.command,
            stdin=child,
            stdout=child,
            stderr=child,
            env=self.env,
            cwd=self.cwd,
            start_new_session=True,
            preexec_fn=controlling_terminal,
            close_fds=True,
        )
        os.close(child)
        self.reader = threading.Thread(target=self.read, daemon=True)
        self.feeder = threading.Thread(target=self.feed, daemon=True)
        self.reader.start()
        self.feeder.start()
        return self

    def __exit__(self, *exc: object) -> None:
        assert self.process is not None
        with contextlib.suppress(ProcessLookupError):  # the program and what it started: all hold the terminal
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(10)
        # The terminal read to its end before its descriptor is given back: a reader still running
        # would go on reading the next terminal's, which gets the same number (and its first lines).
        self.reader.join(10)
        os.close(self.main)

    def read(self) -> None:
        """What the program writes, as it comes, with when it came (b"" at the end)."""
        while True:
            try:
                data = os.read(self.main, 65536)
            except OSError:
                data = b""
            with self.came:
                self.arrived.append((time.perf_counter(), data))
                self.came.notify()
            if not data:
                return

    def feed(self) -> None:
        """The pieces read, to the emulator, in order; the screen is then as it was when they arrived."""
        while True:
            with self.came:
                while not self.arrived:
                    self.came.wait()
                at, data = self.arrived.popleft()
            if not data:
                return
            with self.changed:
                self.stream.feed(data)
                self.fed_at = at
                self.changed.notify_all()

    def text(self) -> str:
        with self.changed:
            return "\n".join(self.screen.display)

    def shown(self, text: str, timeout: float = 30.0, gone: bool = False) -> float:
        """When `text` came on the screen (or, with `gone`, left it): perf_counter seconds."""
        deadline = time.perf_counter() + timeout
        with self.changed:
            while (text in "\n".join(self.screen.display)) == gone:
                left = deadline - time.perf_counter()
                if left <= 0:
                    screen = "\n".join(self.screen.display)
                    state = "gone" if gone else "shown"
                    raise NotShown(f"{text!r} not {state} in {timeout:g} s; the screen:\n{screen}")
                self.changed.wait(left)
            return self.fed_at

    def press(self, *keys: str | bytes) -> float:
        """Write keys as a keyboard would (names from KEYS, or bytes); returns when they were sent."""
        for key in keys:
            os.write(self.main, KEYS[key] if isinstance(key, str) else key)
        return time.perf_counter()

    def cpu_over(self, seconds: float) -> float:
        """The CPU seconds the program uses over the next `seconds`, waited here."""
        before = self.cpu_seconds()
        time.sleep(seconds)
        return self.cpu_seconds() - before

    def cpu_seconds(self) -> float:
        """User and system CPU the program has used so far (Linux /proc)."""
        assert self.process is not None
        stat = Path(f"/proc/{self.process.pid}/stat").read_text()
        fields = stat.rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
