"""What differs between two JSON documents, field by field: a write's preview, its undo, a watch.

    changes({"a": 1, "b": [1]}, {"a": 2, "c": True})
    # [Change("a", "changed", 1, 2), Change("b", "removed", [1], None), Change("c", "added", None, True)]

Objects are compared key by key, to any depth; a list of entities is compared item by item matched
by `id` or `name` (a link by its `rel`) where every item has a distinct one (an entity's place in a
list is not what it is), else position by position. Paths are written as jq writes them:
`.replicationSpecs[0].zoneName`, `.results[id=5e4b…].stateName` for an item matched by its id.
"""

from __future__ import annotations

import functools
import json
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal

Kind = Literal["added", "removed", "changed"]
KEYS = ("id", "name", "rel")  # a link is its rel
PLAIN_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
NOISY_KEY = re.compile(r"(^|\.)links(\[|\.|$)")
DATE = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}[T ][0-9]{2}:[0-9]{2}")
VALUE_LIMIT = 80  # characters of a value a line shows, unless told otherwise
CONTEXT = 12  # characters kept before the first difference of two strings alike at the start
SEPARATOR = re.compile(r"[/.:?&=]")  # where a step of a URL, a host or a query begins
ALIKE = 2 * CONTEXT  # characters two strings share at the start before they are shown from their difference
MAX_CHANGES = 10_000  # differences listed at most: a document replaced whole says so in a line, not a million


@dataclass(frozen=True)
class Compared:
    """One side of a comparison: what it is (`reporting · marked 12:00:05`, `file a.json`) and its document."""

    label: str
    document: Any


@dataclass(frozen=True)
class Change:
    """One difference: where (`.path`), which kind, the value before and after (None where absent)."""

    path: str
    kind: Kind
    old: Any = None
    new: Any = None

    def line(self, limit: int | None = VALUE_LIMIT) -> str:
        """`.name: "a" → "b"`, `+ .tags: […]`, `- .comment: "x"`, for a preview or a terminal; each value
        cut at `limit` characters (None: whole, as a script wants it), two strings long alike at the
        start shown from a little before they differ (`"…/clusters/a" → "…/clusters/b"`)."""
        if self.kind == "added":
            return f"+ {self.path or '.'}: {compact(self.new, limit)}"
        if self.kind == "removed":
            return f"- {self.path or '.'}: {compact(self.old, limit)}"
        old, new = compact_pair(self.old, self.new, limit)
        return f"~ {self.path or '.'}: {old} → {new}"

    def fields(self) -> dict[str, Any]:
        """The difference as a JSON line carries it: path and kind, and `old` and `new` where there are."""
        row: dict[str, Any] = {"path": self.path or ".", "kind": self.kind}
        if self.kind != "added":
            row["old"] = self.old
        if self.kind != "removed":
            row["new"] = self.new
        return row


def compact(value: Any, limit: int | None = VALUE_LIMIT) -> str:
    """A value as one line of JSON, cut at `limit` characters (None: whole)."""
    return truncate(one_line(value), limit)


def one_line(value: Any) -> str:
    """A value as one line of JSON, whole, its characters as they are (the caller makes them visible)."""
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "), default=str)


def truncate(text: str, limit: int | None) -> str:
    """`text` cut at `limit` characters, ended with `…` (None: whole)."""
    return text if limit is None or len(text) <= limit else text[: limit - 1] + "…"


def compact_pair(old: Any, new: Any, limit: int | None = VALUE_LIMIT) -> tuple[str, str]:
    """Two values of a change as lines of JSON, cut at `limit` (None: whole); two strings alike for
    more than ALIKE characters at the start (two URLs) are shown from CONTEXT characters before they
    differ, so the difference is near the start of a line a narrow pane cuts."""
    before, after = one_line(old), one_line(new)
    if limit is None or not (isinstance(old, str) and isinstance(new, str)):
        return truncate(before, limit), truncate(after, limit)
    alike = len(os.path.commonprefix([before, after]))
    if alike > ALIKE:
        start = alike - CONTEXT
        separator = SEPARATOR.search(before, start, alike)  # from a whole step: `…/clusters/a`, not `…43/clusters/a`
        start = separator.start() if separator else start
        before, after = ('"…' + text[start:] for text in (before, after))
    return truncate(before, limit), truncate(after, limit)


