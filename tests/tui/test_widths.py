"""What fits on the screen at 60, 80, 120 and 200 columns: the title, the tree and the panes, the
tree's marks, the page line and the footer, the notices, the JSON pane's counter."""

from __future__ import annotations

import pytest
from textual.screen import ModalScreen
from textual.widgets import Footer, Input, TabbedContent

from explorer.api.changes import Compared, changes
from explorer.tui.screen_state import load_state, save_state
from explorer.tui.screens.compare import CompareScreen
from explorer.tui.screens.editor import EditorScreen
from explorer.tui.screens.help import HelpScreen
from explorer.tui.screens.main import MainScreen
from explorer.tui.screens.preview import PreviewScreen
from explorer.tui.widgets.headers_view import HeadersView
from explorer.tui.widgets.items_table import ItemsTable
from explorer.tui.widgets.json_pane import JsonPane
from explorer.tui.widgets.key_footer import KeyFooter
from explorer.tui.widgets.link_tree import LinkTree
from explorer.tui.widgets.page_view import PageView
from explorer.tui.widgets.status_bar import StatusBar
from tests.tui.screen_text import region_text, screen_lines
from tests.tui.test_writes import choose

PRODUCTION = "687b4c139cc9af4ec9546b43"  # the demo's first project


async def press(explorer, *keys: str) -> None:
    await explorer.pilot.press(*keys)
    await explorer.settle()


async def resize(explorer, width: int, height: int) -> None:
    await explorer.pilot.resize_terminal(width, height)
    await explorer.until(lambda: explorer.app.screen.size == (width, height))
    await explorer.pilot.pause()


def header(explorer) -> str:
    return screen_lines(explorer.app)[0]


def drawn(explorer, widget) -> str:
    return region_text(explorer.app, widget)


@pytest.mark.screen
async def test_the_title_keeps_the_resource_its_page_and_the_switches_at_every_width(open_explorer):
    async with open_explorer(size=(80, 24)) as explorer:
        await explorer.go_to(f"/groups/{PRODUCTION}/events")
        await press(explorer, "right_square_bracket", "p", "e")  # page 2, pretty=true, envelope=true
        for width, height in ((60, 24), (80, 24), (120, 40)):
            await resize(explorer, width, height)
            shown = header(explorer)
            assert "/events" in shown and "pageNum=2" in shown, (width, shown)
            assert shown.rstrip().endswith("envelope=true"), (width, shown)
            if width >= 80:
                assert "pretty=true" in shown, (width, shown)
        await resize(explorer, 200, 50)
        url = (
            f"https://sandbox.invalid/api/service/v1.0/groups/{PRODUCTION}/events"
            "?includeCount=true&pageNum=2&itemsPerPage=100&pretty=true&envelope=true"
        )  # as sent: a URL one can copy, nothing between its parameters
        assert header(explorer).split("⭘")[1].strip() == f"explorer — {url}"
        assert explorer.current.resource.url == url
        await explorer.pilot.press("y")  # the copy is the URL whole, at any width
        await resize(explorer, 60, 24)
        await explorer.pilot.press("y")
        assert explorer.app.clipboard == url and f"Copied {url}" in explorer.toasts()


@pytest.mark.screen
async def test_at_60_columns_the_tree_gives_way_and_the_panes_keep_their_room(open_explorer):
    async with open_explorer(size=(120, 40)) as explorer:
        tree = explorer.q(LinkTree)
        await press(explorer, *["greater_than_sign"] * 8)
        assert tree.outer_size.width == 45 + 32
        await explorer.open("groups")
        await resize(explorer, 60, 24)
        assert tree.outer_size.width == 60 - 36 - 1  # the panes keep 36 columns
        panes = drawn(explorer, explorer.q(TabbedContent)).splitlines()
        assert panes[0].strip() == "Page  JSON  Headers  Log  Watch"
        # The operation's header: one line for what it is, one for its versions and roles, cut, not wrapped.
        assert panes[2].startswith(" Return the projects the caller") and panes[2].endswith("…")
        assert panes[3].startswith(" version 2023-01-01 · roles: Proj") and panes[3].endswith("…")
        assert [panes[4].strip(), panes[5].strip()] == ["page 1 of 1 · 5 items", "100 per page"]  # packed in 35
        assert panes[6].split() == ["id", "name", "+4", "more"]  # the id gives way (in its middle) to the longest name
        assert panes[7].split() == ["687b4c139c…4ec9546b43", "production"]
        assert panes[10].split() == ["6858cc9dd6…af01ac85c5", "empty-sandbox"]
        await resize(explorer, 120, 40)
        assert tree.outer_size.width == 77  # the width chosen comes back with the room


