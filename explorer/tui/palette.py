"""The explorer's own colours: JSON syntax, HTTP status classes, token states, the rate-limit meter.

Each is a theme variable (`$status-4xx` in CSS and Content). A theme file may set them; any theme
that does not (Textual's own among them) gets them from its own text colours, so every theme
colours every part. Rich Text (the Line-API views, tree labels, table cells) names the same
colours as console styles, which the app keeps in step with the theme: a change of theme recolours
lines already made.
"""

from __future__ import annotations

from collections.abc import Mapping

from rich.style import Style
from rich.theme import Theme as RichTheme
from textual.app import App
from textual.color import Color, ColorParseError

# Each variable, and the Textual variable it falls back to.
FALLBACKS = {
    "json-key": "text-primary",
    "json-string": "text-success",
    "json-number": "text-warning",
    "json-literal": "text-secondary",
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
}
VARIABLES = tuple(FALLBACKS)
BOLD = {"json-key"}


def status_class(status: int | None) -> str:
    """The variable that colours a status: status-2xx … status-5xx (no answer counts as 5xx)."""
    if status is None or status >= 500 or status < 200:
        return "status-5xx"
    return f"status-{status // 100}xx"


def fill_in(variables: Mapping[str, str]) -> dict[str, str]:
    """The theme's variables with the explorer's own added where the theme leaves them out."""
    filled = dict(variables)
    for name, fallback in FALLBACKS.items():
        if name not in filled:
            filled[name] = variables.get(fallback, variables.get("foreground", "#ffffff"))
    return filled


def rich_theme(variables: Mapping[str, str]) -> RichTheme:
    """The same colours as Rich styles named after the variables (`Text("404", "status-4xx")`)."""
    styles = {}
    for name in VARIABLES:
        try:
            colour = Color.parse(variables[name]).rich_color
        except (ColorParseError, KeyError):
            colour = None
        styles[name] = Style(color=colour, bold=name in BOLD)
    return RichTheme(styles, inherit=False)


class PaletteApp(App[None]):
    """An app whose every theme has the explorer's colours: the widgets here need one."""

    palette_pushed = False  # Textual asks for the variables before __init__ is done

    def get_css_variables(self) -> dict[str, str]:
        """Textual's variables, the explorer's own filled in, and the same colours for Rich Text."""
        variables = fill_in(super().get_css_variables())
        self.theme_variables = variables
        if self.palette_pushed:
            self.console.pop_theme()
        self.console.push_theme(rich_theme(variables))
        self.palette_pushed = True
        return variables
