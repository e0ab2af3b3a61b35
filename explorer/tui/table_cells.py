"""What a cell of the items table shows: a field's value in its colour, cut to a line's worth, or a
column of named counts (`buckets[].remaining`); and its text, which sizes the column and which
the filter reads."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from explorer.tui.safe_text import brief
from explorer.tui.table_columns import COUNTED, is_number
from explorer.tui.widgets.field_tree import is_scalar, scalar

MAX_CELL = 60  # a column's widest, in cells


def cell(value: Any) -> Text:
    """A cell as drawn: a scalar in its colour, anything else muted and cut short."""
    if is_scalar(value):
        return scalar(value, local=False)
    return Text(brief(value, MAX_CELL), style="json-muted")


def cell_plain(value: Any) -> str:
    """A cell's text, as long as it needs to be to size its column (which is at most MAX_CELL)."""
    if value is None or isinstance(value, bool):
        return "null" if value is None else "true" if value else "false"
    return brief(value, MAX_CELL)


def column_cell(item: dict[str, Any], column: str) -> Text:
    """An item's cell in a column: a field's value, or the named counts of a `key[].number` column."""
    key, counted, number = column.partition(COUNTED)
    if column in item or not counted:
        return cell(item.get(column))
    return counts(item.get(key), number)


def column_plain(item: dict[str, Any], column: str) -> str:
    """A cell's text, to size its column."""
    if column in item or COUNTED not in column:
        return cell_plain(item.get(column))
    return column_cell(item, column).plain


def counts(listed: Any, number: str) -> Text:
    """Named counts, least first, as `production 3, staging 20, …`: the ones that run out show
    before the cell is cut."""
    entries = [entry for entry in listed if isinstance(entry, dict)] if isinstance(listed, list) else []
    entries = [entry for entry in entries if is_number(entry.get(number))]
    shown = Text(no_wrap=True, end="")
    for entry in sorted(entries, key=lambda e: e[number]):
        if len(shown) > MAX_CELL:  # a line's worth: the table cuts it with a `…`
            break
        if shown:
            shown.append(", ", style="json-muted")
        shown.append(brief(entry.get("name", ""), MAX_CELL) + " ")
        shown.append(f"{entry[number]}", style="json-number")
    return shown
