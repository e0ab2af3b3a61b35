"""Themes: the shipped files, their legibility, broken files, --theme, the palette's live preview."""

from __future__ import annotations

import os
import tomllib
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from rich._palettes import STANDARD_PALETTE
from rich.cells import cell_len
from rich.color import ColorSystem
from textual.app import App
from textual.color import Color
from textual.command import CommandList, CommandPalette
from textual.errors import NoWidget
from textual.scrollbar import ScrollBar
from textual.theme import BUILTIN_THEMES
from textual.widgets import Input, Tree

from explorer.api.config_file import remember
from explorer.cli import parser
from explorer.launch import build
from explorer.tui.palette import TEXT_VARIABLES
from explorer.tui.themes import load_themes, shipped_dir
from explorer.tui.widgets.items_table import ItemsTable
from explorer.tui.widgets.json_view import JsonView
from explorer.tui.widgets.line_tree import LineTree
from explorer.tui.widgets.splitter import Splitter
from tests.screenshots import SHOTS, SIZE, Shot, fixed_surroundings, open_events_page_2, open_first_cluster
from tests.tui.colour_science import MACHADO, contrast, difference
from tests.tui.conftest import colour_of, started, theme_colour, toasts_of, wait_until
from tests.tui.screen_text import region_text
from tests.tui.test_writes import choose, set_body

SHIPPED = {theme.name: theme for theme in load_themes(shipped_dir())[0]}
STATUS_PAIRS = [("status-2xx", "status-4xx"), ("status-2xx", "status-5xx"), ("token-valid", "token-expired"),
                ("token-valid", "token-refreshing"), ("meter-ok", "meter-held"), ("meter-ok", "meter-low")]  # fmt: skip


def test_the_four_themes_ship_and_each_sets_every_colour_of_the_explorer():
    themes, problems = load_themes(shipped_dir())
    assert problems == []
    assert {"explorer-dark", "explorer-light", "projector", "colorblind"} <= set(SHIPPED)
    assert not SHIPPED["explorer-light"].dark and SHIPPED["explorer-dark"].dark
    for theme in themes:
        assert set(TEXT_VARIABLES) <= set(theme.variables), theme.name


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_every_coloured_text_is_legible_on_its_background(name):
    theme = SHIPPED[name]
    least = 6.0 if name == "projector" else 4.5  # WCAG AA for text; more for a washed-out projector
    for variable in TEXT_VARIABLES:
        assert contrast(theme.variables[variable], theme.background) >= least, (variable, theme.variables[variable])
    assert contrast(theme.foreground, theme.background) >= 7.0


def test_the_projector_theme_is_the_same_on_a_16_colour_terminal():
    theme = SHIPPED["projector"]
    colours = {field: getattr(theme, field) for field in ("primary", "foreground", "background", "error", "success")}
    colours.update(theme.variables)
    numbers = {}
    for field, value in colours.items():
        standard = Color.parse(value).rich_color.downgrade(ColorSystem.STANDARD)
        assert STANDARD_PALETTE[standard.number].hex.upper() == value.upper(), f"{field} {value} would change"
        numbers[field] = standard.number
    classes = [numbers[f"status-{n}xx"] for n in range(2, 6)]
    assert len(set(classes)) == 4 and numbers["background"] not in classes
    assert len({numbers["token-valid"], numbers["token-refreshing"], numbers["token-expired"]}) == 3


@pytest.mark.parametrize("deficiency", sorted(MACHADO))
def test_the_colorblind_theme_never_tells_status_by_red_against_green(deficiency):
    theme = SHIPPED["colorblind"]
    for first, second in [*STATUS_PAIRS, ("success", "error")]:
        a = theme.variables.get(first) or getattr(theme, first)
        b = theme.variables.get(second) or getattr(theme, second)
        assert difference(a, b, deficiency) >= 20, (first, second, deficiency)
    # The check has teeth: the default theme's success and failure are one colour to a deuteranope.
    dark = SHIPPED["explorer-dark"].variables
    assert difference(dark["status-2xx"], dark["status-5xx"], "deuteranopia") < 20


