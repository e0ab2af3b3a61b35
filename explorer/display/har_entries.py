"""A HAR entry's request or response, read for people: its headers, and its body as text.

One reading for `explorer history N` and the screen's history dialog, which each style it their own
way. What is read is not yet made visible: each caller passes it through its own `visible`.
"""

from __future__ import annotations

from typing import Any, NamedTuple


class KeptBody(NamedTuple):
    """A HAR body: its text, or the words that say it was not text."""

    text: str
    """The body as kept; for bytes that are not text, the words that say how many there were."""
    is_text: bool
    """False for a body kept as base64 (the words above stand in for it)."""


def kept_headers(part: Any) -> list[tuple[str, str]]:
    """Read a HAR request's or response's headers.

    Args:
        part: The entry's `request` or `response`, as kept (anything else reads as no headers).

    Returns:
        Each header as `(name, value)`, in the order kept.
    """
    headers = part.get("headers", []) if isinstance(part, dict) else []
    return [(str(h.get("name", "")), str(h.get("value", ""))) for h in headers if isinstance(h, dict)]


def kept_body(content: Any) -> KeptBody | None:
    """Read a HAR body: a request's `postData` or a response's `content`.

    Args:
        content: The body's object, as kept.

    Returns:
        The body, or None where there is none (or it is empty).
    """
    text = content.get("text") if isinstance(content, dict) else None
    if not isinstance(text, str) or not text:
        return None
    if content.get("encoding") == "base64":
        return KeptBody(f"({content.get('size', '?')} bytes that are not text, kept as base64)", is_text=False)
    return KeptBody(text, is_text=True)
