"""Theme files: the ones that ship in `themes/`, and the user's own in `<config dir>/themes/`.

    # themes/projector.toml
    name = "projector"
    dark = true

    [colors]            # Textual's theme colours
    primary = "#55FFFF"
    background = "#000000"

    [variables]         # the explorer's own (see palette.py), or any of Textual's
    status-4xx = "#FFFF55"

A file that cannot be used is skipped with a message naming the file and the field; the others
still load, and the app starts with the default theme.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from platformdirs import user_config_path
from textual.color import Color, ColorParseError
from textual.theme import Theme

from explorer.api.config_file import APP
from explorer.tui.palette import VARIABLES

DEFAULT_THEME = "explorer-dark"
PROJECTOR_THEME = "projector"
PROJECTOR_CONTRAST = 6.0  # a projector washes colours out: more than WCAG's 4.5:1
COLOURS = ("primary", "secondary", "warning", "error", "success", "accent", "foreground", "background",
           "surface", "panel", "boost")  # fmt: skip
NUMBERS = ("luminosity_spread", "text_alpha")
TOP_LEVEL = {"name", "dark", "colors", "variables", *NUMBERS}


@dataclass(frozen=True)
class ThemeProblem:
    """Why one file gave no theme."""

    path: Path
    field: str | None
    reason: str

    def line(self) -> str:
        where = f"{self.path}, field {self.field!r}" if self.field else str(self.path)
        return f"Theme file {where}: {self.reason}. It was skipped."

    def short(self) -> str:
        """The line without the folder, which `skipped` names once for all its files."""
        where = f"{self.path.name}, field {self.field!r}" if self.field else self.path.name
        return f"{where}: {self.reason}."


def skipped(problems: list[ThemeProblem]) -> list[str]:
    """The theme files skipped, by name under their folder, for one notice at start: with the whole
    path in each, one notice a file ran off the top of an 80x24 screen, the file names lost."""
    lines: list[str] = []
    for folder in dict.fromkeys(problem.path.parent for problem in problems):
        lines.append(f"Theme files skipped in {folder}:")
        lines += [f"• {problem.short()}" for problem in problems if problem.path.parent == folder]
    return lines


class BadTheme(Exception):
    def __init__(self, field: str | None, reason: str) -> None:
        super().__init__(reason)
        self.field = field
        self.reason = reason


def shipped_dir() -> Path:
    """`explorer/themes` inside an installed wheel; the checkout's top-level `themes/` otherwise."""
    package = Path(__file__).resolve().parent.parent
    inside = package / "themes"
    return inside if inside.is_dir() else package.parent / "themes"


def user_dir() -> Path:
    return user_config_path(APP) / "themes"


def load_themes(*folders: Path) -> tuple[list[Theme], list[ThemeProblem]]:
    """Every `*.toml` in these folders, in order (a later file of the same name wins)."""
    themes: dict[str, Theme] = {}
    problems: list[ThemeProblem] = []
    for folder in folders:
        try:
            paths = sorted(folder.glob("*.toml"))
        except OSError:
            continue
        for path in paths:
            try:
                theme = read_theme(path)
            except BadTheme as bad:
                problems.append(ThemeProblem(path, bad.field, bad.reason))
            else:
                themes[theme.name] = theme
    return list(themes.values()), problems


def read_theme(path: Path) -> Theme:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise BadTheme(None, f"cannot be read ({error.strerror})") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise BadTheme(None, f"is not valid TOML ({error})") from None
    return theme_of(data)


def theme_of(data: dict[str, Any]) -> Theme:
    """A Textual Theme from a file's table, every field checked."""
    unknown = sorted(set(data) - TOP_LEVEL)
    if unknown:
        raise BadTheme(unknown[0], f"is not a theme field (use {', '.join(sorted(TOP_LEVEL))})")
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise BadTheme("name", "is missing or empty")
    dark = data.get("dark", True)
    if not isinstance(dark, bool):
        raise BadTheme("dark", "must be true or false")
    colors = table(data, "colors")
    wrong = sorted(set(colors) - set(COLOURS))
    if wrong:
        raise BadTheme(f"colors.{wrong[0]}", f"is not a theme colour (use {', '.join(COLOURS)})")
    if "primary" not in colors:
        raise BadTheme("colors.primary", "is missing: every theme needs a primary colour")
    for field, value in colors.items():
        colour(f"colors.{field}", value)
    variables = table(data, "variables")
    for field, value in variables.items():
        if not isinstance(value, str):
            raise BadTheme(f"variables.{field}", "must be a string")
        if field in VARIABLES:
            colour(f"variables.{field}", value)
        elif field not in textual_variables():
            raise BadTheme(f"variables.{field}", "is not a variable of the explorer or of Textual")
    numbers: dict[str, Any] = {}
    for field in NUMBERS:
        if field in data:
            value = data[field]
            if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
                raise BadTheme(field, "must be a number from 0 to 1")
            numbers[field] = float(value)
    return Theme(name=name.strip(), dark=dark, variables=dict(variables), **colors, **numbers)


@cache
def textual_variables() -> frozenset[str]:
    """The names Textual's colour system defines (a theme may set any of them)."""
    return frozenset(Theme(name="probe", primary="#000000").to_color_system().generate())


def table(data: dict[str, Any], field: str) -> dict[str, Any]:
    value = data.get(field, {})
    if not isinstance(value, dict):
        raise BadTheme(field, "must be a table")
    return value


def colour(field: str, value: Any) -> None:
    if not isinstance(value, str):
        raise BadTheme(field, 'must be a colour string such as "#1e90ff"')
    try:
        Color.parse(value)
    except ColorParseError:
        raise BadTheme(field, f'{value!r} is not a colour (use "#rrggbb", "rgb(…)" or a colour name)') from None