@pytest.mark.screen
async def test_narrower_and_wider_come_back_to_the_start(open_explorer):
    for width in (120, 160, 200):
        async with open_explorer(size=(width, 40)) as explorer:
            tree = explorer.q(LinkTree)
            start = tree.outer_size.width
            widths = []
            for key in ["greater_than_sign"] * 8 + ["less_than_sign"] * 8:
                await press(explorer, key)
                widths.append(tree.outer_size.width)
            assert widths == [start + 4 * n for n in (*range(1, 9), *range(7, -1, -1))], (width, widths)


@pytest.mark.screen
@pytest.mark.parametrize("start", [58, 100])  # 100: wider than the panes leave the tree at 120 columns (83)
async def test_narrower_and_wider_come_back_to_a_remembered_start_past_either_bound(open_explorer, start):
    save_state({"tree_width": start})
    async with open_explorer(size=(120, 40)) as explorer:
        tree = explorer.q(LinkTree)
        assert tree.outer_size.width == min(start, 83)
        await press(explorer, *["greater_than_sign"] * 12)
        assert tree.outer_size.width == 83
        await press(explorer, *["less_than_sign"] * 12)
        assert (tree.outer_size.width, load_state()["tree_width"]) == (min(start, 83), start)
        await press(explorer, *["less_than_sign"] * 30)
        assert (tree.outer_size.width, load_state()["tree_width"]) == (LinkTree.MIN_WIDTH, LinkTree.MIN_WIDTH)
        await press(explorer, *["greater_than_sign"] * 30)
        assert (tree.outer_size.width, load_state()["tree_width"]) == (min(start, 83), start)


@pytest.mark.screen
async def test_the_footer_follows_the_width_the_window_is_made(open_explorer):
    async with open_explorer(size=(120, 40)) as explorer:
        footer = lambda: " ".join(drawn(explorer, explorer.q(Footer)).split())  # noqa: E731
        await explorer.until(lambda: footer().endswith("^p palette"))
        await explorer.pilot.resize_terminal(80, 24)
        # the keys it ends with, awaited: while the footer recomposes it is empty for a moment, and an
        # empty footer has no "palette" either (a loaded run read it then)
        await explorer.until(lambda: footer().endswith("w Watch ? Help q Quit"))
        assert "palette" not in footer()
        await explorer.pilot.resize_terminal(120, 40)
        await explorer.until(lambda: footer().endswith("^p palette"))


@pytest.mark.screen
async def test_the_footer_is_made_again_only_when_its_keys_change(open_explorer):
    """Textual's Footer is made anew on every change the bindings may have had (every focus change,
    three times as the explorer starts), its keys measured each time; ours only when they differ."""
    async with open_explorer(size=(120, 40)) as explorer:
        footer = explorer.q(KeyFooter)
        keys = lambda: [key for key in footer.query("FooterKey")]  # noqa: E731
        await explorer.until(lambda: "w Watch" in drawn(explorer, footer))
        made = keys()
        explorer.screen.refresh_bindings()  # what a focus change does, the keys the same
        await explorer.settle()
        assert keys() == made  # the same widgets: not made again
        await explorer.pilot.press("slash")  # to the search field, whose keys differ
        await explorer.until(lambda: "w Watch" not in drawn(explorer, footer))
        assert not set(keys()) & set(made)


