"""A failure's hint in the screen's words (explorer/tui/hint_words.py): what to start explorer again with.

The library's own hints, and the command line's words for them, are tests/api/test_hints.py's; this
is the screen's part, apart, since the library's tests import no Textual package.
"""

from __future__ import annotations

import json
from typing import get_args

import httpx

from explorer.api.errors import Setting, from_response
from explorer.tui.hint_words import SCREEN_WORDS, screen_hint


def test_every_setting_a_hint_can_name_has_words_on_the_screen():
    assert sorted(SCREEN_WORDS) == sorted(get_args(Setting))


def test_a_404_of_the_api_root_itself_says_what_to_start_explorer_again_with():
    body = json.dumps({"errorCode": "RESOURCE_NOT_FOUND", "detail": "Cannot find resource."}).encode()
    root = "https://api.example/api/atlas/v3"
    error = from_response("GET", root, 404, httpx.Headers(), body, 0, at_root=True)
    assert screen_hint(error) == (
        "Nothing is at https://api.example/api/atlas/v3, the API root itself: the base URL is likely wrong. An API "
        "root is the address where the API starts, such as https://HOST/api/atlas/v2, or the sandbox's "
        "https://HOST/api/service/v1.0. Start explorer again with the right one: --base-url URL (EXPLORER_BASE_URL, "
        "or base_url in the profile)."
    )
