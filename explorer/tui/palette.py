"""The explorer's own colours: JSON syntax, HTTP status classes, token states, the rate-limit meter,
and the stripes and cursors of the line views (the items table, the JSON view).

Each is a theme variable (`$status-4xx` in CSS and Content). A theme file may set them; any theme
that does not (Textual's own among them) gets them from its own colours, made legible where the
theme's own would not be: every text colour at least 4.5:1 (WCAG AA) on the backgrounds the
explorer draws it on, and a cursor's text on the cursor. So every theme colours every part, and
none draws text that cannot be read. Rich Text (the Line-API views, tree labels, table cells)
names the same colours as console styles, which the app keeps in step with the theme: a change of
theme recolours lines already made.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.style import Style
from rich.theme import Theme as RichTheme
from textual.app import App
from textual.color import BLACK, Color, ColorParseError
from textual.filter import LineFilter

from explorer.tui.text_contrast import LegibleText, legible

# Each text colour, and the Textual variable it falls back to.
FALLBACKS = {
    "json-key": "text-primary",
    "json-string": "text-success",
    "json-number": "text-warning",
    "json-literal": "text-secondary",
    "json-muted": "foreground-muted",  # punctuation, null, what a folded value holds: quieter, still legible
    "status-2xx": "text-success",
    "status-3xx": "text-primary",
    "status-4xx": "text-warning",
    "status-5xx": "text-error",
    "token-valid": "text-success",
    "token-refreshing": "text-warning",
    "token-expired": "text-error",
    "meter-ok": "text-success",
    "meter-low": "text-warning",
    "meter-held": "text-error",
    "badge": "text-accent",  # what the tree says beside a watched or marked resource
}
TEXT_VARIABLES = tuple(FALLBACKS)
# The line views': their text, the background of every other line, and the text on the cursor when
# the view has focus and when it has not (on Textual's $block-cursor-background and
# $block-cursor-blurred-background).
LINE_VARIABLES = ("line-foreground", "line-stripe", "line-cursor-foreground", "line-cursor-blurred-foreground")
# The trees' guide lines: a mark, not text, so 3:1 (WCAG 1.4.11) on the tree, focused or not
# (Textual's own guides are 1.1 to 2:1, and black on black in a black theme).
MARK_VARIABLES = ("tree-guides",)
VARIABLES = TEXT_VARIABLES + LINE_VARIABLES + MARK_VARIABLES
BOLD = {"json-key"}
STRIPE = 0.06  # a stripe is the surface moved this far toward the foreground
TINT = 0.05  # a focused tree's background is the surface moved this far toward the foreground (Textual's)
MARKS = 3.0  # WCAG's least contrast for lines and bars that show a part or its state


def status_class(status: int | None) -> str:
    """The variable that colours a status: status-2xx … status-5xx (no answer counts as 5xx)."""
    if status is None or status >= 500 or status < 200:
        return "status-5xx"
    return f"status-{status // 100}xx"


def solid(value: str, under: Color) -> Color | None:
    """A variable's colour as drawn over `under` (alpha blended, `auto 87%` resolved); None for ANSI colours."""
    if value.startswith("auto"):
        alpha = float(value.split()[1].rstrip("%")) / 100 if len(value.split()) > 1 else 1.0
        colour = under.get_contrast_text(alpha)
    else:
        colour = Color.parse(value)
    if colour.ansi is not None or under.ansi is not None:
        return None
    return under + colour


def fill_in(variables: Mapping[str, str]) -> dict[str, str]:
    """The theme's variables with the explorer's own added where the theme leaves them out.

    A colour left out is the theme's own, made legible; one the theme sets is used as it is.
    """
    filled = dict(variables)
    for name, fallback in FALLBACKS.items():
        filled.setdefault(name, variables.get(fallback, variables.get("foreground", "#ffffff")))
    try:
        derived = legible_lines(filled)
    except (ColorParseError, KeyError, IndexError, ValueError):
        derived = {}
    for name, value in derived.items():
        if name not in variables:
            filled[name] = value
    filled.setdefault("line-foreground", filled.get("foreground", "ansi_default"))
    filled.setdefault("line-stripe", filled.get("surface", "transparent"))
    filled.setdefault("line-cursor-foreground", filled.get("block-cursor-foreground", "ansi_default"))
    filled.setdefault("line-cursor-blurred-foreground", filled.get("block-cursor-blurred-foreground", "ansi_default"))
    filled.setdefault("tree-guides", "ansi_bright_black")  # Textual draws them in the background's colour
    return filled


def legible_lines(variables: Mapping[str, str]) -> dict[str, str]:
    """The stripe, the cursors' text and the text colours, legible where the line views draw them;
    the trees' guides, seen on the tree.

    Empty for a theme of ANSI colours: those are whatever the terminal makes them.
    """
    background = solid(variables["background"], BLACK)
    if background is None:
        return {}
    surface = solid(variables["surface"], background)
    foreground = solid(variables["foreground"], background)
    cursor = solid(variables["block-cursor-background"], background)
    if surface is None or foreground is None or cursor is None:
        return {}
    blurred = solid(variables["block-cursor-blurred-background"], surface)
    on_cursor = solid(variables["block-cursor-foreground"], cursor)
    on_blurred = solid(variables["block-cursor-blurred-foreground"], blurred) if blurred else None
    if blurred is None or on_cursor is None or on_blurred is None:
        return {}
    stripe = solid(variables["line-stripe"], surface) if "line-stripe" in variables else None
    stripe = stripe or surface.blend(foreground, STRIPE)
    grounds = (background, surface, stripe)  # the stripe is the nearest to the text of the line views' grounds
    tree = (surface, surface + foreground.with_alpha(TINT))  # not focused, focused
    derived = {
        "tree-guides": legible(surface, tree, MARKS).hex,
        "line-foreground": legible(foreground, grounds).hex,
        "line-stripe": stripe.hex,
        "line-cursor-foreground": legible(on_cursor, [cursor]).hex,
        "line-cursor-blurred-foreground": legible(on_blurred, [blurred]).hex,
    }
    for name in TEXT_VARIABLES:
        colour = solid(variables[name], background)
        if colour is not None:
            derived[name] = legible(colour, grounds).hex
    return derived


def rich_theme(variables: Mapping[str, str]) -> RichTheme:
    """The text colours as Rich styles named after the variables (`Text("404", "status-4xx")`)."""
    styles = {}
    for name in TEXT_VARIABLES:
        try:
            colour = Color.parse(variables[name]).rich_color
        except (ColorParseError, KeyError):
            colour = None
        styles[name] = Style(color=colour, bold=name in BOLD)
    return RichTheme(styles, inherit=False)


class PaletteApp(App[None]):
    """An app whose every theme has the explorer's colours: the widgets here need one."""

    palette_pushed = False  # Textual asks for the variables before __init__ is done

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.legible_text = LegibleText()  # before Textual's __init__, which may set the theme
        super().__init__(*args, **kwargs)

    def get_line_filters(self) -> Sequence[LineFilter]:
        """Textual's filters (which blend `dim` into the colour), then every text made legible."""
        filters = list(super().get_line_filters())
        if self.legible_text.enabled:
            filters.append(self.legible_text)
        return filters

    def get_css_variables(self) -> dict[str, str]:
        """Textual's variables, the explorer's own filled in, and the same colours for Rich Text."""
        variables = fill_in(super().get_css_variables())
        self.theme_variables = variables
        if self.palette_pushed:
            self.console.pop_theme()
        self.console.push_theme(rich_theme(variables))
        self.palette_pushed = True
        return variables