@pytest.mark.screen
async def test_at_80_columns_the_page_line_and_the_footer_fit(open_explorer):
    async with open_explorer(size=(80, 24)) as explorer:
        await press(explorer, *["greater_than_sign"] * 4)  # the tree as wide as it goes: the panes keep 36
        assert explorer.q(LinkTree).outer_size.width == 80 - 36 - 1
        await explorer.go_to(f"/groups/{PRODUCTION}/events")
        page = drawn(explorer, explorer.q(PageView))
        assert "page 1 of 13 · 1,234 items\n 100 per page" in page, page  # broken between its parts, not cut
        assert drawn(explorer, explorer.q(Footer)).rstrip().endswith("? Help q Quit")


@pytest.mark.screen
async def test_the_tree_shows_its_marks_before_paths_and_the_bar_shows_the_cut_line_s_marks(open_explorer):
    async with open_explorer(size=(80, 24)) as explorer:
        ipinfo = explorer.node("ipinfo")
        await explorer.cursor_to(ipinfo)
        await explorer.settle()
        lines = drawn(explorer, explorer.q(LinkTree)).splitlines()
        assert lines[3].startswith(" └ ▶ ipinfo  not in the descr"), lines[3]  # guides of 2 columns at 80
        bar = drawn(explorer, explorer.q(StatusBar))
        assert bar.strip() == "read-only · token valid 60:00 │ ipinfo  not in the description… │ 200 OK", (
            bar
        )  # below both
        await explorer.cursor_to(explorer.node("orgs"))  # a line the tree shows whole
        await explorer.settle()
        assert "ipinfo" not in drawn(explorer, explorer.q(StatusBar))
        await explorer.go_to(f"/groups/{PRODUCTION}/events")  # its path is cut, its title and marks are not
        assert "go to  /groups/687b4" in drawn(explorer, explorer.q(LinkTree))
        bar = drawn(explorer, explorer.q(StatusBar)).strip()  # the time in ms is the machine's
        assert bar.startswith("read-only · token valid 60:00 │ 200 OK · ") and bar.endswith(" ms │ rate limit █████")


@pytest.mark.screen
async def test_a_line_open_elsewhere_says_so_in_a_wider_tree(open_explorer):
    async with open_explorer(size=(160, 40)) as explorer:
        await press(explorer, *["greater_than_sign"] * 8)
        await explorer.open("orgs")
        await explorer.open("orgs", explorer.node("orgs").children[0].data.title)
        await explorer.open("groups")
        await explorer.open("groups", "production")
        tree = drawn(explorer, explorer.q(LinkTree))
        assert "org  ↺ open elsewhere  " in tree, tree


@pytest.mark.screen
async def test_under_sparse_links_the_mark_the_lesson_names_shows(open_explorer):
    async with open_explorer(size=(80, 24), scenario="sparse-links") as explorer:
        project = await explorer.go_to(f"/groups/{PRODUCTION}")
        whitelist = next(line for line in project.children if line.data.title == "whitelist")
        await explorer.cursor_to(whitelist)
        await explorer.settle()
        assert "├ ▶ whitelist  not in the" in drawn(explorer, explorer.q(LinkTree))  # the mark, not the path
        bar = drawn(explorer, explorer.q(StatusBar)).strip()  # the tree cuts it: the bar says its mark
        assert bar == "read-only · token valid 60:00 │ whitelist  not in the description… │ 200 OK", bar


@pytest.mark.screen
async def test_a_notice_already_showing_is_not_stacked_again(open_explorer):
    async with open_explorer(size=(80, 24)) as explorer:
        for _ in range(3):  # x, as a person presses it again when nothing seems to happen
            await press(explorer, "x")
        await explorer.until(lambda: "No error so far" in explorer.toasts())
        assert explorer.toasts().count("No error so far") == 1, explorer.toasts()
        assert len(explorer.app.screen.query("Toast")) == 1


