"""Keys typed after a key that asked for a screen, before that screen is up: they wait for it.

A write goes from screen to screen in a worker (write_flow.py): `a` lists the writes once the API
description has come, Enter on one opens the editor once its draft has been read, and Esc from the
preview opens the editor again. A terminal sends a fast typist's keys (or tmux's send-keys) in one
breath, and those after the asking key are the coming screen's. While a screen is on its way the key
line (key_line.py) holds every key but quit's (ctrl+q), and lets them in, in order, once the
screen is up and has its focus: none reaches the screen below it, where `down` would move the tree
and a character would be lost. They are held where every key waits its turn, before any widget has
one: a key already in a widget's queue as the screen came could not be called back.
"""

from __future__ import annotations

from collections.abc import Callable


class TypedAhead:
    """Whether a screen is on its way, for the app to hold the keys typed meanwhile (app.py)."""

    def __init__(self, let_in: Callable[[], None]) -> None:
        """`let_in`: lets the held keys in, once the screen has come."""
        self.coming = False
        self.let_in = let_in

    def expect(self) -> None:
        """A key asked for a screen that a worker opens: from now on the keys typed wait for it."""
        self.coming = True

    def came(self) -> None:
        """The screen is up, with its focus (or is not coming after all): the keys held go in."""
        if self.coming:
            self.coming = False
            self.let_in()
