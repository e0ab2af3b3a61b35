"""Drafts set aside for the next session: by method and URL, redacted, dropped once sent."""

from __future__ import annotations

import json
import stat

from explorer.api.drafts import DraftFile
from explorer.api.har import REDACTED


def test_a_draft_is_kept_by_method_and_url_without_its_secret_and_dropped(tmp_path):
    drafts = DraftFile(tmp_path / "state" / "drafts.sqlite3")
    url = "https://cloud.example.com/api/v1/groups/a/databaseUsers"
    drafts.put("POST", url, '{"username": "ann", "password": "pa55-word-1"}', 1.0)
    drafts.put("POST", url + "/x", '{"username": "half typed', 2.0)  # not JSON yet: kept as typed
    assert json.loads(drafts.get("POST", url)) == {"username": "ann", "password": REDACTED}
    assert drafts.get("POST", url + "/x") == '{"username": "half typed'
    assert drafts.get("PATCH", url) is None
    drafts.drop("POST", url)
    assert drafts.get("POST", url) is None
    drafts.close()
    folder = tmp_path / "state"
    assert b"pa55-word-1" not in b"".join(p.read_bytes() for p in folder.iterdir())
    assert {stat.S_IMODE(p.stat().st_mode) for p in folder.iterdir()} == {0o600}


def test_a_draft_not_yet_json_keeps_no_half_typed_secret(tmp_path):
    drafts = DraftFile(tmp_path / "drafts.sqlite3")
    url = "https://h.example/u"
    drafts.put("POST", url, '{"username": "x", "password": "half-typ-3d', 1.0)
    assert drafts.get("POST", url) == '{"username": "x", "password": "[redacted by explorer]"'
    drafts.put("POST", url, '{\n  "pass\\u0077ord": "s3cr3t-line\n  "roles": [', 2.0)
    assert "s3cr3t-line" not in drafts.get("POST", url) and REDACTED in drafts.get("POST", url)
    drafts.put("POST", url, '{"username": "x",', 3.0)  # nothing secret yet: as typed
    assert drafts.get("POST", url) == '{"username": "x",'
    drafts.close()
    on_disk = b"".join(p.read_bytes() for p in tmp_path.iterdir())
    assert b"half-typ-3d" not in on_disk and b"s3cr3t-line" not in on_disk


def test_a_draft_s_url_and_a_body_in_other_quotes_keep_no_secret(tmp_path):
    """An attack found a URL with `?access_token=…` kept whole, and `{'password': '…` kept as typed."""
    drafts = DraftFile(tmp_path / "drafts.sqlite3")
    url = "https://h.example/u?access_token=tok-from-a-url-55"
    drafts.put("POST", url, "{'username': 'x', 'password': 'single-quoted-77'", 1.0)
    drafts.put("POST", url + "&x=1", "password: bare-key-88\nname: y", 1.0)
    assert drafts.get("POST", url) == "{'username': 'x', 'password': \"[redacted by explorer]\""
    assert drafts.get("POST", url + "&x=1") == 'password: "[redacted by explorer]"\nname: y'
    drafts.close()
    on_disk = b"".join(p.read_bytes() for p in tmp_path.iterdir())
    for secret in (b"tok-from-a-url-55", b"single-quoted-77", b"bare-key-88"):
        assert secret not in on_disk