BROKEN = [
    ("bad-toml.toml", 'name = "x"\n[colors\n', None, "is not valid TOML"),
    ("no-name.toml", '[colors]\nprimary = "#112233"\n', "'name'", "is missing or empty"),
    ("colour.toml", 'name = "c"\n[colors]\nprimary = "#112"\nerror = "reddish"\n', "'colors.error'", "is not a colour"),
    ("field.toml", 'name = "f"\ncolours = {}\n[colors]\nprimary = "#112233"\n', "'colours'", "is not a theme field"),
    ("variable.toml", 'name = "v"\n[colors]\nprimary = "#1"\n', "'colors.primary'", "is not a colour"),
    ("unknown.toml", 'name = "u"\n[colors]\nprimary = "#112233"\n[variables]\njson-kye = "#ffffff"\n',
     "'variables.json-kye'", "is not a variable"),
    ("primary.toml", 'name = "p"\ndark = "yes"\n', "'dark'", "must be true or false"),
]  # fmt: skip


def test_a_broken_theme_file_is_named_with_its_field_and_the_rest_still_load(tmp_path):
    for file, text, _, _ in BROKEN:
        (tmp_path / file).write_text(text)
    (tmp_path / "mine.toml").write_text('name = "mine"\n[colors]\nprimary = "#ff00ff"\n')
    themes, problems = load_themes(shipped_dir(), tmp_path)
    assert "mine" in {theme.name for theme in themes} and len(themes) == len(SHIPPED) + 1
    lines = {problem.path.name: problem.line() for problem in problems}
    for file, _, field, reason in BROKEN:
        assert str(tmp_path / file) in lines[file] and reason in lines[file], lines[file]
        assert field is None or f"field {field}" in lines[file], lines[file]


def user_themes() -> Path:
    folder = Path(os.environ["XDG_CONFIG_HOME"]) / "explorer" / "themes"
    folder.mkdir(parents=True)
    return folder


@pytest.mark.screen
async def test_the_app_starts_with_the_default_and_says_which_file_is_broken():
    (user_themes() / "oops.toml").write_text('name = "oops"\n[colors]\nprimary = "not a colour"\n')
    app = build(parser().parse_args(["--demo"]))
    async with app.run_test(size=(160, 40), notifications=True) as pilot:
        await wait_until(lambda: started(app) and "oops.toml" in toasts_of(app), pilot=pilot)
        assert app.theme == "explorer-dark"
        notes = toasts_of(app)
        assert "oops.toml, field 'colors.primary'" in notes.replace("\n", " "), notes


@pytest.mark.screen
async def test_a_user_theme_is_chosen_by_name_and_an_unknown_name_falls_back():
    (user_themes() / "mine.toml").write_text(
        'name = "mine"\ndark = false\n[colors]\nprimary = "#004488"\nbackground = "#ffffff"\n'
        '[variables]\nstatus-2xx = "#004488"\n'
    )
    app = build(parser().parse_args(["--demo", "--theme", "mine"]))
    async with app.run_test(size=(160, 40)) as pilot:
        await wait_until(lambda: started(app), pilot=pilot)
        await pilot.pause()
        assert app.theme == "mine"
        assert colour_of(app.screen.query_one("StatusBar"), "200 OK") == "#004488"
    app = build(parser().parse_args(["--demo", "--theme", "nope"]))
    async with app.run_test(size=(160, 40), notifications=True) as pilot:
        await wait_until(lambda: started(app) and "nope" in toasts_of(app), pilot=pilot)
        assert app.theme == "explorer-dark"
        notes = toasts_of(app).replace("\n", " ")
        assert "There is no theme 'nope': using explorer-dark. ctrl+p → Theme lists the themes." in notes


