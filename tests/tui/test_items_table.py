"""The items table alone: a click or Enter opens the item itself; the keys move the cursor; the
stripes and the cursor are drawn in the theme's colours, focused or not, and follow a new theme."""

from __future__ import annotations

from typing import Any

import pytest
from textual.color import Color
from textual.geometry import Region
from textual.widgets import Input

from explorer.tui.palette import PaletteApp
from explorer.tui.themes import load_themes, shipped_dir
from explorer.tui.widgets.items_table import ItemsTable

ITEMS = [{"id": f"{n:024x}", "name": f"group-{n:03d}", "clusters": n % 7} for n in range(500)]


class Host(PaletteApp):
    """The table above a text box (somewhere else for the focus to go), with the shipped themes."""

    def __init__(self, items: list[Any]) -> None:
        super().__init__()
        self.items = items
        self.opened: list[Any] = []
        for theme in load_themes(shipped_dir())[0]:
            self.register_theme(theme)
        self.theme = "explorer-light"

    def compose(self) -> Any:
        yield ItemsTable()
        yield Input()

    def on_mount(self) -> None:
        self.query_one(ItemsTable).show(self.items)

    def on_items_table_open(self, event: ItemsTable.Open) -> None:
        self.opened.append(event.item)


def drawn(table: ItemsTable) -> list[tuple[str, str]]:
    """Each line on screen: its text, and the background behind its first character."""
    lines = []
    for strip in table.render_lines(Region(0, 0, table.size.width, table.size.height)):
        first = next(iter(strip))
        background = Color.from_rich_color(first.style.bgcolor).hex if first.style and first.style.bgcolor else ""
        lines.append((strip.text.rstrip(), background))
    return lines


def row_of(table: ItemsTable, name: str) -> tuple[str, str]:
    (line,) = [line for line in drawn(table) if name in line[0]]
    return line


def variable(app: Any, name: str, under: str = "surface") -> str:
    """A theme colour as drawn: blended over `under` when it is see-through."""
    return (Color.parse(app.theme_variables[under]) + Color.parse(app.theme_variables[name])).hex


async def test_one_click_on_a_row_opens_that_item():
    app = Host(ITEMS[:5])
    async with app.run_test(size=(80, 20)) as pilot:
        await pilot.click(ItemsTable, offset=(4, 2))  # the header, then the first row: the second row
        await pilot.pause()
        assert app.opened == [ITEMS[1]]  # the item itself, not a row number to look up


async def test_enter_opens_the_item_under_the_cursor():
    app = Host(ITEMS[:5])
    async with app.run_test(size=(80, 20)) as pilot:
        await pilot.press("down", "down", "enter")
        await pilot.pause()
        assert app.opened == [ITEMS[2]]


@pytest.mark.screen
async def test_the_keys_move_the_cursor_and_the_rows_scroll_under_the_header():
    app = Host(ITEMS)
    async with app.run_test(size=(80, 20)) as pilot:
        table = app.query_one(ItemsTable)
        cursor = variable(app, "block-cursor-background")
        assert row_of(table, "group-000")[1] == cursor
        await pilot.press("end")
        await pilot.pause()
        lines = drawn(table)
        assert lines[0][0].split() == ["id", "name", "clusters"]  # the header stays
        assert "group-499" in lines[-1][0] and lines[-1][1] == cursor
        await pilot.press("pageup")
        await pilot.pause()
        rows = table.size.height - 1
        assert row_of(table, f"group-{499 - rows:03d}")[1] == cursor  # a screenful up, in the same place
        assert f"group-{499 - rows:03d}" in drawn(table)[-1][0]
        await pilot.press("home", "down")
        await pilot.pause()
        assert "group-000" in drawn(table)[1][0] and row_of(table, "group-001")[1] == cursor


async def test_rows_are_striped_and_the_cursor_says_whether_the_table_has_the_keys():
    app = Host(ITEMS[:6])
    async with app.run_test(size=(80, 20)) as pilot:
        table = app.query_one(ItemsTable)
        await pilot.press("down", "down")
        await pilot.pause()
        assert row_of(table, "group-001")[1] == variable(app, "line-stripe")
        assert row_of(table, "group-003")[1] == variable(app, "line-stripe")
        assert row_of(table, "group-002")[1] == variable(app, "block-cursor-background")
        plain = row_of(table, "group-004")[1]
        assert plain not in (variable(app, "line-stripe"), variable(app, "block-cursor-background"))
        await pilot.press("tab")  # the keys go to the text box
        await pilot.pause()
        assert not table.has_focus
        assert row_of(table, "group-002")[1] == variable(app, "block-cursor-blurred-background")
        assert row_of(table, "group-001")[1] == variable(app, "line-stripe") != row_of(table, "group-004")[1]


async def test_a_new_theme_recolours_the_rows_drawn_before():
    app = Host(ITEMS[:6])
    async with app.run_test(size=(80, 20)) as pilot:
        table = app.query_one(ItemsTable)
        light = row_of(table, "group-001")[1]
        app.theme = "explorer-dark"
        await pilot.pause()
        assert row_of(table, "group-001")[1] == variable(app, "line-stripe") != light
        assert row_of(table, "group-000")[1] == variable(app, "block-cursor-background")


async def test_in_the_terminal_s_own_colours_the_cursor_still_shows_without_focus():
    app = Host(ITEMS[:6])
    async with app.run_test(size=(80, 20)) as pilot:
        app.theme = "ansi-dark"  # the cursor's background away from focus is the terminal's default
        await pilot.press("tab")
        await pilot.pause()
        table = app.query_one(ItemsTable)
        strip = table.render_lines(Region(0, 1, table.size.width, 1))[0]  # the first row, under the cursor
        assert "group-000" in strip.text
        assert all(segment.style.underline for segment in strip if segment.text.strip())
