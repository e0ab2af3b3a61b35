"""Baselines in the library: saved per profile (a name again replaces it), listed, read, deleted;
names checked; `PROFILE:NAME` another profile's; redacted; private."""

from __future__ import annotations

import stat

import pytest

from explorer.api.baselines import Baselines, check_name, split_reference
from explorer.api.har import REDACTED


def test_a_name_saved_again_replaces_it_and_each_profile_has_its_own(tmp_path):
    path = tmp_path / "state" / "baselines.sqlite3"
    baselines = Baselines(path)
    baselines.save("staging", "orders", "https://s.example/x", {"diskSizeGB": 40}, 1.0)
    baselines.save("production", "orders", "https://p.example/x", {"diskSizeGB": 80}, 2.0)
    baselines.save("staging", "orders", "https://s.example/x", {"diskSizeGB": 45}, 3.0)
    assert [(b.profile, b.name, b.saved) for b in baselines.list()] == [
        ("production", "orders", 2.0),
        ("staging", "orders", 3.0),
    ]
    assert baselines.get("staging", "orders").document() == {"diskSizeGB": 45}
    assert [b.profile for b in baselines.list("production")] == ["production"]
    assert baselines.delete("staging", "orders") and not baselines.delete("staging", "orders")
    assert baselines.get("staging", "orders") is None
    assert {stat.S_IMODE(p.stat().st_mode) for p in path.parent.iterdir()} == {0o600}


def test_a_secret_in_the_document_is_kept_redacted(tmp_path):
    baselines = Baselines(tmp_path / "baselines.sqlite3")
    saved = baselines.save(None, "users", "https://p.example/u", [{"username": "a", "password": "hunter2-xyz"}], 1.0)
    assert saved.document() == [{"username": "a", "password": REDACTED}]
    baselines.close()
    assert b"hunter2-xyz" not in b"".join(p.read_bytes() for p in tmp_path.iterdir())


def test_a_value_its_url_sent_under_a_secret_s_name_is_kept_nowhere(tmp_path):
    """An attack saved `/groups/1?apiKey=…`: the URL was kept whole, and the service's `self` link said it back."""
    baselines = Baselines(tmp_path / "baselines.sqlite3")
    url = "https://p.example/groups/1?apiKey=key-in-a-query-42"
    saved = baselines.save(None, "g", url, {"self": url, "name": "g"}, 1.0)
    assert saved.url == "https://p.example/groups/1?apiKey=%5Bredacted+by+explorer%5D"
    assert saved.document() == {"self": "https://p.example/groups/1?apiKey=[redacted by explorer]", "name": "g"}
    baselines.close()
    assert b"key-in-a-query-42" not in b"".join(p.read_bytes() for p in tmp_path.iterdir())


def test_a_reference_is_this_profile_s_name_or_another_s():
    assert split_reference("orders", "production") == ("production", "orders")
    assert split_reference("staging:orders", "production") == ("staging", "orders")
    assert split_reference("orders", None) == ("", "orders")
    for bad in ("-x", "a b", "x" * 65, "a/b"):
        with pytest.raises(ValueError, match="is not a baseline's name"):
            split_reference(bad, None)
    for empty in ("", "staging:"):
        with pytest.raises(ValueError, match="A baseline needs a name: 1 to 64 letters"):
            split_reference(empty, None)
    assert check_name("before-upgrade.2026_11") == "before-upgrade.2026_11"