@pytest.mark.screen
@pytest.mark.parametrize("size", [(80, 24), (60, 24)])
async def test_the_notes_at_start_fit_the_screen_with_every_file_named(size):
    """A bad colour, a broken file and an unknown --theme: three long notices (each file's whole
    path, every theme listed) ran off the top of the screen, the file names lost."""
    folder = user_themes()
    (folder / "night-shift.toml").write_text('name = "night-shift"\n[colors]\nprimary = "#4C9BE8"\nerror = "reddish"\n')
    (folder / "broken.toml").write_text('name = "broken\n[colors\n')
    app = build(parser().parse_args(["--demo", "--theme", "night-shift"]))
    async with app.run_test(size=size, notifications=True) as pilot:
        await wait_until(lambda: started(app) and "broken.toml" in toasts_of(app), pilot=pilot)
        bar = app.screen.query_one("StatusBar")
        # lifted above the status bar once the screen is laid out (a loaded machine took more than a pause)
        await wait_until(
            lambda: all(t.region.height and t.region.bottom <= bar.region.y for t in app.screen.query("Toast")),
            pilot=pilot,
        )
        toasts = list(app.screen.query("Toast"))
        assert len(toasts) == 1 and toasts[0].region.y >= 1, [toast.region for toast in toasts]
        shown = " ".join(" ".join(line.strip(" ▌") for line in region_text(app, toasts[0]).splitlines()).split())
        assert shown.startswith("Theme Theme files skipped in /"), shown  # the title, then the folder
        assert "• broken.toml: is not valid TOML" in shown and "• night-shift.toml, field 'colors.error'" in shown
        assert shown.endswith("There is no theme 'night-shift': using explorer-dark. ctrl+p → Theme lists the themes.")


@pytest.mark.screen
async def test_textual_themes_stay_available_and_get_the_explorer_colours_too(explorer):
    explorer.app.theme = "nord"
    await explorer.pilot.pause()
    bar = explorer.q("StatusBar")
    assert (
        colour_of(bar, "200 OK")
        == theme_colour(explorer.app, "status-2xx")
        == Color.parse(explorer.app.theme_variables["text-success"]).hex
    )


@pytest.mark.screen
async def test_the_palette_previews_themes_live_and_keeps_the_one_chosen(explorer, tmp_path):
    app = explorer.app
    app.settings_path = tmp_path / "config.toml"
    app.settings_path.write_text('# mine\n[profiles.lab]\nbase_url = "https://h.example/api/service/v1.0"\n')
    await explorer.open("orgs")
    await explorer.pilot.press("tab")  # to the panes
    json_view = explorer.q(JsonView)
    explorer.screen.query_one("TabbedContent").active = "json"
    await explorer.pilot.pause()
    before = colour_of(explorer.q("StatusBar"), "200 OK")

    (theme,) = [c for c in app.get_system_commands(app.screen) if c.title == "Theme"]
    assert theme.help.startswith("Preview themes as you move")
    theme.callback()  # as chosen in ctrl+p
    await explorer.until(lambda: isinstance(app.screen, CommandPalette))
    await explorer.pilot.press("down")  # the next theme is shown at once, behind the palette
    await explorer.until(lambda: app.theme != "explorer-dark")
    previewed = app.theme
    assert previewed != "explorer-dark"
    under_the_palette = app.screen_stack[-2].query_one("StatusBar")
    assert colour_of(under_the_palette, "200 OK") == theme_colour(app, "status-2xx")
    await explorer.pilot.press("escape")
    await explorer.until(lambda: not isinstance(app.screen, CommandPalette))
    assert app.theme == "explorer-dark" and colour_of(explorer.q("StatusBar"), "200 OK") == before
    assert "theme" not in tomllib.loads(app.settings_path.read_text())

    app.action_change_theme()
    await explorer.until(lambda: isinstance(app.screen, CommandPalette))
    await explorer.pilot.press(*"projector")
    await explorer.until(lambda: app.screen.query_one(CommandList).option_count == 1)
    await explorer.pilot.press("enter")
    await explorer.until(lambda: "kept in" in explorer.toasts())
    assert app.theme == "projector"
    kept = app.settings_path.read_text()
    assert kept.startswith('# mine\ntheme = "projector"\n\n[profiles.lab]')  # the rest of the file as it was
    assert tomllib.loads(kept)["theme"] == "projector"
    assert "kept in" in explorer.toasts()
    key = json_view.lines[1].split('"')[1] if json_view.lines else None
    assert key and colour_of(json_view, f'"{key}"') == "#55FFFF"  # lines drawn before follow the new theme


