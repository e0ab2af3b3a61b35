"""What the status bar says of the token (tokens.py's TokenState), without the token itself."""

from __future__ import annotations

from explorer.api.tokens import TokenState


def test_the_first_token_on_its_way_is_requested_not_refreshing():
    """The first frame against a slow service said `token refreshing --:--`: nothing was there to refresh."""
    first = TokenState(refreshing=True)
    assert (first.status(100.0), first.countdown(100.0)) == ("requested", "--:--")
    renewal = TokenState(issued_at=0.0, expires_at=3600.0, refreshing=True)
    assert (renewal.status(3590.0), renewal.countdown(3590.0)) == ("refreshing", "00:10")
