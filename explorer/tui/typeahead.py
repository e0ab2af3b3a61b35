"""Keys typed after a key that asked for a screen, before that screen is up: they wait for it.

A write goes from screen to screen in a worker (write_flow.py): `a` lists the writes once the API
description has come, Enter on one opens the editor once its draft has been read, and Esc from the
preview opens the editor again. A terminal sends a fast typist's keys (or tmux's send-keys) in one
breath, and those after the asking key are the coming screen's. While a screen is on its way the key
line (key_line.py) holds every key but quit's (ctrl+q), and lets them in, in order, once the
screen is up and has its focus: none reaches the screen below it, where `down` would move the tree
and a character would be lost. They are held where every key waits its turn, before any widget has
one: a key already in a widget's queue as the screen came could not be called back.

A question is answered only by a key typed once it was asked (`Question`): the preview's Enter
typed in a burst with the body, before the preview was there, sends nothing.
"""

from __future__ import annotations

import math
from collections.abc import Callable


class TypedAhead:
    """Whether a screen is on its way, for the app to hold the keys typed meanwhile (app.py)."""

    def __init__(self, let_in: Callable[[], None]) -> None:
        """`let_in`: lets the held keys in, once the screen has come."""
        self.coming = False
        self.owner: object = None  # the worker whose flow opens the screens asked for
        self.let_in = let_in

    def expect(self, owner: object = None) -> None:
        """A key asked for a screen that a worker opens: from now on the keys typed wait for it.

        Args:
            owner: The worker that opens it; None: the one that opened the screen asking (a dialog
                on its way to the next screen of the same flow).
        """
        self.coming = True
        if owner is not None:
            self.owner = owner

    def came(self) -> None:
        """The screen is up, with its focus: the keys held go in."""
        if self.coming:
            self.coming = False
            self.let_in()

    def given_up(self, owner: object) -> None:
        """`owner`'s flow is over (done, failed or cancelled): if the keys wait for a screen of its,
        none is coming. A flow cancelled by the next `a` leaves that one's wait alone."""
        if owner is self.owner:
            self.came()


class Question:
    """A screen that asks (the write's preview: Enter sends): a key typed before it was up is no
    answer to it, and the app drops it (app.py), as the command line empties the terminal's queue
    before `Send? [y/N]`."""

    asked_at: float = math.inf  # when it was mounted, on Textual's clock (a key's `time`): none before
