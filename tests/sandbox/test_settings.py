"""Settings: validated at construction, and secrets never in a repr."""

from __future__ import annotations

import pytest

from explorer.sandbox import Settings


def test_secrets_stay_out_of_the_repr():
    shown = repr(Settings(client_secret="s3cret-value", private_key="k3y-value"))
    assert "s3cret-value" not in shown and "k3y-value" not in shown
    assert "client_secret='***'" in shown


@pytest.mark.parametrize(
    "overrides, message",
    [
        ({"client_id": ""}, "client ID"),
        ({"public_key": "a:b"}, "public key"),
        ({"token_ttl": 0}, "token-ttl must be at least 1"),
        ({"unavailable": -1}, "unavailable must not be negative"),
    ],
)
def test_impossible_settings_are_refused_with_a_reason(overrides, message):
    with pytest.raises(ValueError, match=message):
        Settings(**overrides)
