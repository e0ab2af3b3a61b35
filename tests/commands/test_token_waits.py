"""`explorer get` waits out a token endpoint's 503 and its Retry-After, as it waits out a read's (issue 38: 2).

The sandbox's `_sandbox/unavailable?count=N` answers the next N requests under /api with a 503 and
Retry-After, the token requests included: a run with no token yet meets them at the token endpoint.
"""

from __future__ import annotations

import json

import httpx
import pytest

from tests.commands.conftest import Sandbox, at_a_terminal


@pytest.mark.slow  # the Retry-After seconds, waited
def test_get_waits_out_the_token_endpoints_503s_and_prints_the_document(sandbox: Sandbox):
    httpx.post(sandbox.url + "/_sandbox/unavailable?count=3&retryAfter=1")  # as the banner's example, 1 s each
    run = sandbox.run("get", "/orgs")
    assert (run.code, run.err) == (0, "")  # in a pipe: silent, as a read's wait is
    assert run.json["results"]
    tokens = [r.method for r in sandbox.noting.received if r.path == "/api/oauth/token"]
    assert tokens == ["POST"] * 4  # three 503s, then the token


@pytest.mark.subprocess
def test_get_at_a_terminal_says_it_waits_for_the_token_endpoints_retry_after(sandbox: Sandbox):
    httpx.post(sandbox.url + "/_sandbox/unavailable?count=1&retryAfter=2")
    run = at_a_terminal(["get", "/orgs"], sandbox.environment())
    assert run.shown == "explorer get: waiting 2 s for the 503's Retry-After…\n"  # as a read's wait is said
    assert run.code == 0 and json.loads(run.out)["results"]