def test_remember_replaces_the_setting_and_keeps_the_file_private(tmp_path):
    path = tmp_path / "sub" / "config.toml"
    remember(path, "theme", "projector")
    assert path.read_text() == 'theme = "projector"\n'
    assert os.stat(path).st_mode & 0o777 == 0o600
    path.write_text('default_profile = "x"\ntheme = "old"  # comment\n\n[keys]\n"explorer.quit" = "q"\n')
    remember(path, "theme", "colorblind")
    kept = 'default_profile = "x"\ntheme = "colorblind"  # comment\n\n[keys]\n"explorer.quit" = "q"\n'
    assert path.read_text() == kept  # the comment stays with its setting


async def test_a_kept_theme_is_used_at_the_next_start_and_presenter_prefers_the_projector():
    config = Path(os.environ["XDG_CONFIG_HOME"]) / "explorer" / "config.toml"
    remember(config, "theme", "explorer-light")
    for flags, theme in ((["--demo"], "explorer-light"), (["--demo", "--presenter"], "projector"),
                         (["--demo", "--presenter", "--theme", "colorblind"], "colorblind")):  # fmt: skip
        app = build(parser().parse_args(flags))
        assert app.theme == theme, flags
        await app.session.aclose()


# Textual's ANSI themes use the terminal's own sixteen colours, whatever the terminal makes them:
# there is nothing to measure.
EVERY_THEME = [*sorted(SHIPPED), *(name for name in BUILTIN_THEMES if not name.startswith("ansi-"))]
SIXTEEN = {STANDARD_PALETTE[number].hex.upper() for number in range(16)}
LINES_AND_BARS = range(0x2500, 0x25A0)  # box drawing and block elements: borders, guides, scrollbars


def drawn(app: App[object]) -> list[tuple[str, str, str]]:
    """(text, colour, background) of every run of text on the screen, as Textual sends it to the terminal.

    The compositor's output, as `export_screenshot` draws it: dialogs over the screen they cover,
    alpha, `dim` and text opacity blended in, the line filters applied.
    """
    update = app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    shown = []
    for line in update.strips:
        for strip in line:
            for text, style, control in strip:
                if control or style is None or not text.strip():
                    continue  # blanks: only their background shows, measured with the text beside
                assert style.color and style.bgcolor, f"{text!r} is drawn in the terminal's colours"
                shown.append((text, Color.from_rich_color(style.color).hex, Color.from_rich_color(style.bgcolor).hex))
    return shown


def marks(app: App[object]) -> list[tuple[str, str, str]]:
    """(what, colour, ground) of each tree guide, scrollbar thumb and splitter drawn, as `drawn` sees them.

    A thumb is drawn as blanks in its colour (reversed) between blanks of its track's: it is
    measured against each colour of its bar's track.
    """
    update = app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    shown: list[tuple[str, str, str]] = []
    bars: dict[ScrollBar, tuple[set[str], set[str]]] = {}  # its thumb's colours, its track's
    for y, line in enumerate(update.strips):
        x = 0
        for strip in line:
            for text, style, control in strip:
                if control:
                    continue
                try:
                    widget = app.screen.get_widget_at(x, y)[0]
                except NoWidget:
                    widget = None
                x += cell_len(text)
                if style is None or style.color is None or style.bgcolor is None:
                    continue
                colour, ground = Color.from_rich_color(style.color).hex, Color.from_rich_color(style.bgcolor).hex
                lines = any(ord(c) in LINES_AND_BARS for c in text)
                if isinstance(widget, Tree | LineTree) and lines:
                    shown.append(("guide", colour, ground))
                elif isinstance(widget, Splitter) and lines:
                    shown.append(("splitter", colour, ground))
                elif isinstance(widget, ScrollBar):
                    thumb, track = bars.setdefault(widget, (set(), set()))
                    if text.strip():  # a thumb's end: part of a cell in the thumb's colour, the rest the track's
                        shown.append(("thumb", colour, ground))
                    elif (style.meta or {}).get("@mouse.down") == "grab":
                        thumb.add(colour if style.reverse else ground)
                    else:
                        track.add(colour if style.reverse else ground)
    shown += [("thumb", colour, ground) for thumb, track in bars.values() for colour in thumb for ground in track]
    return list(dict.fromkeys(shown))