@pytest.mark.screen
async def test_a_notice_stands_above_the_status_bar(open_explorer):
    async with open_explorer(size=(80, 24)) as explorer:
        await explorer.go_to(f"/groups/{PRODUCTION}/events")
        bar = explorer.q(StatusBar)
        before = screen_lines(explorer.app)[bar.region.y]
        await press(explorer, "y")  # Copied …: a notice
        await explorer.until(lambda: "Copied" in explorer.toasts())
        lines = screen_lines(explorer.app)
        assert "rate limit █████" in before and lines[bar.region.y] == before
        assert "Copied" in "\n".join(lines[: bar.region.y])


@pytest.mark.screen
async def test_a_notice_stands_above_the_status_bar_once_it_is_laid_out(open_explorer):
    """The screen's change can be handled before its layout (a loaded machine, CI): the notices were
    lifted by a bar with no place yet, off the top of the screen, and stayed there."""
    async with open_explorer(size=(80, 24)) as explorer:
        bar = explorer.q(StatusBar)
        bar.display = False  # as before the first layout: the bar has no region
        await explorer.pilot.pause()
        explorer.app.lift_notices()
        explorer.app.notify("Said before the screen was laid out")
        await explorer.until(lambda: "laid out" in explorer.toasts())
        bar.display = True
        await explorer.until(lambda: bar.region.height == 1)
        await explorer.pilot.pause()
        lines = screen_lines(explorer.app)
        assert "Said before the screen" in "\n".join(lines[: bar.region.y]), lines
        assert "Said" not in lines[bar.region.y]


@pytest.mark.screen
async def test_a_notice_stands_above_the_status_bar_when_the_bar_moves(open_explorer):
    """A line coming under the bar moves it up without resizing it: the notices go up with it."""
    async with open_explorer(size=(80, 24)) as explorer:
        footer = explorer.q(KeyFooter)
        footer.display = False
        await explorer.until(lambda: explorer.q(StatusBar).region.bottom == 24)
        explorer.app.lift_notices()  # as a resize does: one line under the bar
        explorer.app.notify("Said with the footer away")
        await explorer.until(lambda: "footer away" in explorer.toasts())
        footer.display = True
        bar = explorer.q(StatusBar)
        await explorer.until(lambda: bar.region.bottom == 23)
        await explorer.until(lambda: all(t.region.bottom <= bar.region.y for t in explorer.app.screen.query("Toast")))
        lines = screen_lines(explorer.app)
        assert "Said with the footer" in "\n".join(lines[: bar.region.y]), lines


@pytest.mark.screen
async def test_a_notice_of_any_length_stands_above_the_status_bar(open_explorer):
    """Textual's rack of notices kept a scrollbar's columns: a notice was measured one cell wider than
    it was drawn, and a line that then wrapped once more went over the bar (CI met it with a theme
    folder's path of just that length)."""
    async with open_explorer(size=(80, 24)) as explorer:
        bar = explorer.q(StatusBar)
        for length in range(30, 46):
            explorer.app.clear_notifications()
            explorer.app.notify("n" * length)
            await explorer.until(lambda: len(explorer.app.screen.query("Toast")) == 1)
            await explorer.pilot.pause()
            (toast,) = explorer.app.screen.query("Toast")
            assert toast.region.bottom <= bar.region.y, (length, toast.region)


@pytest.mark.screen
async def test_a_notice_stands_above_the_status_bar_under_a_dialog_too(open_explorer):
    async with open_explorer(size=(120, 40)) as explorer:
        await explorer.go_to(f"/groups/{PRODUCTION}/events")
        bar = explorer.q(StatusBar)
        before = screen_lines(explorer.app)[bar.region.y]
        await press(explorer, "y")  # Copied …
        await explorer.pilot.press("question_mark")  # then help over the screen
        await explorer.until_screen(HelpScreen)
        await explorer.pilot.pause()
        explorer.app.notify("A notice shown while help is open, long enough to reach the status bar's end")
        await explorer.until(lambda: "while help is open" in explorer.toasts())
        await explorer.pilot.pause()
        lines = screen_lines(explorer.app)
        assert "rate limit █████" in before and lines[bar.region.y] == before
        above = "\n".join(lines[: bar.region.y])
        assert "Copied" in above and "while help is open" in above


