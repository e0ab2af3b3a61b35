"""The terminal's keys, let into the app one at a time: each once the one before it has been done.

Textual hands each key to the widget with the focus as soon as it reads it, and a key travels up from
there, widget by widget, each with a queue of its own. Keys typed in one breath (a fast typist, a
paste without bracketed paste, tmux's send-keys) overtook one another on the way: `g` then
`/groups/…/events` opened the go-to field, and the keys still on their way up through the tree
reached the field after the ones the terminal sent later, straight to the field
(`events/groups/…`). Here a key is let in only once the one before it has gone all the way up, then
once more behind what it set going (Enter in a field submits with a message of its own, which
closes the dialog), and once the screen on top (a dialog the last key opened) has its focus.
Text typed into a field, and a key that moves the focused widget's own cursor (`down` held in the
tree), go in at once: they stay in that widget's queue, in order; the next other key waits behind them.

Each step of that waiting is a hop: a callback queued behind what a widget has to do. A hop queued
on a dialog that closes is never run: the screens' change lets it go at once. A hop queued on a
widget that is gone is lost too: after LONGEST the next key goes in. A hop on a widget still there
is waited for however busy the machine (a loaded machine took more than LONGEST for a dialog to
answer, and the keys after its Enter went into the dialog), up to PATIENCE.

A key that acts on a page still on its way (`]` typed with the Enter that opens a list, `down` in a
table about to show another page) waits for that page: `awaits` says which, and `resume` is called
when the page has come (or failed, or was given up). Escape typed while they wait goes ahead of
them: it gives the page up. So does a key to the command palette while it gathers the matches to
what was typed; that one is let go by the watch, once `awaits` says it no longer waits. For a screen
a worker is opening (typeahead.py) every key waits, Escape too: it is that screen's, and `resume` is
called once it is up. Quit's key (`jumps`) never waits.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterator
from typing import TYPE_CHECKING, Any

from textual import events
from textual.binding import Binding
from textual.dom import DOMNode
from textual.message_pump import MessagePump
from textual.screen import Screen
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Input

if TYPE_CHECKING:
    from textual.app import App

LONGEST = 0.25  # seconds a key whose hop is lost is waited for before the next one goes in
PATIENCE = 5.0  # seconds any key is waited for: a handler that never ends holds no key longer
Typed = events.Key | events.Paste


class KeyLine:
    """The keys and pastes read from the terminal, in the order read, let in one at a time."""

    def __init__(
        self,
        app: App[Any],
        let_in: Callable[[Typed], Awaitable[None]],
        awaits: Callable[[Typed], bool] = lambda event: False,
        jumps: Callable[[Typed], bool] = lambda event: False,
    ) -> None:
        self.app = app
        self.let_in = let_in  # Textual's own handling of a key read from the terminal
        self.awaits = awaits  # whether a key waits: for a page still on its way, or a screen
        self.jumps = jumps  # whether a key goes in as it comes, ahead of every key waiting (ctrl+q)
        self.holding = False  # the next key waits for a page, or a screen on its way
        self.waiting: deque[Typed] = deque()
        self.current: Typed | None = None  # let in (or about to be), not yet done
        self.screen: Screen[Any] | None = None  # the screen on top when the last key was let in
        self.hop: tuple[MessagePump, Callable[[], None]] | None = None  # where the current key is waited for
        self.field: MessagePump | None = None  # where text or a move last went straight, maybe not all done yet
        self.moves: dict[type, frozenset[str]] = {}  # the keys each kind of widget moves its own cursor with
        self.since = 0.0  # when the current key was let in
        self.watch: Timer | None = None  # lets the next key in when the current one is lost

    async def take(self, event: events.Event) -> bool:
        """Hold a key or paste read from the terminal for its turn; False for any other event."""
        if not isinstance(event, Typed) or event.is_forwarded:
            return False
        if self.jumps(event):
            await self.let_in(event)  # quit: whatever waits
            return True
        if self.holding and isinstance(event, events.Key) and event.key == "escape" and not self.awaits(event):
            await self.let_in(event)  # ahead of the keys waiting for the page it gives up
            return True
        self.waiting.append(event)
        if self.current is None:
            await self.next()
        return True

    async def next(self) -> None:
        """Let the next keys in: text typed into a field, and a widget's own cursor keys, at once, one
        after another (they go to the one queue, in order); any other key once the one before it is
        done, the screen on top has settled (one a key just opened has its focus only once its queue
        has come this far), and the field has put in what was typed into it (Enter reads it)."""
        while self.current is None and self.waiting:
            screen = self.app.screen
            event = self.waiting[0]
            if screen is not self.screen:  # behind the app too: it runs a dialog's answer (its result callback)
                self.screen = screen
                self.wait_behind(event, screen, self.app)
                return
            target: MessagePump = self.app.focused or screen
            straight = types_into(target, event) or self.moves_in(target, event)  # into target's queue at once
            if not straight and self.field is not None:
                field, self.field = self.field, None
                # twice behind the field (the text's Changed comes behind the text), then up the way
                # Changed bubbles to its screen (the palette gathers its matches there)
                self.wait_behind(event, field, *upwards(field, screen_of(field) or screen))
                return
            self.holding = self.awaits(event)
            if self.holding:  # `resume` lets it go; the watch too, should no word of the page come
                self.keep_watch()
                return
            self.waiting.popleft()
            if straight:
                self.field = target
                await self.let_in(event)
                continue
            self.current = event
            self.since = time.monotonic()
            self.keep_watch()
            await self.let_in(event)
            way = [*upwards(target, screen), self.app] if event.is_forwarded else []  # [] a priority binding's
            self.follow(way, event)

    def moves_in(self, target: MessagePump, event: Typed) -> bool:
        """Whether `event` moves `target`'s own cursor (`down` in the tree, `pagedown` in the table):
        like text, it stays in that one queue, so a held key's 30 repeats a second go in at once
        instead of a wait through every queue each (100 ms a key on a loaded machine)."""
        if not isinstance(event, events.Key) or not isinstance(target, Widget):
            return False
        kind = type(target)
        if kind not in self.moves:
            self.moves[kind] = frozenset(cursor_keys(kind))
        return event.key in self.moves[kind]

    def wait_behind(self, event: Typed, *nodes: MessagePump) -> None:
        """Try `event` again once each of `nodes` in turn has done what is in its queue now."""
        self.current = event
        self.since = time.monotonic()
        self.keep_watch()
        self.through(list(nodes), event, self.again)

    def through(self, way: list[MessagePump], event: Typed, then: Callable[[Typed], None]) -> None:
        """`then(event)` once each node of `way` in turn has done what is in its queue now."""
        if way:
            self.hop_behind(way[0], event, lambda event: self.through(way[1:], event, then))
        else:
            then(event)

    def again(self, event: Typed) -> None:
        """The screen on top has settled: try `event` again."""
        if self.current is event:
            self.current = None
            self.app.call_later(self.next)

    def resume(self) -> None:
        """A page came (or failed, or was given up), or a screen on its way is up: the keys that waited
        for it go in."""
        if self.holding:
            self.holding = False
            self.app.call_later(self.next)

    def follow(self, way: list[MessagePump], event: Typed, again: bool = True) -> None:
        """Behind the key, up its way queue by queue, once the app has had it: then once more, up
        from what has the focus now, behind what the key set going: done after that."""
        if again:
            self.through(way, event, self.follow_again)
        else:
            self.through(way, event, self.done)

    def follow_again(self, event: Typed) -> None:
        """The second round: up from what has the focus now."""
        screen = self.app.screen
        self.follow([*upwards(self.app.focused or screen, screen), self.app], event, again=False)

    def hop_behind(self, node: MessagePump, event: Typed, then: Callable[[Typed], None]) -> None:
        """`then(event)` once `node` has done what is in its queue now (at once if it cannot)."""

        def arrived() -> None:
            if self.hop is not None and self.hop[1] is arrived:
                self.hop = None
                then(event)

        self.hop = (node, arrived)
        if not node.call_later(arrived):
            arrived()

    def screens_changed(self) -> None:
        """A hop queued on a screen no longer shown may never run: it is gone past at once."""
        if self.hop is not None and screen_of(self.hop[0]) not in (None, *self.app.screen_stack):
            self.hop[1]()

    def keep_watch(self) -> None:
        if self.watch is None:
            self.watch = self.app.set_interval(LONGEST / 2, self.check_stalled, name="key line")
        self.watch.resume()

    def check_stalled(self) -> None:
        """A key whose hop is lost, waited for longer than LONGEST, is taken as done (any key after
        PATIENCE); a page no longer on its way lets the keys that waited for it go."""
        if self.holding:
            if not self.waiting or not self.awaits(self.waiting[0]):
                self.resume()
        elif self.current is None:
            if self.watch is not None:
                self.watch.pause()
        else:
            waited = time.monotonic() - self.since
            if waited >= PATIENCE or (waited >= LONGEST and not self.hop_alive()):
                self.done(self.current)

    def hop_alive(self) -> bool:
        """Whether the hop waited for is queued where it will run: on the app, or on a widget still
        on a screen shown (one on a screen gone, or removed, never runs)."""
        if self.hop is None:
            return False
        node = self.hop[0]
        if node is self.app:
            return True
        return node.is_running and node.is_attached and screen_of(node) in self.app.screen_stack

    def done(self, event: Typed) -> None:
        if self.current is not event:
            return
        self.current = None
        self.hop = None
        if self.waiting:
            self.app.call_later(self.next)


def types_into(target: MessagePump, event: Typed) -> bool:
    """Whether `event` is text that `target` puts in and stops: a character or a paste into a field.
    A letter typed into `g`'s field needs no more waiting than that: 40 of them in one breath
    (tmux's send-keys) go in at the field's own pace, not a screen's refresh each."""
    typed = isinstance(event, events.Paste) or (event.is_printable and event.character is not None)
    return typed and takes_text(target)


def takes_text(node: object) -> bool:
    """Whether `node` is a field that text is typed into: an Input, or a TextArea (the editor's)."""
    if isinstance(node, Input):
        return True
    from textual.widgets import TextArea  # here, not at the top: 10 ms that launch need not pay

    return isinstance(node, TextArea)


MOVING = ("cursor", "page(", "page_up", "page_down", "edge(")  # how the actions that move a widget's own cursor begin


def cursor_keys(kind: type) -> Iterator[str]:
    """The keys a kind of widget binds to moving its own cursor, by its classes' BINDINGS (Textual's
    Tree, DataTable, OptionList, Input, TextArea; the explorer's `moving` keys)."""
    for klass in kind.__mro__:
        for binding in vars(klass).get("BINDINGS", ()):
            key, action = (binding.key, binding.action) if isinstance(binding, Binding) else binding[:2]
            if action.startswith(MOVING):  # not scroll_*: Input has ScrollView's `down`, which GoTo takes
                yield from (name.strip() for name in key.split(","))


def upwards(node: MessagePump, screen: Screen[Any]) -> list[MessagePump]:
    """`node` and the nodes above it up to its screen: the way a key bubbles."""
    way: list[MessagePump] = [node]
    while way[-1] is not screen and isinstance(way[-1], DOMNode) and isinstance(way[-1].parent, DOMNode):
        way.append(way[-1].parent)
    return way


def screen_of(node: MessagePump) -> Screen[Any] | None:
    """The screen `node` is on (None: the app, or a node no longer on any)."""
    current: object = node
    while isinstance(current, DOMNode) and not isinstance(current, Screen):
        current = current.parent
    return current if isinstance(current, Screen) else None
