"""Comparing credentials a client sent with the ones the sandbox holds."""

from __future__ import annotations

import hmac


def same(given: str, expected: str) -> bool:
    """Compare in constant time; any text, not only ASCII, may arrive from a client."""
    return hmac.compare_digest(given.encode("utf-8", "surrogateescape"), expected.encode("utf-8"))
