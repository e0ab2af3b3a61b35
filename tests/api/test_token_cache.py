"""The one-shot commands' token cache: private, encrypted, reused, renewed, and removed by logout."""

from __future__ import annotations

import stat

import pytest

from explorer.api.secret import Secret
from explorer.api.token_cache import TokenCache


@pytest.mark.slow
async def test_a_cached_token_is_reused_by_the_next_session(connect, tmp_path):
    cache = tmp_path / "tokens"
    async with connect(token_cache=cache) as first:
        await first.session.fetch("/orgs")
        app = first.app
    assert first.live_tokens() == 1  # kept for the next run, not revoked at close

    async with connect(token_cache=cache, app=app) as second:
        assert (await second.session.fetch("/orgs")).status == 200
        assert second.token_requests() == 0


@pytest.mark.slow
async def test_the_cache_file_is_private_and_holds_neither_secret_nor_token(connect, tmp_path):
    cache = tmp_path / "tokens"
    async with connect(token_cache=cache) as c:
        await c.session.fetch("/orgs")
        token = c.session.auth.token.value.reveal()
    files = list(cache.iterdir())
    assert len(files) == 1
    assert stat.S_IMODE(files[0].stat().st_mode) == 0o600
    assert stat.S_IMODE(cache.stat().st_mode) == 0o700
    text = files[0].read_text()
    assert token not in text
    assert c.settings.client_secret not in text
    assert c.settings.client_id in text  # keyed by origin and client ID, which are not secrets


@pytest.mark.slow
async def test_a_token_near_expiry_is_not_reused(connect, tmp_path):
    cache = tmp_path / "tokens"
    async with connect(sandbox={"token_ttl": 600}, token_cache=cache) as first:
        await first.session.fetch("/orgs")
    first.clock.advance(545)
    async with connect(sandbox={"token_ttl": 600}, token_cache=cache, app=first.app) as second:
        await second.session.fetch("/orgs")
        assert second.token_requests() == 1


@pytest.mark.slow
async def test_one_shot_runs_stay_within_a_low_token_limit(connect, tmp_path):
    cache = tmp_path / "tokens"
    async with connect(sandbox={"token_rate_limit": 2}, token_cache=cache) as c:
        app = c.app
        await c.session.fetch("/orgs")
    for _ in range(8):
        async with connect(sandbox={"token_rate_limit": 2}, token_cache=cache, app=app) as run:
            assert (await run.session.fetch("/orgs")).status == 200


@pytest.mark.slow
async def test_revoking_removes_the_cached_token(connect, tmp_path):
    cache = tmp_path / "tokens"
    async with connect(token_cache=cache) as c:
        await c.session.fetch("/orgs")
        await c.session.revoke()
        assert list(cache.iterdir()) == []
        assert c.live_tokens() == 0


def test_a_cache_made_with_another_secret_opens_nothing(tmp_path):
    from explorer.api.tokens import Token

    mine = TokenCache(tmp_path, "https://h", "client", Secret("secret-one"))
    mine.save(Token(Secret("tok"), 1000.0, 5000.0))
    theirs = TokenCache(tmp_path, "https://h", "client", Secret("secret-two"))
    assert theirs.load(now=1001.0) is None
    assert not mine.path.exists()  # unreadable with this secret: worthless, so removed


def test_a_damaged_cache_file_is_ignored(tmp_path):
    cache = TokenCache(tmp_path, "https://h", "client", Secret("s"))
    cache.path.write_text("{not json")
    assert cache.load(now=0) is None
