"""The terminal's keys, let into the app one at a time: each once the one before it has been done.

Textual hands each key to the widget with the focus as soon as it reads it, and a key travels up from
there, widget by widget, each with a queue of its own. Keys typed in one breath (a fast typist, a
paste without bracketed paste, tmux's send-keys) overtook one another on the way: `g` then
`/groups/…/events` opened the go-to field, and the keys still on their way up through the tree
reached the field after the ones the terminal sent later, straight to the field
(`events/groups/…`). Here a key is let in only once the one before it has gone all the way up, and
once the screen on top (a dialog the last key opened) has taken the focus it gives itself.

A key's way can break (the dialog it went to closed on it): after LONGEST the next one goes in
regardless, so no key waits for one that is lost.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from textual import events
from textual.dom import DOMNode
from textual.message_pump import MessagePump
from textual.timer import Timer

if TYPE_CHECKING:
    from textual.app import App
    from textual.screen import Screen

LONGEST = 0.25  # seconds a key is waited for before the next one goes in
Typed = events.Key | events.Paste


class KeyLine:
    """The keys and pastes read from the terminal, in the order read, let in one at a time."""

    def __init__(self, app: App[Any], let_in: Callable[[Typed], Awaitable[None]]) -> None:
        self.app = app
        self.let_in = let_in  # Textual's own handling of a key read from the terminal
        self.waiting: deque[Typed] = deque()
        self.current: Typed | None = None  # let in, not yet done
        self.screen: Screen[Any] | None = None  # the screen on top when the last key was let in
        self.since = 0.0  # when the current key was let in
        self.watch: Timer | None = None  # lets the next key in when the current one is lost

    async def take(self, event: events.Event) -> bool:
        """Hold a key or paste read from the terminal for its turn; False for any other event."""
        if not isinstance(event, Typed) or event.is_forwarded:
            return False
        self.waiting.append(event)
        if self.current is None:
            await self.next()
        return True

    async def next(self) -> None:
        """Let the next key in, once the screen on top has settled: one a key just opened has its
        widgets and its focus only once its own queue has reached what came before this."""
        if self.current is not None or not self.waiting:
            return
        screen = self.app.screen
        if screen is not self.screen:
            self.screen = screen
            self.current = self.waiting[0]
            self.wait_for(self.current)
            if screen.call_later(self.settled, self.current):
                return
            self.current = None
        event = self.current = self.waiting.popleft()
        target: MessagePump = self.app.focused or screen
        self.wait_for(event)
        await self.let_in(event)
        if not event.is_forwarded:  # a priority binding took it
            self.done(event)
            return
        self.follow([*upwards(target, screen), self.app], event)

    async def settled(self, event: Typed) -> None:
        if self.current is event:
            self.current = None
            await self.next()

    def follow(self, way: list[MessagePump], event: Typed) -> None:
        """Behind the key, up its way queue by queue: done once the app has had it too."""
        if not way:
            self.done(event)
        elif not way[0].call_later(self.follow, way[1:], event):
            self.follow(way[1:], event)

    def wait_for(self, event: Typed) -> None:
        self.since = time.monotonic()
        if self.watch is None:
            self.watch = self.app.set_interval(LONGEST / 2, self.lost, name="key line")
        self.watch.resume()

    def lost(self) -> None:
        """A key waited for longer than LONGEST is taken as done."""
        if self.current is None:
            if self.watch is not None:
                self.watch.pause()
        elif time.monotonic() - self.since >= LONGEST:
            self.done(self.current)

    def done(self, event: Typed) -> None:
        if self.current is not event:
            return
        self.current = None
        if self.waiting:
            self.app.call_later(self.next)


def upwards(node: MessagePump, screen: Screen[Any]) -> list[MessagePump]:
    """`node` and the nodes above it up to its screen: the way a key bubbles."""
    way: list[MessagePump] = [node]
    while way[-1] is not screen and isinstance(way[-1], DOMNode) and isinstance(way[-1].parent, DOMNode):
        way.append(way[-1].parent)
    return way