def faults(app: App[object], theme: str) -> list[str]:
    """Each text drawn below its theme's promise; for the projector, each colour not of the sixteen.

    In the shipped themes, each tree guide, scrollbar thumb and splitter below 3:1 (WCAG 1.4.11,
    non-text contrast) on what it is drawn on.
    """
    least = 6.0 if theme == "projector" else 4.5
    found = []
    if theme in SHIPPED:
        for what, colour, ground in marks(app):
            if contrast(colour, ground) < 3.0:
                found.append(f"{what} {colour} on {ground}, {contrast(colour, ground):.2f}:1")
    for text, colour, background in drawn(app):
        read = any(not c.isspace() and ord(c) not in LINES_AND_BARS for c in text)
        ratio = contrast(colour, background)
        if read and colour != background and ratio < least:  # a character in its background's colour shows nothing
            found.append(f"{text.strip()[:30]!r} {colour} on {background}, {ratio:.2f}:1")
        if theme == "projector":
            found += [f"{text.strip()[:30]!r}: {c} is not one of the sixteen" for c in (colour, background)
                      if c.upper() not in SIXTEEN]  # fmt: skip
    return found


async def go_to_typed(driven: Any) -> None:
    """The go-to field, the first documented path offered greyed after what is typed."""
    await driven.pilot.press("g")
    await driven.until(lambda: isinstance(driven.app.focused, Input))
    driven.app.focused.value = "/gr"
    await driven.until(lambda: driven.app.focused._suggestion)


async def go_to_empty(driven: Any) -> None:
    """The go-to field emptied: its placeholder."""
    await driven.pilot.press("g")
    await driven.until(lambda: isinstance(driven.app.focused, Input))
    driven.app.focused.value = ""
    await driven.pilot.pause()


async def toast(driven: Any) -> None:
    await driven.open("groups")
    await driven.pilot.press("y")
    await driven.until(lambda: driven.toasts())


async def act(driven: Any) -> None:
    await open_first_cluster(driven)
    await driven.pilot.press("a")
    await driven.until(lambda: type(driven.app.screen).__name__ == "ActScreen" or driven.toasts())


async def compared(driven: Any) -> None:
    await open_first_cluster(driven)
    await driven.pilot.press("m", "equals_sign")
    await driven.until(lambda: type(driven.app.screen).__name__ == "CompareScreen")


async def table_focused(driven: Any) -> None:
    """A list's table with the keys (its cursor solid, the tree's pale), striped rows."""
    await open_events_page_2(driven)
    await driven.pilot.press("1", "down")  # the Page pane takes the keys
    await driven.until(lambda: isinstance(driven.app.focused, ItemsTable))


async def editor(driven: Any) -> None:
    await driven.open("groups")
    await driven.open("groups", "production")
    await choose(driven, "PATCH")


async def preview(driven: Any) -> None:
    await editor(driven)
    set_body(driven, '{"name": "production-eu"}')
    await driven.pilot.press("ctrl+s")
    await driven.until(lambda: type(driven.app.screen).__name__ == "PreviewScreen")


