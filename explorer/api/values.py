"""Values with a meaning beyond JSON: ISO 8601 dates, BSON timestamps {date, increment}, counts in
headers, and how deeply a document nests."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?")


def as_date(value: Any) -> datetime | None:
    """The moment an ISO 8601 date string names (UTC when it names no zone), else None."""
    if not isinstance(value, str) or not ISO_DATE.fullmatch(value):
        return None
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


@dataclass(frozen=True)
class BsonTimestamp:
    """Spec 2.8: a date at second granularity, and an increment ordering events within it."""

    date: datetime | None
    increment: int | None

    def __str__(self) -> str:
        when = self.date.strftime("%Y-%m-%d %H:%M:%S UTC") if self.date else "no date"
        return f"{when} #{self.increment}" if self.increment is not None else when


def as_bson_timestamp(value: Any) -> BsonTimestamp | None:
    """A BSON timestamp object, tolerating the nulls and the extra `time` the service sends."""
    if not isinstance(value, dict) or not {"date", "increment"} <= value.keys() <= {"date", "increment", "time"}:
        return None
    date, increment = value["date"], value["increment"]
    if date is not None and as_date(date) is None:
        return None
    if increment is not None and (not isinstance(increment, int) or isinstance(increment, bool)):
        return None
    return BsonTimestamp(as_date(date), increment)


def whole(text: str | None) -> int | None:
    """A count the service wrote in a header (`300`), or None for anything else (`²`, `-1`, 4,000 digits)."""
    if text is None:
        return None
    text = text.strip()
    if not text.isascii() or not text.isdigit() or len(text) > 9:
        return None
    return int(text)


def deeper_than(value: Any, levels: int) -> bool:
    """Whether a JSON value nests more than `levels` containers deep (`[[1]]` is 2 deep).

    Counted without recursion, so any depth json.loads accepted is measured, not a RecursionError.
    """
    stack = [(value, 1)]
    while stack:
        container, depth = stack.pop()
        if type(container) is not dict and type(container) is not list:
            continue
        if depth > levels:
            return True
        for child in container.values() if type(container) is dict else container:
            if type(child) is dict or type(child) is list:
                stack.append((child, depth + 1))
    return False
