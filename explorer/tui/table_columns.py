"""The items table's columns and rows, without Textual: which fields are columns and in what order,
the order a reader chose kept, the rows sorted by a column and matched by what is typed.

The order is data, not code: after the id and the name, PREFERRED names the fields that matter
for a kind of list (the path's last segment: `clusters`, `events`), and COMMON the kinds of
field that matter in any list (a state, a type, a version, when it was made); every other field
follows in the order the service sends them. `stateName` was the fourteenth column of a cluster,
past the edge even at 200 columns.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote, urlsplit

from explorer.tui.widgets.field_tree import is_scalar

# By the list's path's last segment: its fields that matter, most first (from the recorded answers
# of the real service, tests/fixtures/real-responses/, and the sandbox's).
PREFERRED: dict[str, tuple[str, ...]] = {
    "clusters": ("stateName", "clusterType", "mongoDBVersion", "paused", "createDate"),
    "flexClusters": ("stateName", "clusterType", "mongoDBVersion", "createDate"),
    "groups": ("clusterCount", "created"),
    "orgs": ("isDeleted",),
    "users": ("username", "orgMembershipStatus", "lastAuth", "createdAt"),
    "databaseUsers": ("username", "databaseName"),
    "alerts": ("status", "created", "updated", "clusterName", "metricName"),
    "events": ("created", "clusterName", "username", "hostname"),
    "processes": ("typeName", "hostname", "version", "lastPing"),
    "snapshots": ("status", "createdAt", "snapshotType", "type", "expiresAt"),
    "restoreJobs": ("status", "deliveryType", "finishedAt", "targetClusterName"),
    "invites": ("username", "expiresAt", "createdAt"),
    "accessList": ("cidrBlock", "ipAddress", "comment"),
    "apiKeys": ("desc", "publicKey"),
}
# Any other list: what matters in most, whatever the kind.
COMMON = ("stateName", "status", "state", "typeName", "type", "version", "created", "createdAt", "updated")
COUNTED = "[]."  # in a column's name: the field's list, the number of each of its objects (jq's path)


def kind_of(url: str) -> str:
    """The kind of list at `url`, by which its columns are ordered and kept: its path's last segment
    (`clusters` for `…/groups/1/clusters?pageNum=2`)."""
    return unquote(urlsplit(url).path.rstrip("/").rpartition("/")[2])


def choose_columns(items: list[Any], kind: str = "") -> list[str]:
    """Every scalar field the items share, in the order a reader wants them: the id and what names
    an item first, then a field of named counts (`buckets[].remaining`), then the fields that matter
    for this kind of list (PREFERRED, else COMMON), then the rest as the service sends them.

    Args:
        items: The items of a page (the first thousand are enough).
        kind: The kind of list (kind_of its URL); "" for none known.

    Returns:
        The columns, all of them: the table draws those that fit.
    """
    dicts = [item for item in items if isinstance(item, dict)]
    if not dicts:
        return []
    seen: dict[str, int] = {}
    for item in dicts:
        for key, value in item.items():
            if is_scalar(value):
                seen[key] = seen.get(key, 0) + 1
    shared = [key for key, count in seen.items() if count == len(dicts)]
    if not shared:  # items of different shapes: take what most of them have
        shared = [key for key, count in seen.items() if count * 2 >= len(dicts)]
    first = [key for key in ("id", name_of(shared)) if key in shared]
    counts = [f"{key}{COUNTED}{count}" for key in dicts[0] if (count := named_count(dicts, key)) is not None]
    wanted = [key for key in PREFERRED.get(kind, COMMON) if key in shared and key not in first]
    return [*first, *counts, *wanted, *(key for key in shared if key not in first and key not in wanted)]


def name_of(fields: list[str]) -> str:
    """The field that names an item: `name`, else what kind of thing it is (an event's
    `eventTypeName`, a `typeName`), which tells rows apart that otherwise show only an id and a
    date at 80 columns."""
    if "name" in fields:
        return "name"
    return next((key for key in fields if key == "typeName" or key.endswith("TypeName")), "name")


def named_count(items: list[dict[str, Any]], key: str) -> str | None:
    """The number each object under `key` holds, when the field holds named counts: in every item a
    list of objects, each with a string `name` and one number, under the same key in all (a rate
    limit's `buckets`, each with what is `remaining`). One column shows them all, where otherwise
    each item had to be opened and the list unfolded. None for any other field."""
    lists = [listed for item in items if isinstance(listed := item.get(key), list)]
    if len(lists) < len(items):
        return None
    objects = [entry for listed in lists for entry in listed]
    if not objects or not all(isinstance(entry, dict) and isinstance(entry.get("name"), str) for entry in objects):
        return None
    numbers = [{name for name, value in entry.items() if is_number(value)} for entry in objects]
    keys = set.union(*numbers)
    return keys.pop() if len(keys) == 1 and all(numbers) else None


def is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def arranged(columns: list[str], chosen: list[tuple[str, bool]] | None) -> list[tuple[str, bool]]:
    """The columns in the order a reader chose for this kind of list, each shown or not: those the
    choice names first, as it has them, then any it does not know (a field new on this page), shown.

    Args:
        columns: The columns of the page, in their default order (choose_columns).
        chosen: (column, shown) as the reader left them for this kind of list; None if never.

    Returns:
        (column, shown) for every column of the page.
    """
    if chosen is None:
        return [(column, True) for column in columns]
    known = [(column, shown) for column, shown in chosen if column in columns]
    named = {column for column, _ in known}
    return known + [(column, True) for column in columns if column not in named]


def sort_key(value: Any) -> tuple[int, Any]:
    """A cell's place in a sorted column: numbers by their value, then text without regard to case,
    then anything else as written; an empty cell (null, or no such field) is sorted apart."""
    if is_number(value) or isinstance(value, bool):
        return 0, float(value)
    if isinstance(value, str):
        return 1, value.casefold()
    return (3, "") if value is None else (2, str(value))


def sorted_rows(values: list[Any], descending: bool) -> list[int]:
    """The rows' order (their indices) sorted by their cells in one column, ties in the order the
    service sent them; the empty cells last, whichever way.

    Args:
        values: Each row's value in the column (None where it has none).
        descending: Largest first (▼) rather than smallest (▲).

    Returns:
        The rows' indices in their new order.
    """
    keys = [sort_key(value) for value in values]
    filled = [row for row, key in enumerate(keys) if key[0] != 3]
    empty = [row for row, key in enumerate(keys) if key[0] == 3]
    return sorted(filled, key=lambda row: keys[row], reverse=descending) + empty


def matching(texts: list[str], typed: str) -> list[int]:
    """The rows whose text holds what was typed, without regard to case.

    Args:
        texts: Each row's cells' text, joined (row_text).
        typed: What was typed; "" matches every row.

    Returns:
        The matching rows' indices, in order.
    """
    needle = typed.casefold()
    return [row for row, text in enumerate(texts) if needle in text]


def row_text(cells: list[str]) -> str:
    """A row's cells as matching looks through them: apart, so that no match spans two cells."""
    return "\x00".join(cells).casefold()
