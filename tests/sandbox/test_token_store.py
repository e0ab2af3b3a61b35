"""The sandbox's token store under a classroom's load: what it forgets, and when."""

from __future__ import annotations

import pytest

from explorer.sandbox.documents import ApiProblem
from explorer.sandbox.tokens import KEEP_AFTER_EXPIRY, PURGE_EVERY, REVOKED_KEEP, TokenStore
from tests.conftest import FakeClock


def refusal(store: TokenStore, value: str) -> str:
    with pytest.raises(ApiProblem) as refused:
        store.check(value)
    return refused.value.error_code


def test_tokens_long_expired_are_forgotten_from_the_oldest_and_the_rest_kept():
    clock = FakeClock()
    store = TokenStore(ttl=3600, clock=clock)
    old = [store.issue("c")[0] for _ in range(1000)]
    clock.advance(1800)
    young = [store.issue("c")[0] for _ in range(10)]
    clock.advance(1800 + KEEP_AFTER_EXPIRY + 1)  # the old ones expired an hour and a second ago
    assert refusal(store, young[0]) == "EXPIRED_ACCESS_TOKEN"
    fresh, _ = store.issue("c")  # a purge comes with an issue
    assert len(store.tokens) == 11
    assert refusal(store, old[0]) == "INVALID_ACCESS_TOKEN"  # forgotten: unknown now
    assert refusal(store, young[-1]) == "EXPIRED_ACCESS_TOKEN"  # still known as expired
    assert store.check(fresh).client_id == "c"


def test_a_revoked_token_is_refused_as_revoked_then_forgotten():
    clock = FakeClock()
    store = TokenStore(ttl=3600, clock=clock)
    value, _ = store.issue("c")
    store.revoke(value, "c")
    assert refusal(store, value) == "REVOKED_ACCESS_TOKEN"
    clock.advance(REVOKED_KEEP + PURGE_EVERY)
    store.issue("c")
    assert refusal(store, value) == "INVALID_ACCESS_TOKEN"
    assert len(store.tokens) == 1


def test_purges_come_at_most_once_a_second():
    clock = FakeClock()
    store = TokenStore(ttl=1, clock=clock)
    store.issue("c")
    clock.advance(KEEP_AFTER_EXPIRY + 2)
    store.issue("c")  # purges: the first is gone
    assert len(store.tokens) == 1
    clock.advance(KEEP_AFTER_EXPIRY + 2)
    store.issue("c")
    purged_at = store.purged_at
    store.issue("c")  # within the second: no purge, however many tokens
    assert store.purged_at == purged_at
