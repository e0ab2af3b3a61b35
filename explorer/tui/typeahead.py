"""Keys typed after a screen was answered, before the screen its answer opens can take them.

A write goes from screen to screen in a worker (write_flow.py): Enter on a write in `a`'s list, Esc
from the preview, and the editor comes once the worker has been woken. A terminal sends a fast
typist's keys (or tmux's send-keys) in one breath: what comes after the answering key reaches the
answered screen, or the main screen under it, before the editor is there. Those keys are the
editor's: they are held here, in order, and the editor takes them first when it opens.
"""

from __future__ import annotations

from textual import events


class TypedAhead:
    """The keys held for the screen on its way; None while no screen is on its way."""

    def __init__(self) -> None:
        self.keys: list[events.Key] | None = None

    def expect(self) -> None:
        """A screen was answered, and the next is on its way: from now on keys are held for it."""
        self.keys = []

    def hold(self, event: events.Key) -> bool:
        """Keep `event` for the screen on its way, if one is; False (and the key left alone) if none is."""
        if self.keys is None:
            return False
        self.keys.append(events.Key(event.key, event.character))
        event.prevent_default()
        event.stop()
        return True

    def take(self) -> list[events.Key]:
        """The keys held, for the screen that has come; nothing is held after."""
        keys, self.keys = self.keys or [], None
        return keys