def key_path(path: str, key: str | int) -> str:
    """`path.key`, `path[3]`, or `path["odd key"]` for a key jq cannot write bare; at the top, where
    `path` is "", a bracket needs its dot (`.[0]`, `.["odd key"]`): jq reads `[0]` as an array."""
    if isinstance(key, str) and PLAIN_KEY.match(key):
        return f"{path}.{key}"
    return f"{path or '.'}[{key if isinstance(key, int) else json.dumps(key, ensure_ascii=False)}]"


def jq_path(steps: Iterable[str | int]) -> str:
    """Keys and indexes as one path, as jq writes it (`.replicationSpecs[0].regionConfigs`), "." for none:
    every path the explorer shows or copies is written this way."""
    return functools.reduce(key_path, steps, "") or "."


def changes(before: Any, after: Any, path: str = "") -> list[Change]:
    """Every difference from `before` to `after`, in document order (at most MAX_CHANGES)."""
    found: list[Change] = []
    walk(before, after, path, found)
    return found


def walk(before: Any, after: Any, path: str, found: list[Change]) -> None:
    """Add to `found` the differences below `path`, until it holds MAX_CHANGES."""
    if len(found) >= MAX_CHANGES:
        return
    if isinstance(before, dict) and isinstance(after, dict):
        for key, old in before.items():
            if key not in after:
                found.append(Change(key_path(path, key), "removed", old, None))
            else:
                walk(old, after[key], key_path(path, key), found)
        found.extend(Change(key_path(path, key), "added", None, new) for key, new in after.items() if key not in before)
    elif isinstance(before, list) and isinstance(after, list):
        key = matching_key(before, after)
        if key is None:
            for at in range(max(len(before), len(after))):
                where = key_path(path, at)
                if at >= len(after):
                    found.append(Change(where, "removed", before[at], None))
                elif at >= len(before):
                    found.append(Change(where, "added", None, after[at]))
                else:
                    walk(before[at], after[at], where, found)
        else:
            olds = {item[key]: item for item in before}
            news = {item[key]: item for item in after}
            for name, old in olds.items():
                where = f"{path or '.'}[{key}={name}]"
                if name in news:
                    walk(old, news[name], where, found)
                else:
                    found.append(Change(where, "removed", old, None))
            found.extend(
                Change(f"{path or '.'}[{key}={name}]", "added", None, new)
                for name, new in news.items()
                if name not in olds
            )
    elif type(before) is not type(after) or before != after:
        found.append(Change(path, "changed", before, after))


def matching_key(before: list[Any], after: list[Any]) -> str | None:
    """`id`, `name` or `rel`, when every item of both lists is an object with a distinct scalar value of it."""
    items = before + after
    if not items or not all(isinstance(item, dict) for item in items):
        return None
    for key in KEYS:
        values = [item.get(key) for item in items]
        scalar = all(isinstance(value, str | int) and not isinstance(value, bool) for value in values)
        if scalar and distinct(before, key) and distinct(after, key):
            return key
    return None


def distinct(items: list[Any], key: str) -> bool:
    """Whether no two items share a value of `key`: only then can it match them."""
    return len({json.dumps(item[key]) for item in items}) == len(items)


def patch_changes(entity: Any, body: Any) -> list[Change]:
    """What a PATCH of `body` changes in `entity`: each sent field against its value now (a field
    the body does not name is left alone, so it is no difference)."""
    if not isinstance(entity, dict) or not isinstance(body, dict):
        return changes(entity, body)
    found: list[Change] = []
    for key, new in body.items():
        if key in entity:
            walk(entity[key], new, key_path("", key), found)
        else:
            found.append(Change(key_path("", key), "added", None, new))
    return found


def noise(change: Change) -> bool:
    """A difference that is seldom the point: in links (`.links`, an item's links), or of a
    timestamp (an ISO 8601 date and time, before or after). A comparison may hide them."""
    if NOISY_KEY.search(change.path):
        return True
    values = [value for value in (change.old, change.new) if value is not None]
    return bool(values) and all(isinstance(value, str) and DATE.match(value) for value in values)
