"""Keys typed while the explorer starts, kept as they were typed.

Until Textual puts the terminal in raw mode, about half a second after the process starts, the
terminal is in its line mode: it echoes each key onto the screen (`^[[B` for `down`) and turns
Enter's carriage return into a line feed, which Textual then reads as `ctrl+j`. `down down enter`
typed at once after `explorer` opened nothing, or the wrong node. From the first line of `main`,
the terminal stops echoing and translating (ICANON, ECHO and ICRNL off; signals such as ctrl+c
still work), so keys typed ahead wait in its buffer as typed; Textual reads them when it starts.
The terminal's own settings are put back when the program ends, whatever ends it, and at once for
a command (`explorer get` asks its questions in line mode). A program started in the background
(`explorer get … &`) leaves the terminal alone: changing it would stop the job (SIGTTOU).
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

try:
    import termios
except ImportError:  # not a POSIX terminal: nothing to keep
    termios = None  # type: ignore[assignment]


class SavedTerminal:
    """The terminal's settings as they were before the explorer started, to put back (`restore`), once."""

    def __init__(self, fd: int | None, before: list[Any] | None) -> None:
        self.fd = fd
        self.before = before

    def restore(self) -> None:
        if termios is not None and self.fd is not None and self.before is not None:
            with contextlib.suppress(OSError, termios.error):  # the terminal went away: nothing to put back
                termios.tcsetattr(self.fd, termios.TCSANOW, self.before)
            self.before = None


@contextmanager
def keys_kept_as_typed() -> Iterator[SavedTerminal]:
    """From here to the end of the block, the terminal on stdin (if any) keeps typed keys as typed."""
    fd, before = terminal_settings()
    if termios is not None and fd is not None and before is not None:
        attributes = list(before)
        attributes[0] &= ~termios.ICRNL  # Enter stays a carriage return
        attributes[3] &= ~(termios.ICANON | termios.ECHO)  # no echo, no waiting for a whole line
        try:
            termios.tcsetattr(fd, termios.TCSANOW, attributes)
        except (OSError, termios.error):
            before = None
    typed = SavedTerminal(fd, before)
    try:
        yield typed
    finally:
        typed.restore()


def terminal_settings() -> tuple[int | None, list[Any] | None]:
    """stdin's file descriptor and its terminal's settings; (None, None) when it is not a terminal."""
    if termios is None:
        return None, None
    try:
        fd = sys.stdin.fileno()
        if not os.isatty(fd) or os.tcgetpgrp(fd) != os.getpgrp():
            return None, None  # not a terminal, or run in the background (`explorer get … &`): left alone
        return fd, termios.tcgetattr(fd)
    except (AttributeError, ValueError, OSError, termios.error):
        return None, None
