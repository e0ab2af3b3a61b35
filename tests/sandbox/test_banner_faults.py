"""The faults `explorer sandbox` starts with are said in its banner, and count what they say they count.

`--latency`, `--unavailable` and `--token-error` change what every client meets from the first
request: a trainer who reads the banner knows what the class will see. Each takes every request
under /api, the token endpoints' too (test_faults.py holds the token request's 503).
"""

from __future__ import annotations

import argparse
import time

import httpx
import pytest

from explorer.sandbox.command import add_arguments, banner
from explorer.sandbox.settings import Settings
from tests.manual import page
from tests.sandbox.test_command import running

FAULTS = ("Latency:", "Unavailable:", "Token errors:")


@pytest.mark.subprocess
def test_the_banner_says_the_latency_and_the_503s_it_starts_with(tmp_path):
    with running(tmp_path, "--http", "--latency", "4000", "--unavailable", "3", "--retry-after", "7") as (url, text, _):
        assert (
            "Latency: every request under /api waits 4000 ms before its answer, token requests too (--latency).\n"
            "Unavailable: the first 3 requests under /api, token requests too, answer 503 with Retry-After: 7 "
            "(--unavailable, --retry-after).\n"
        ) in text
        started = time.monotonic()
        first = httpx.post(url + "/api/oauth/token", data={"grant_type": "client_credentials"}, timeout=30)
        assert time.monotonic() - started >= 4.0  # waited, as said
        assert (first.status_code, first.headers["retry-after"]) == (503, "7")  # the token request is one of the 3


def test_the_banner_says_the_token_errors_in_turn_and_nothing_without_faults():
    url = "http://127.0.0.1:8080"
    one = banner(Settings(token_errors=("server_error",)), url, None, "127.0.0.1")
    assert "Token errors: the next token request answers server_error (--token-error).\n" in one
    two = banner(Settings(token_errors=("server_error", "invalid_grant")), url, None, "127.0.0.1")
    assert "Token errors: the next 2 token requests answer server_error, then invalid_grant (--token-error)." in two
    plain = banner(Settings(), url, None, "127.0.0.1")
    assert [line for line in plain.splitlines() if line.startswith(FAULTS)] == []


def test_the_sandbox_page_and_help_say_the_token_requests_count_among_the_503s():
    rows = {line.split("|")[1].strip(): line for line in page("sandbox.md").splitlines() if line.startswith("| `--")}
    assert "token requests included" in rows["`--unavailable N`"]
    assert "token requests included" in rows["`--latency MS`"]
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    said = " ".join(parser.format_help().split())
    assert "answer the first N requests under /api, token requests included, with 503 and Retry-After" in said
    assert "added latency per request under /api, token requests included" in said