async def dialog_open(explorer, kind: type = ModalScreen) -> None:
    """Until a dialog is up, and drawn."""
    await explorer.until_screen(kind)
    await explorer.pilot.pause()
    await explorer.pilot.pause()


async def footer_under(explorer, *keys: str) -> str:
    """The bottom line, spaces between words made one, once these keys have opened a dialog."""
    await explorer.pilot.press(*keys)
    await dialog_open(explorer)
    return " ".join(screen_lines(explorer.app)[-1].split())


async def close_dialogs(explorer) -> None:
    while not isinstance(explorer.app.screen, MainScreen):
        await explorer.pilot.press("escape")
    await explorer.settle()


@pytest.mark.screen
@pytest.mark.parametrize("width", [60, 120])
async def test_a_dialog_s_footer_names_its_own_keys(open_explorer, width):
    """Under a dialog the footer still named the keys of the screen below (`g Go to`, `? Help`,
    `q Quit`), which do nothing there, and never the dialog's own (esc, enter, n)."""
    async with open_explorer(size=(width, 24), writes=True) as explorer:
        assert await footer_under(explorer, "a") == "esc Close"  # at the root: nothing to choose
        await close_dialogs(explorer)
        await explorer.go_to("/groups/nope")
        assert await footer_under(explorer, "x") == "esc Close"
        await close_dialogs(explorer)
        await explorer.go_to(f"/groups/{PRODUCTION}/clusters/catalog-prod")
        assert await footer_under(explorer, "a") == "⏎ Edit esc Close"
        await close_dialogs(explorer)
        for asks in ("g", "w", "vertical_line", "s"):
            assert await footer_under(explorer, asks) == "⏎ OK esc Cancel", asks
            await close_dialogs(explorer)
        assert await footer_under(explorer, "question_mark") == "esc Close"
        await close_dialogs(explorer)
        assert await footer_under(explorer, "ctrl+p") == "esc Exit the command palette"  # not the screen's keys
        await close_dialogs(explorer)
        comparison = await footer_under(explorer, "m", "equals_sign")
        assert comparison == "esc Close the comparison n Compare: hide/show links, times"
        await close_dialogs(explorer)
        await choose(explorer, "PATCH")
        await explorer.pilot.press("ctrl+s")
        await dialog_open(explorer, PreviewScreen)
        assert " ".join(screen_lines(explorer.app)[-1].split()) == "⏎ Send esc Back to the editor"
        await explorer.pilot.press("escape")
        await explorer.until_screen(EditorScreen)


NOTICE = "A notice shown while a dialog is open, long enough to take two lines of a toast"


async def open_help(explorer) -> tuple[str, str]:
    """Each opener: what the dialog says last, and the notice over it."""
    await explorer.pilot.press("question_mark")
    return "Mouse: click nodes, tabs, rows and the error in the status bar.", NOTICE


async def open_comparison(explorer) -> tuple[str, str]:
    await explorer.pilot.press("m", "equals_sign")  # `m` says what it marked: a notice, still up
    return (
        "The same: no differences",
        "Marked catalog-prod: = compares it with what is in view",
    )


async def open_preview(explorer) -> tuple[str, str]:
    await choose(explorer, "PATCH")
    await explorer.pilot.press("ctrl+s")
    return "Enter sends it, once. Esc goes back to the editor.", NOTICE


