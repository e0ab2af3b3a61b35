"""The items table's columns and rows as a reader arranges them: the fields that matter for the kind
of list in view first (a cluster's `stateName` was past the edge even at 200 columns), the columns
left out counted, rows sorted by a column (`o`), filtered as typed (`f`), columns hidden and
moved (`t`) and kept for that kind of list."""

from __future__ import annotations

import json

import pytest

from explorer.tui.keys import key_table
from explorer.tui.screens.columns import ColumnsScreen
from explorer.tui.screens.main import MainScreen
from explorer.tui.table_columns import choose_columns, sorted_rows
from explorer.tui.widgets.items_table import ItemsTable
from tests.conftest import ROOT
from tests.tui.screen_text import region_text

PRODUCTION = "687b4c139cc9af4ec9546b43"  # the demo's first project: orders-prod, catalog-prod, search-prod
STAGING = "6938b8653d0ca1b0b623491a"
CLUSTERS = f"/groups/{PRODUCTION}/clusters"
RECORDED = ROOT / "tests/fixtures/real-responses/200_GET_api_atlas_v2_groups_6a799efbc0eb9e7a177d7e0e_clusters_1.http"


def table_lines(explorer) -> list[str]:
    """The table's lines as drawn: the filter's line if any, the header, the rows."""
    return region_text(explorer.app, explorer.q(ItemsTable)).splitlines()


def said(explorer) -> str:
    """The table's first line, its words one space apart (the filter's cursor is a space)."""
    return " ".join(table_lines(explorer)[0].split())


def header(explorer) -> list[str]:
    return next(line for line in table_lines(explorer) if line.startswith(("id ", "name ", "stateName "))).split()


def names(explorer) -> list[str]:
    """The clusters' names, row by row, as drawn (the column after the id)."""
    lines = table_lines(explorer)
    at = next(n for n, line in enumerate(lines) if line.startswith("id "))
    return [line.split()[1] for line in lines[at + 1 :] if line.strip()]


async def clusters_in_the_page_pane(explorer, path: str = CLUSTERS) -> ItemsTable:
    await explorer.go_to(path)
    await explorer.pilot.press("1")  # the Page pane, and the keys to its table
    table = explorer.q(ItemsTable)
    await explorer.until(lambda: table.has_focus)
    return table


def test_the_fields_that_matter_for_the_kind_of_list_come_after_the_id_and_the_name():
    """A real cluster list: `stateName` was the fourteenth scalar field, `clusterType` and the version
    scattered among the alphabet; an unknown kind of list takes a state and a type first too."""
    body = RECORDED.read_text().split("\n\n", 1)[1]
    clusters = json.loads(body)["results"]
    assert choose_columns(clusters, "clusters")[:6] == [
        "id",
        "name",
        "stateName",
        "clusterType",
        "mongoDBVersion",
        "paused",
    ]
    assert choose_columns(clusters, "somethingElse")[:3] == ["id", "name", "stateName"]
    alerts = [{"id": "1", "eventTypeName": "HOST_DOWN", "acknowledged": False, "created": "2026", "status": "OPEN"}]
    assert choose_columns(alerts, "alerts")[:4] == ["id", "eventTypeName", "status", "created"]


def test_a_sort_puts_numbers_in_their_order_and_empty_cells_last_either_way():
    values = [10, None, 2, "b", "A", 2.5]
    assert sorted_rows(values, descending=False) == [2, 5, 0, 4, 3, 1]  # 2, 2.5, 10, "A", "b", then null
    assert sorted_rows(values, descending=True) == [3, 4, 0, 5, 2, 1]  # null still last


@pytest.mark.screen
async def test_at_120_columns_a_cluster_list_shows_each_cluster_s_state(open_explorer):
    async with open_explorer(size=(120, 40)) as explorer:
        await clusters_in_the_page_pane(explorer)
        assert header(explorer)[:4] == ["id", "name", "stateName", "clusterType"]
        rows = {line.split()[1]: line.split()[2] for line in table_lines(explorer)[1:] if line.strip()}
        assert rows == {"orders-prod": "IDLE", "catalog-prod": "IDLE", "search-prod": "UPDATING"}


@pytest.mark.screen
async def test_the_columns_that_do_not_fit_are_left_out_and_counted_in_the_header(open_explorer):
    async with open_explorer(size=(80, 24)) as explorer:
        table = await clusters_in_the_page_pane(explorer)
        words = header(explorer)
        left_out = len(table.column_names) - len(table.drawn)
        assert left_out > 10 and words[-2:] == [f"+{left_out}", "more"], words
        assert words[:-2] == table.column_names[: len(table.drawn)]  # every column drawn is named whole
        assert words[:3] == ["id", "name", "stateName"]  # the id cut in its middle, for the state to show
        width = table.scrollable_content_region.width
        assert table.virtual_size.width <= width  # nothing to scroll sideways to: the count says what is left out


