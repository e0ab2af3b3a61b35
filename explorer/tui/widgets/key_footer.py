"""The footer: the screen's keys on one line, those that leave (and help) always among them.

Every screen has its own, a dialog too: Textual's Footer shows the keys of the screen it is on, so
a dialog's footer names the dialog's keys (esc, enter, …), not those of the screen under it."""

from __future__ import annotations

from collections.abc import Hashable

from textual import events
from textual.app import ComposeResult
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer

ALWAYS = ("quit", "back", "close", "cancel", "dismiss", "help")  # the ways out (Quit, Back, Close), and Help
ROOMY = 100  # columns from which the keys have room to spare


class KeyFooter(Footer):
    """A Footer that, where its keys do not all fit, leaves out the last of the others, never the keys
    that leave (`q Quit`, `⌫ Back`, `esc Back`) or `? Help`: Textual's Footer cut the line at its
    right edge, and the keys that leave, last in line (the app's), went first.

    It is made again only when the keys it would show have changed: Textual's Footer is made anew
    each time the screen's bindings may have changed (every focus change), three times as the
    explorer starts, its keys measured each time."""

    shown_for: Hashable = None  # what the keys shown were made from (keys_shown), once some are

    def compose(self) -> ComposeResult:
        """Compact or not as the terminal is wide now: the first frame (1 to 3 s, while a slow service
        answers the root's request) showed `^p palette` at 80 columns until the first resize."""
        roomy = self.app.size.width >= ROOMY
        self.set_reactive(Footer.show_command_palette, roomy)
        self.set_reactive(Footer.compact, not roomy)
        self.set_class(not roomy, "-compact")
        keys = list(super().compose())
        self.shown_for = keys_shown(self.screen) if keys else None  # none: Footer waits for the bindings
        yield from keys

    def bindings_changed(self, screen: Screen) -> None:  # type: ignore[type-arg]
        """Make the keys again, as Footer does, unless they are the ones shown."""
        if self.shown_for is not None and screen is self.screen and keys_shown(screen) == self.shown_for:
            return
        super().bindings_changed(screen)

    async def recompose(self) -> None:
        await super().recompose()
        self.fit()

    def on_resize(self, event: events.Resize) -> None:
        """Below ROOMY columns, compact and without `^p palette` (ctrl+p still opens it, the header's
        icon too): `q Quit` shows at 80 columns, and a dialog's keys at 60."""
        compact = event.size.width < ROOMY
        palette_changed = self.show_command_palette == compact
        self.compact = compact
        self.show_command_palette = not compact
        if palette_changed:  # a window made narrower or wider: Footer draws `^p palette` only as it composes
            self.call_later(self.recompose)
        else:
            self.call_after_refresh(self.fit)  # measured once the keys are drawn compact (or not)

    def fit(self) -> None:
        """Show the keys that leave and Help, then the others in their order while they fit."""
        every = list(self.query_children("FooterKey"))
        keys = [key for key in every if not key.has_class("-command-palette")]
        room = self.size.width - sum(width(key) for key in every if key not in keys)
        showing = {key for key in keys if always(key)}
        used = sum(width(key) for key in showing)
        for key in keys:
            if key not in showing and used + width(key) <= room:
                showing.add(key)
                used += width(key)
            elif key not in showing:
                used = room + 1  # keys after one left out stay out: the order is kept
        for key in keys:
            key.display = key in showing


def keys_shown(screen: Screen) -> Hashable:  # type: ignore[type-arg]
    """What a footer's keys are made from: each binding shown, its key, words and state, in order."""
    return tuple(
        (key, binding.action, binding.description, binding.key_display, binding.group, enabled, tooltip)
        for key, (_, binding, enabled, tooltip) in screen.active_bindings.items()
        if binding.show
    )


def always(key: Widget) -> bool:
    action: str = getattr(key, "action", "")
    return action.rpartition(".")[2].split("(")[0] in ALWAYS


def width(key: Widget) -> int:
    """The cells the key takes in the line: its text, its padding and its margin."""
    size = key.app.size
    return key.get_content_width(size, size) + key.styles.gutter.width + key.styles.margin.width