@pytest.mark.screen
@pytest.mark.parametrize(
    ("size", "opens"),
    [
        ((60, 24), open_help),
        ((80, 24), open_help),
        ((60, 24), open_comparison),
        ((80, 24), open_comparison),
        ((80, 24), open_preview),
    ],
)
async def test_a_notice_never_covers_what_a_dialog_says(open_explorer, size, opens):
    """A notice stood over a tall dialog's last lines (help's, the comparison's, the preview's
    question): the dialog now gives the notice its lines, and says all it says above it."""
    async with open_explorer(size=size, writes=True) as explorer:
        await explorer.go_to(f"/groups/{PRODUCTION}/clusters/catalog-prod")
        last, said = await opens(explorer)
        await dialog_open(explorer)
        if said == NOTICE:
            explorer.app.notify(NOTICE, timeout=60)
        await explorer.until(lambda: said in " ".join(explorer.toasts().split()))
        await explorer.pilot.pause()
        await explorer.pilot.pause()
        lines = screen_lines(explorer.app)
        dialog = region_text(explorer.app, explorer.app.screen.query_one("ModalScreen > Vertical"), lines)
        assert last in " ".join(dialog.replace("█", " ").split()), dialog  # its lines, its borders left out
        notice = region_text(explorer.app, explorer.app.screen.query_one("Toast"), lines)
        assert said in " ".join(notice.replace("▌", " ").split()), notice
        opening = " ".join(said.split()[:2])  # the screen below kept its copy, which peeked out, cut
        assert " ".join("\n".join(lines).replace("▌", " ").split()).count(opening) == 1, "\n".join(lines)


@pytest.mark.screen
async def test_the_json_pane_counter_shows_in_a_narrow_pane(open_explorer):
    async with open_explorer(size=(60, 24)) as explorer:
        await explorer.open("groups")
        await press(explorer, "slash")
        await explorer.until(lambda: explorer.q(JsonPane).query("#search"))
        await press(explorer, *"staging", "enter")
        where = drawn(explorer, explorer.q("JsonPane #where")).strip()
        assert where == ".results[1].name · “staging” 1/2", where  # whole parts give way, none is cut in two


@pytest.mark.screen
async def test_an_old_search_never_crowds_out_why_a_jq_filter_failed(open_explorer):
    async with open_explorer(size=(80, 24)) as explorer:
        await explorer.open("groups")
        await press(explorer, "slash")
        await explorer.until(lambda: explorer.q(JsonPane).query("#search"))
        await press(explorer, *"staging", "enter")
        await explorer.pilot.press("vertical_line")
        await explorer.until(lambda: isinstance(explorer.app.focused, Input))
        explorer.app.focused.value = '.totalCount + "x"'
        await explorer.pilot.press("enter")
        said = "cannot be added (the document as it is)"
        await explorer.until(lambda: said in " ".join(drawn(explorer, explorer.q("JsonPane #filtered")).split()))
        lines = drawn(explorer, explorer.q(JsonPane)).splitlines()
        assert lines[0].strip().startswith('| .totalCount + "x": '), lines  # the filter's own lines, wrapped
        where = next(line for line in lines if "“staging”" in line).strip()
        assert where.endswith("· “staging” ?/2"), where  # and the counter on the line below, on no match yet


@pytest.mark.screen
async def test_the_tree_draws_no_scrollbar_for_the_lines_it_cuts(open_explorer):
    for size in ((100, 30), (120, 40)):
        async with open_explorer(size=size) as explorer:
            await explorer.settle()
            tree = explorer.q(LinkTree)
            widths = [tree.guide_depth + tree.get_label_width(line) for line in tree.root.children]
            assert max(widths) > tree.scrollable_content_region.width  # a line is cut (its path)
            bottom = drawn(explorer, tree).splitlines()[-1]
            assert bottom.strip() == "", (size, bottom)  # no scrollbar's thumb (▊) under the lines


