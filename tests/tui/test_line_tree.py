"""The link tree's own widget draws and moves as Textual's Tree does, with lines made when drawn."""

from __future__ import annotations

from typing import Any

import pytest
from rich.text import Text
from textual.app import App, ComposeResult
from textual.strip import Strip
from textual.widgets import Input, Tree

from explorer.tui.widgets.line_tree import LineTree

SHAPE = [  # (label, unfolded, children)
    ("orgs", True, [("Acme", False, [("projects", False, [])]), ("Globex", True, [("teams", False, [])])]),
    ("groups", False, [("production", False, [])]),
    ("ipinfo", False, []),
]


class Trees(App[None]):
    """One tree, Textual's or ours, with the same lines, beside an input to take the focus."""

    CSS = "#tree { width: 30; height: 10; } Input { width: 20; }"  # both fit: the screen never scrolls

    def __init__(self, kind: type[Any]) -> None:
        super().__init__()
        self.kind = kind

    def compose(self) -> ComposeResult:
        tree = self.kind(Text("root"), id="tree")

        def grow(parent: Any, shape: list[Any]) -> None:
            for label, unfolded, children in shape:
                line = parent.add(Text(label), data=label, expand=unfolded, allow_expand=bool(children))
                grow(line, children)

        grow(tree.root, SHAPE)
        tree.root.expand()
        yield tree
        yield Input()


def screen_cells(app: App[None]) -> list[list[tuple[str, str]]]:
    """Each row of the tree's region as shown: its text and its styles, run by run."""
    tree = app.query_one("#tree")
    update = app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    rows = []
    for y in range(tree.region.y, tree.region.bottom):
        line = Strip.join(list(update.strips[y])).crop(tree.region.x, tree.region.right)
        rows.append([(text, str(style)) for text, style, _ in line])
    return rows


async def drawn(kind: type[Any], moves: Any, theme: str) -> list[list[tuple[str, str]]]:
    app = Trees(kind)
    async with app.run_test(size=(60, 14)) as pilot:
        app.theme = theme
        app.query_one("#tree").focus()
        await pilot.pause()
        await moves(app, pilot)
        await pilot.pause()
        return screen_cells(app)


async def cursor_down_twice(app: App[None], pilot: Any) -> None:
    await pilot.press("down", "down", "down")  # from the root to Globex: its guides are the cursor's


async def hover_orgs(app: App[None], pilot: Any) -> None:
    await pilot.hover("#tree", offset=(6, 1))  # the mouse on orgs: its lines are highlighted


async def blurred(app: App[None], pilot: Any) -> None:
    await pilot.press("down", "down")
    app.query_one(Input).focus()


async def narrow_guides(app: App[None], pilot: Any) -> None:
    app.query_one("#tree").guide_depth = 2  # type: ignore[attr-defined]
    await pilot.press("down", "down", "down", "down")


@pytest.mark.screen
@pytest.mark.parametrize("moves", [cursor_down_twice, hover_orgs, blurred, narrow_guides])
@pytest.mark.parametrize("theme", ["textual-dark", "textual-light"])
async def test_it_draws_every_line_as_textuals_tree_does(moves, theme):
    ours, textuals = await drawn(LineTree, moves, theme), await drawn(Tree, moves, theme)
    assert "▶ Acme" in "".join(text for text, _ in ours[2])  # lines were drawn
    assert ours == textuals


@pytest.mark.screen
async def test_its_keys_move_as_textuals_tree_does():
    keys = ["down", "down", "shift+down", "shift+up", "shift+right", "space", "end", "home", "pagedown"]
    keys += ["shift+left", "down", "enter", "down", "shift+space", "up"]
    seen: dict[type[Any], list[str]] = {}
    for kind in (LineTree, Tree):
        app = Trees(kind)
        async with app.run_test(size=(60, 14)) as pilot:
            tree = app.query_one("#tree")
            tree.focus()
            await pilot.pause()
            seen[kind] = []
            for key in keys:
                await pilot.press(key)
                await pilot.pause()
                node = tree.cursor_node  # type: ignore[attr-defined]
                seen[kind].append(f"{key}: {node.label.plain if node else None} of {tree.last_line + 1}")  # type: ignore[attr-defined]
    assert seen[LineTree] == seen[Tree]
    assert seen[LineTree][5] == "space: groups of 8"  # unfolded: production came


@pytest.mark.screen
async def test_a_line_taken_away_under_the_cursor_leaves_it_on_its_row_as_textuals_tree_does():
    """Then the cursor is on the line that came to that row, and stays on it as lines above go
    (Textual's stays on the row number of the line it lost)."""
    seen: dict[type[Any], list[str]] = {}
    for kind in (LineTree, Tree):
        app = Trees(kind)
        async with app.run_test(size=(60, 14)) as pilot:
            tree: Any = app.query_one("#tree")
            tree.focus()
            await pilot.press("down", "down", "down")  # Globex
            await pilot.pause()
            orgs = tree.root.children[0]
            orgs.children[1].remove()  # Globex goes: teams, below it, is gone with it
            await pilot.pause()
            seen[kind] = [f"{tree.cursor_line}: {tree.get_node_at_line(tree.cursor_line).label.plain}"]
            orgs.remove_children()  # every line below orgs
            await pilot.pause()
            seen[kind].append(f"{tree.cursor_line}: {tree.get_node_at_line(tree.cursor_line).label.plain}")
    assert seen[LineTree] == ["3: groups", "2: groups"]
    assert seen[Tree][0] == seen[LineTree][0]


async def test_a_shorter_tree_keeps_its_cursor_in_sight():
    app = Trees(LineTree)
    async with app.run_test(size=(60, 14)) as pilot:
        tree: Any = app.query_one("#tree")
        tree.focus()
        await pilot.press("end")  # ipinfo, the last of 7 lines
        await pilot.pause()
        tree.styles.height = 3
        await pilot.pause()
        await pilot.pause()
        assert (tree.cursor_line, tree.scroll_offset.y) == (6, 4)  # rows 4 to 6 shown: the cursor's the last
        assert "ipinfo" in "".join(text for text, _ in screen_cells(app)[2])


async def test_a_scroll_made_before_the_scrollbar_shows_puts_its_thumb_where_the_tree_is():
    """Lines added and scrolled to before the next layout (a page turn does it): the bar shows with
    its thumb at the tree's place, not at the top where Textual left it."""
    app = Trees(LineTree)
    async with app.run_test(size=(60, 14)) as pilot:
        tree: Any = app.query_one("#tree")
        await pilot.pause()
        assert not tree.show_vertical_scrollbar  # 7 lines in 10 rows
        ipinfo = tree.root.children[2]
        for number in range(40):
            ipinfo.add(Text(f"line {number}"), data=f"line {number}")
        ipinfo.expand()
        tree.scroll_to(y=tree.last_line - 9, animate=False, force=True)  # before any layout: no bar yet
        assert not tree.show_vertical_scrollbar
        await pilot.pause()
        assert tree.show_vertical_scrollbar
        assert (tree.scroll_y, tree.vertical_scrollbar.position) == (37, 37)