@pytest.mark.screen
async def test_o_sorts_by_the_column_under_the_cursor_then_the_other_way_then_as_sent(open_explorer):
    async with open_explorer(size=(120, 40)) as explorer:
        table = await clusters_in_the_page_pane(explorer)
        sent = names(explorer)
        await explorer.pilot.press("right", "right", "o")  # to stateName: smallest first
        await explorer.until(lambda: "stateName ▲" in " ".join(header(explorer)))
        assert names(explorer)[-1] == "search-prod"  # UPDATING after IDLE
        await explorer.pilot.press("o")
        await explorer.until(lambda: "stateName ▼" in " ".join(header(explorer)))
        assert names(explorer)[0] == "search-prod"
        await explorer.pilot.press("home", "enter")  # the first row as drawn opens: its item, not the page's first
        await explorer.settle()
        assert explorer.current.title == "search-prod"
        await explorer.pilot.press("backspace")
        await explorer.settle()
        await explorer.pilot.press("1")
        await explorer.until(lambda: table.has_focus)
        assert names(explorer)[0] == "search-prod"  # the sort is kept for the clusters
        await explorer.pilot.press("o")
        await explorer.until(lambda: "▼" not in " ".join(header(explorer)))
        assert names(explorer) == sent, (
            sent,
            [c["name"] for c in table.page],
        )  # the third time: as the service sent them


@pytest.mark.screen
async def test_a_sort_of_one_page_of_a_longer_list_says_it_sorts_that_page_only(open_explorer):
    async with open_explorer(size=(120, 40)) as explorer:
        await clusters_in_the_page_pane(explorer, f"/groups/{PRODUCTION}/events")
        await explorer.pilot.press("right", "o")
        await explorer.until(lambda: "eventTypeName ▲" in " ".join(header(explorer)))
        assert said(explorer) == "eventTypeName ▲ sorts this page's rows, not the whole list"


@pytest.mark.screen
async def test_f_filters_the_rows_as_typed_and_esc_clears_the_filter(open_explorer):
    async with open_explorer(size=(120, 40)) as explorer:
        await clusters_in_the_page_pane(explorer)
        await explorer.pilot.press("f", "u", "p", "d")
        await explorer.until(lambda: said(explorer) == "filter upd · 1 of 3 rows · Enter keeps it, Esc clears it")
        assert names(explorer) == ["search-prod"]
        await explorer.pilot.press("q")  # a letter of the filter, not Quit
        await explorer.until(lambda: said(explorer).startswith("filter updq · 0 of 3 rows"))
        assert isinstance(explorer.app.screen, MainScreen) and names(explorer) == []
        await explorer.pilot.press("backspace", "enter")  # kept: the keys are the table's again
        await explorer.until(lambda: said(explorer) == "filter upd · 1 of 3 rows")
        await explorer.pilot.press("escape")
        await explorer.until(lambda: table_lines(explorer)[0].startswith("id "))
        assert sorted(names(explorer)) == ["catalog-prod", "orders-prod", "search-prod"]
        await explorer.pilot.press("f", "i", "d", "l", "e", "enter", "home", "down", "enter")  # the second match opens
        await explorer.settle()
        assert explorer.current.title == "catalog-prod"


@pytest.mark.screen
async def test_t_hides_and_moves_columns_and_they_stay_so_for_that_kind_of_list(open_explorer):
    async with open_explorer(size=(120, 40)) as explorer:
        await clusters_in_the_page_pane(explorer)
        await explorer.pilot.press("t")
        await explorer.until_screen(ColumnsScreen)
        await explorer.pilot.press("space")  # id hidden
        await explorer.pilot.press("down", "down", "shift+up", "shift+up")  # stateName first
        await explorer.pilot.press("enter")
        await explorer.until(lambda: isinstance(explorer.app.screen, MainScreen))
        await explorer.until(lambda: header(explorer)[:3] == ["stateName", "name", "clusterType"])
        assert "id" not in header(explorer)
        await clusters_in_the_page_pane(explorer, f"/groups/{STAGING}/clusters")  # another project's clusters
        assert header(explorer)[:2] == ["stateName", "name"]
        await clusters_in_the_page_pane(explorer, f"/groups/{PRODUCTION}/events")  # another kind of list
        assert header(explorer)[:2] == ["id", "eventTypeName"]


def test_help_names_the_table_s_keys():
    """`?` lists every binding as remapped (keys.key_table): the table's own among them."""
    rows = {binding_id: (keys, does) for keys, does, binding_id in key_table({"table.sort": "O"})}
    assert rows["table.filter"] == ("f", "Filter")
    assert rows["table.sort"] == ("O", "Sort")  # remapped, as the config file's [keys] may
    assert rows["table.columns"] == ("t", "Columns")
    assert rows["table.column_left"] == ("left", "Column left")
