"""The command palette's list of themes: moving through it previews each one (the app does that)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Protocol, cast

from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.theme import Theme


class ThemeChooser(Protocol):
    """What the list needs of the app: its themes, the one previewed, and a way to keep a choice."""

    @property
    def available_themes(self) -> Mapping[str, Theme]: ...

    previewing: str | None

    def choose_theme(self, name: str) -> None: ...


class ThemeChoices(Provider):
    """Every registered theme, the current one first; choosing one keeps it in the config file."""

    def choices(self) -> list[tuple[str, str]]:
        app = cast(ThemeChooser, self.app)
        names = sorted(app.available_themes, key=lambda name: (name != app.previewing, name))
        return [(name, "dark" if app.available_themes[name].dark else "light") for name in names]

    async def discover(self) -> Hits:
        app = cast(ThemeChooser, self.app)
        for name, kind in self.choices():
            yield DiscoveryHit(name, partial(app.choose_theme, name), text=name, help=kind)

    async def search(self, query: str) -> Hits:
        app = cast(ThemeChooser, self.app)
        matcher = self.matcher(query)
        for name, kind in self.choices():
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, matcher.highlight(name), partial(app.choose_theme, name), text=name, help=kind)