@pytest.mark.screen
async def test_the_headers_pane_shows_a_long_request_line_and_value_whole(open_explorer):
    async with open_explorer(size=(120, 40)) as explorer:
        resource = await explorer.go_to(f"/groups/{PRODUCTION}/events")
        await press(explorer, "right_square_bracket", "3")  # page 2, the Headers pane
        resource = explorer.current.resource
        assert "pageNum=2" in resource.url and len(f"GET {resource.url}") > explorer.q(HeadersView).size.width
        lines = [line.strip() for line in drawn(explorer, explorer.q(HeadersView)).splitlines()]
        assert (lines[0], "".join(lines[1:3])) == ("GET", resource.url), lines[:4]  # broken where the pane ends
        joined = "".join(lines).replace(" ", "")  # a line goes on at the next, broken at a space or the edge
        for name, value in resource.headers.multi_items():
            assert f"{name}:{value}".replace(" ", "") in joined, name


@pytest.mark.screen
async def test_the_compare_dialog_shows_both_sides_of_a_long_change(open_explorer):
    old = "mongodb://orders-prod-shard-00-00.abcde.sandbox.invalid:27017," * 3 + "old-end"
    new = "mongodb://search-prod-shard-00-00.abcde.sandbox.invalid:27017," * 3 + "new-end"  # unlike from the host
    before, after = {"connectionStrings": {"standard": old}}, {"connectionStrings": {"standard": new}}
    async with open_explorer(size=(120, 40)) as explorer:
        await explorer.app.push_screen(
            CompareScreen(Compared("marked", before), Compared("now", after), changes(before, after))
        )
        await explorer.until_screen(CompareScreen)
        await explorer.pilot.pause()
        lines = [line.strip(" █") for line in screen_lines(explorer.app)]  # inside the dialog's border
        start = lines.index("~ .connectionStrings.standard:")
        shown = "".join(lines[start : start + 6]).replace(" ", "")  # goes on over the next lines
        assert f'.connectionStrings.standard:"{old}"→"{new}"' in shown, "\n".join(lines[start : start + 6])


@pytest.mark.screen
async def test_at_60_columns_deep_lines_of_the_tree_keep_their_names(open_explorer):
    """The guides took 4 columns a level: a project's events showed `│   │   │   ├── ▶` and no name."""
    async with open_explorer(size=(60, 24)) as explorer:
        await explorer.open("groups")
        await explorer.open("groups", "production")
        await explorer.open("groups", "production", "events")
        lines = drawn(explorer, explorer.q(LinkTree)).splitlines()
        at = next(n for n, line in enumerate(lines) if "▼ ev" in line)
        events = lines[at + 1 : at + 6]  # the first five events
        titles = [child.data.title for child in explorer.node("groups", "production", "events").children]
        for line, title in zip(events, titles[:5], strict=True):
            assert title[:6] in line.split("▶")[1], (line, title)
        await resize(explorer, 80, 24)  # the tree of an 80-column terminal: 2 columns a level too
        lines = drawn(explorer, explorer.q(LinkTree)).splitlines()
        events = lines[at + 1 : at + 6]
        for line, title in zip(events, titles[:5], strict=True):
            assert title[:14] in line.split("▶")[1], (line, title)  # CLUSTER_UPDATE, not CLUSTER_
        await resize(explorer, 120, 40)  # room again: the guides are as wide as ever
        assert "│   │   │   ├── ▶ " in drawn(explorer, explorer.q(LinkTree))


@pytest.mark.screen
async def test_at_60_columns_a_long_resource_gives_way_before_the_switches(open_explorer):
    """A project's id took the room: `…/6938b8653d0ca1b0b623491a?…`, the switches gone."""
    async with open_explorer(size=(60, 24)) as explorer:
        await explorer.go_to("/groups/6938b8653d0ca1b0b623491a")  # staging
        await press(explorer, "p", "e")
        shown = header(explorer).split("⭘")[1].strip()
        assert shown == "…/6938b8…623491a?pretty=true&envelope=true", shown


