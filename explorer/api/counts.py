"""A count in words, `1 item` and `12 items`: one spelling for the screen, the commands and the hints."""

from __future__ import annotations


def counted(count: int, one: str, many: str | None = None) -> str:
    """1 item, 1,234 items; `many` where adding an s is wrong (1 fetch, 2 fetches)."""
    return f"{count:,} {one if count == 1 else many or one + 's'}"
