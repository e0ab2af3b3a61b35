"""Values with a meaning beyond JSON: ISO 8601 dates, BSON timestamps {date, increment}, counts in
headers, and how deeply a document nests (JSON read within a depth: json_within)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal

from explorer.api import json_decoder
from explorer.api.json_decoder import deeper_than

MAX_DEPTH = 100  # levels of nesting read as JSON (Bounds.max_depth); a deeper body is shown as received
MAX_DEPTH_LIMIT = 500  # the highest max_depth: what walks a document walks one call a level, within Python's ~1,000
CHUNKED_DECODE_THRESHOLD = 1024 * 1024  # a text larger than this is decoded a piece at a time (json_decoder.py)

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


def local_time(moment: datetime) -> str | None:
    """The moment in the local time zone (`2024-05-01 14:03:27 CEST`), or None when that is past the
    years Python's dates hold (9999-12-31T23:59:59-14:00 is in the year 10000 anywhere east of it)."""
    try:
        return moment.astimezone().strftime("%Y-%m-%d %H:%M:%S %Z")
    except (OverflowError, ValueError, OSError):
        return None


def parse_count(text: str | None) -> int | None:
    """A count the service wrote in a header (`300`), or None for anything else (`²`, `-1`, 4,000 digits)."""
    if text is None:
        return None
    text = text.strip()
    if not text.isascii() or not text.isdigit() or len(text) > 9:
        return None
    return int(text)


class TooDeep(ValueError):
    """JSON nested deeper than the depth limit (`Bounds.max_depth`): not read, so that nothing walks it.

    Every view of a document (the pretty view, a comparison, a HAR's redaction) walks it one call a
    level; past Python's recursion limit that walk would end the program with a RecursionError."""

    def __init__(self, levels: int) -> None:
        super().__init__(f"JSON nested deeper than {levels} levels (the depth limit)")
        self.levels = levels

    @property
    def hint(self) -> str:
        """What to do: read it with a higher depth limit, while one is allowed."""
        if self.levels >= MAX_DEPTH_LIMIT:
            return f"{MAX_DEPTH_LIMIT} levels is the deepest the explorer reads."
        return f"A higher depth limit reads it (up to {MAX_DEPTH_LIMIT} levels)."

    @property
    def setting(self) -> Literal["max_depth"] | None:
        """The setting that reads it ("max_depth"), while a higher one is allowed."""
        return "max_depth" if self.levels < MAX_DEPTH_LIMIT else None


def json_within(text: str | bytes, levels: int = MAX_DEPTH) -> Any:
    """json.loads(text), or TooDeep (a ValueError, as json's own errors are) past `levels` of nesting.

    The same error at any depth past the limit: json's decoder gives up with a RecursionError only
    near Python's recursion limit, at a depth that depends on how deep the stack already is (and on
    the Python), so what it accepts is measured after, without recursion. A text over CHUNKED_DECODE_THRESHOLD
    characters is decoded a piece at a time (json_decoder.py), so that the screen's thread runs meanwhile.
    """
    try:
        if isinstance(text, str) and len(text) > CHUNKED_DECODE_THRESHOLD:
            return json_decoder.loads(text, levels)  # measured piece by piece as it is decoded
        value = json.loads(text)
    except (RecursionError, json_decoder.Deeper):
        raise TooDeep(levels) from None
    if deeper_than(value, levels):
        raise TooDeep(levels)
    return value