async def palette(driven: Any) -> None:
    await driven.pilot.press("ctrl+p")
    await driven.until(lambda: isinstance(driven.app.screen, CommandPalette))


async def login_ticked(pilot: Any) -> None:
    """The login form, its first field focused, the box ticked."""
    pilot.app.screen.query_one("#save").value = True
    await pilot.pause()


EVERY_SCREEN = {
    **{name: shot for name, shot in SHOTS.items() if not name.startswith("theme-")},
    "go-to typed": Shot("", go_to_typed),
    "go-to empty": Shot("", go_to_empty),
    "toast": Shot("", toast),
    "act": Shot("", act),
    "compare": Shot("", compared),
    "table focused": Shot("", table_focused),
    "editor": Shot("", editor),
    "preview": Shot("", preview),
    "palette": Shot("", palette),
}


# Each theme switch restyles the whole screen (about half a second): the shipped themes are measured
# on every screen, Textual's on the screens that hold every kind of text the others do (tree and
# pane cursors focused and not, stripes, ghost text, a toast over the status bar, a form).
EVERY_THEME_ON = {"root", "table focused", "go-to typed", "toast", "login ticked"}


@pytest.mark.screen
@pytest.mark.parametrize("screen", [*EVERY_SCREEN, "login ticked"])
async def test_every_text_is_legible_on_every_screen_in_every_theme(screen):
    """Every text drawn, against the background it is drawn on, in the shipped themes and Textual's.

    The screens the docs show: the tree focused (its cursor solid) and the panes focused (the
    tree's cursor pale, the table's or the JSON's solid), each pane, dialogs, toasts, the login form.
    """
    themes = EVERY_THEME if screen in EVERY_THEME_ON else sorted(SHIPPED)
    with fixed_surroundings():
        app, before = EVERY_SCREEN["login" if screen == "login ticked" else screen].staged()
        failures = []
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            await before(pilot)
            if screen == "login ticked":
                await login_ticked(pilot)
            for theme in themes:
                app.theme = theme
                await pilot.pause()
                failures += [f"{theme}: {fault}" for fault in faults(app, theme)]
    assert failures == [], "\n".join(failures)


@pytest.mark.screen
async def test_the_measure_sees_what_textual_themes_draw_unadjusted():
    """The check has teeth: without the explorer's adjustment, Textual's own drawing falls short."""
    app, before = SHOTS["root"].staged()
    with fixed_surroundings():
        async with app.run_test(size=SIZE) as pilot:
            await before(pilot)
            app.legible_text.enabled = False  # each theme below is drawn anew
            for theme, text in (("gruvbox", "'orgs'"), ("explorer-dark", "'JSON' #767A82 on #14171C, 4.17:1")):
                app.theme = theme
                await pilot.pause()
                assert any(text in fault for fault in faults(app, theme)), (theme, faults(app, theme))
            app.theme = "projector"
            await pilot.pause()
            assert any("is not one of the sixteen" in fault for fault in faults(app, "projector"))


@pytest.mark.screen
async def test_the_marks_measured_are_on_the_screen_and_faint_ones_are_found():
    """The check has teeth: the JSON pane's screen shows tree guides, a scrollbar thumb and the
    splitter, and the default theme with the guides and thumb Textual gave it (1.6:1, 1.9:1) fails."""
    app, before = SHOTS["json"].staged()
    with fixed_surroundings():
        async with app.run_test(size=SIZE) as pilot:
            await before(pilot)
            assert {what for what, _, _ in marks(app)} == {"guide", "thumb", "splitter"}
            dark = SHIPPED["explorer-dark"]
            textual = {"tree-guides": "#3B3F47", "scrollbar": "#1E3E62"}
            app.register_theme(replace(dark, name="as-textual", variables={**dark.variables, **textual}))
            app.theme = "as-textual"
            await pilot.pause()
            faint = {what for what, colour, ground in marks(app) if contrast(colour, ground) < 3.0}
            assert faint == {"guide", "thumb"}, marks(app)
