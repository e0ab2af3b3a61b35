"""A page of a list in one line, as the screen shows it under the items table."""

from __future__ import annotations

from explorer.api.counts import counted
from explorer.api.resource import Page


def page_summary(page: Page) -> str:
    """Say a page in one line: `page 2 of 13 · 1,234 items · 100 per page`.

    Args:
        page: The page, as `Resource.page_or_array` gives it.

    Returns:
        `page 2 of 13 · 1,234 items · 100 per page`; without a total, how many are on this page
        instead (`page 2 · 100 on this page · 100 per page`); for a bare array,
        `12 items · a bare array, not paged`.
    """
    if not page.paged:
        return f"{counted(len(page.results), 'item')} · a bare array, not paged"
    of = f" of {page.pages:,}" if page.pages else ""
    count = f" · {counted(page.total, 'item')}" if page.total is not None else f" · {len(page.results)} on this page"
    return f"page {page.number:,}{of}{count} · {page.size} per page"