@pytest.mark.screen
async def test_at_80_columns_the_events_table_shows_each_events_type(open_explorer):
    """An event's name is its `eventTypeName`: it comes after the id, not past the pane's edge."""
    async with open_explorer(size=(80, 24)) as explorer:
        events = await explorer.go_to(f"/groups/{PRODUCTION}/events")
        rows = drawn(explorer, explorer.q(ItemsTable)).splitlines()
        assert rows[0].split()[:2] == ["id", "eventTypeName"], rows[0]
        titles = [child.data.title for child in events.children]
        assert [row.split()[1][:14] for row in rows[1:6]] == [title[:14] for title in titles[:5]], rows


@pytest.mark.screen
async def test_at_60_columns_an_error_document_puts_values_under_their_names_and_cuts_no_word(open_explorer):
    """Beside the names, the values had 18 cells: `EXPLORER_CLIENT_I` / `D and`. Under them, only
    a URL, longer than the pane, is cut; at 80 columns the values stand beside their names again."""
    async with open_explorer(size=(60, 24), scenario="bad-credentials") as explorer:
        rows = [row.strip() for row in drawn(explorer, explorer.q(PageView)).splitlines() if row.strip()]
        assert rows[rows.index("hint") + 1 :][:3] == [  # the pane's last rows: the rest is below
            "Check the client ID and secret.",
            "explorer reads them from the",
            "login form, --client-id or",
        ]
        assert rows[rows.index("error (OAuth)") + 1] == "invalid_client"
        await resize(explorer, 80, 24)
        rows = [row.strip() for row in drawn(explorer, explorer.q(PageView)).splitlines() if row.strip()]
        assert "hint           Check the client ID and" in rows
        assert "EXPLORER_CLIENT_ID and" in rows


@pytest.mark.screen
async def test_at_60_columns_the_events_table_cuts_the_id_in_its_middle_before_the_type(open_explorer):
    """24 cells of id left `CLUSTER_U`, `MONGODB_U` of the names: the id gives way first, its two
    ends kept as the title keeps them; the names show as far as the pane goes."""
    async with open_explorer(size=(60, 24)) as explorer:
        events = await explorer.go_to(f"/groups/{PRODUCTION}/events")
        table = explorer.q(ItemsTable)
        rows = drawn(explorer, table).splitlines()
        assert rows[0].split()[:2] == ["id", "eventTypeName"], rows[0]
        titles = [child.data.title for child in events.children][:5]
        ids = [item["id"] for item in table.items[:5]]
        assert [row.split()[0] for row in rows[1:6]] == [f"{id[:5]}…{id[-5:]}" for id in ids], rows
        names = [row.split()[1] for row in rows[1:6]]
        room = table.scrollable_content_region.width - 11 - 2  # after 11 cells of id and 2 apart
        assert names == [title[:room] for title in titles], rows
        assert "MONGODB_USER_DELETED" in names  # was `MONGODB_U`
        await resize(explorer, 200, 50)  # room again: the id whole
        assert drawn(explorer, table).splitlines()[1].split()[0] == ids[0]


@pytest.mark.screen
async def test_the_keys_that_leave_always_show_in_the_footer(open_explorer):
    """The footer cut its line at the edge, and the keys that leave come last: on the JSON pane at 80
    columns `q Quit` went (`… r Reload / Sear`), in the request editor at 60 `esc Back` did."""
    async with open_explorer(size=(80, 24), writes=True) as explorer:
        await explorer.go_to(f"/groups/{PRODUCTION}")
        await press(explorer, "2")
        footer = drawn(explorer, explorer.app.screen.query_one(Footer)).strip()
        assert footer.startswith("v Raw/pretty c Copy path") and footer.endswith("? Help q Quit"), footer
        assert "⌫ Back" in footer and "Sear " not in footer + " "  # a key is left out whole, never cut
        await resize(explorer, 60, 24)
        await choose(explorer, "PATCH")
        await explorer.pilot.pause()
        footer = drawn(explorer, explorer.app.screen.query_one(Footer)).strip()
        assert footer.startswith("^s Preview") and "esc Back" in footer, footer
