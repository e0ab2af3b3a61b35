"""Hints: each names a step that works, and the troubleshooting table (docs/configuration.md) quotes each one
as the command line words it. The library's own name no flag: a script has none."""

from __future__ import annotations

import json
import re
import ssl
import tempfile
from pathlib import Path
from typing import get_args

import httpx
import pytest

from explorer.api.config import Credentials, trusting
from explorer.api.description import DescriptionError
from explorer.api.errors import ApiError, Setting, from_response
from explorer.api.secret import Secret
from explorer.api.session import Session
from explorer.api.tls_failures import tls_failure
from explorer.api.urls import check_base_url
from explorer.commands import hint_words as command_words
from explorer.commands.hint_words import command_line_hint
from explorer.display.variables import VARIABLES
from tests.conftest import REAL_RESPONSES, ROOT
from tests.manual import page, section
from tests.real_response import as_resource

BASE = "https://api.example/api/service/v1.0"


def answer(status: int, body: dict, headers: dict | None = None, **options) -> ApiError:
    return from_response(
        "GET", BASE + "/x", status, httpx.Headers(headers or {}), json.dumps(body).encode(), 0, **options
    )


def on_v2(status: int, body: dict, **options) -> ApiError:
    """A failed answer from a versioned API root (/api/atlas/v2)."""
    return from_response(
        "GET", "https://h.example/api/atlas/v2/groups", status, httpx.Headers(), json.dumps(body).encode(), 0, **options
    )


def at_root(status: int, root: str) -> ApiError:
    """A failed answer to a request for the API root itself (the base URL)."""
    body = {"errorCode": "RESOURCE_NOT_FOUND", "detail": "Cannot find resource."}
    return from_response("GET", root, status, httpx.Headers(), json.dumps(body).encode(), 0, at_root=True)


async def refusal(target: str) -> ApiError:
    credentials = Credentials(BASE, client_id="client", client_secret=Secret("secret"))
    async with Session(credentials, transport=httpx.MockTransport(lambda r: httpx.Response(200))) as session:
        with pytest.raises(ApiError) as caught:
            await session.fetch(target)
    return caught.value


async def test_a_url_on_another_origin_says_how_to_explore_that_service():
    error = await refusal("https://other.example/api/service/v1.0/groups")
    assert error.line() == "other.example is not api.example: the credentials go only to api.example"
    assert error.hint == (
        "To explore other.example, use its base URL and its own credentials; a public page opens in a browser or "
        "with curl."
    )
    assert (
        command_line_hint(error)
        == f"{error.hint} Explore it with --base-url URL and its credentials, or --profile NAME."
    )


def test_an_access_list_refusal_without_an_address_does_not_send_you_to_a_resource_it_refuses():
    error = answer(
        403,
        {"error": "access_denied", "error_description": "IP access list validation failed for the service account."},
    )
    assert error.hint == (
        "The access list of these credentials does not allow your address (as the service sees it: your network's "
        "public address); add it to the list, or connect from an allowed one."
    )


def test_a_missing_version_names_a_way_to_ask_for_one():
    error = answer(406, {"error": 406, "reason": "Not Acceptable", "errorCode": "INVALID_VERSION", "detail": "x"})
    assert error.hint == (
        "The service has no version of this resource for the Accept sent (application/json): ask for a version "
        "the detail names, in an Accept of your own."
    )
    assert command_line_hint(error) == (
        f"{error.hint} Send it with explorer get -H 'Accept: …' (Y in the explorer copies the request as curl)."
    )
    versioned = on_v2(406, {"errorCode": "INVALID_VERSION_DATE", "detail": "Invalid accept header or version date."})
    assert versioned.hint == (
        "This API wants a version in the Accept header (application/vnd.atlas.DATE+json): name one, or give the "
        "service's API description (each request then names the newest version it documents)."
    )
    assert command_line_hint(versioned) == (
        f"{versioned.hint} Name one with --api-version DATE (EXPLORER_API_VERSION, or api_version in the profile), "
        "give the API description with --openapi FILE_OR_URL, or send your own Accept with explorer get -H."
    )
    documented = on_v2(406, {"errorCode": "INVALID_VERSION_DATE"}, versions=("2023-01-01", "2024-08-05"))
    assert documented.hint == (
        "This API wants a version in the Accept header (application/vnd.atlas.DATE+json); the API description "
        "documents 2023-01-01, 2024-08-05 for this resource."
    )
    assert documented.setting == "api_version"
    plain = on_v2(406, {"errorCode": "INVALID_VERSION_DATE"}, versions=("2023-01-01", "2024-08-05"), accept="*/*")
    assert plain.hint == (  # the user's own Accept (explorer get -H): an example of one that names a version
        "The Accept sent (*/*) names no version: this API wants application/vnd.atlas.DATE+json, and its API "
        "description documents 2023-01-01, 2024-08-05 for this resource. For example: "
        "Accept: application/vnd.atlas.2024-08-05+json."
    )
    named = answer(406, {"errorCode": "INVALID_VERSION_DATE"}, accept="application/json", vendor="service")
    assert "this API wants application/vnd.service.DATE+json" in named.hint  # the description's vendor
    gone = on_v2(410, {"errorCode": "VERSION_GONE", "detail": "Gone."})
    assert gone.hint.startswith("This version of the resource is past its sunset: ask for a newer one")


def test_a_refused_token_names_what_to_check_and_what_to_do():
    error = answer(401, {"error": 401, "reason": "Unauthorized", "errorCode": "UNAUTHORIZED"})
    assert error.hint == "Authentication failed: check the credentials, then retry."
    assert command_line_hint(error) == (
        "Authentication failed: check the credentials, then retry. Credentials are read from the flags, EXPLORER_* "
        "variables or the profile."
    )


def test_a_429_says_the_limit_the_service_stated():
    bucket = answer(
        429,
        {"errorCode": "RATE_LIMITED_TOKEN_BUCKET", "detail": "Too many.", "parameters": ["/api/x", 10, 100, 10, 1]},
        {"Retry-After": "10", "RateLimit-Limit": "100"},
    )
    assert bucket.hint == (
        "Rate limited: retry in 10 s. These endpoints take a burst of 100 requests, refilled at 10 every 1 s."
    )
    stated = answer(
        429, {"errorCode": "RATE_LIMITED", "detail": "limited"}, {"Retry-After": "40", "RateLimit-Limit": "5"}
    )
    assert stated.hint == "Rate limited: retry in 40 s. The service allows 5 requests here (its RateLimit-Limit)."
    odd = answer(429, {"errorCode": "RATE_LIMITED", "detail": "limited"}, {"RateLimit-Limit": "\u00b2".encode()})
    assert odd.rate_limit is None and odd.hint.endswith("at the token endpoints (10 a minute).")


def test_the_token_limit_and_the_access_list_on_use_are_told_apart():
    limit = answer(403, {"error": "access_denied", "error_description": "Access Token limit reached."})
    assert limit.hint.startswith("This service account holds as many live tokens as it may (100 on the real service)")
    on_use = answer(
        403,
        {"errorCode": "IP_ADDRESS_NOT_ON_ACCESS_LIST", "detail": "IP address 198.51.100.7 is not allowed.",
         "parameters": ["198.51.100.7"]},
        credentials="service account",
    )  # fmt: skip
    assert on_use.hint.endswith("The token was issued all the same: the list is checked when a token is used.")


def quoted_hints() -> list[str]:
    """The third column of the troubleshooting table (docs/configuration.md)."""
    table = section(page("configuration.md"), "## Troubleshooting")
    rows = [line for line in table.splitlines() if line.startswith("| ") and not line.startswith("| You see")]
    return [re.split(r" \| ", row.strip("| "))[-1] for row in rows]


def handshake(said: int | str) -> ApiError:
    """A TLS failure as OpenSSL reports it: a verify code (62, a name mismatch), or a reason."""
    error = ssl.SSLCertVerificationError(1, "certificate verify failed") if isinstance(said, int) else ssl.SSLError(1)
    if isinstance(said, int):
        error.verify_code = said
    else:
        error.reason = said
    failure = tls_failure(error, "api.example")
    return ApiError(failure.kind, failure.summary, hint=failure.hint)


async def every_hint() -> list[str]:
    """The hint of each failure the library tells apart, as the command line words it."""
    return [hint for error in await every_error() if (hint := command_line_hint(error))]


async def every_error() -> list[ApiError]:
    """One failure of each kind the library tells apart, as a user meets it."""
    errors = [
        answer(401, {"error": "invalid_client", "error_description": "Invalid credentials provided."}),
        answer(403, {"error": "access_denied", "error_description": "IP access list validation failed."}),
        answer(
            403,
            {"errorCode": "IP_ADDRESS_NOT_ON_ACCESS_LIST", "detail": "IP address 198.51.100.7 is not allowed."},
        ),
        answer(400, {"error": "invalid_request", "error_description": "Missing grant type."}),
        answer(429, {"errorCode": "RATE_LIMITED", "detail": "limited"}, {"Retry-After": "40"}),
        answer(503, {"errorCode": "SERVICE_UNAVAILABLE", "detail": "down"}, {"Retry-After": "15"}),
        answer(401, {"errorCode": "USER_UNAUTHORIZED", "detail": "Current user is not authorized."}),
        answer(401, {"errorCode": "UNEXPECTED_ERROR", "detail": "refused"}, after_refresh=True),
        answer(401, {"errorCode": "UNAUTHORIZED", "detail": "refused"}, credentials="API key"),
        answer(401, {"errorCode": "UNAUTHORIZED", "detail": "refused"}, credentials="service account"),
        answer(403, {"errorCode": "FORBIDDEN", "detail": "no"}),
        answer(404, {"errorCode": "GROUP_NOT_FOUND", "detail": "No group."}),
        answer(400, {"errorCode": "INVALID_QUERY_PARAMETER", "detail": "Invalid query parameter pageNum."}),
        at_root(404, "https://api.example/api/atlas/v3"),
        answer(400, {"errorCode": "CANNOT_TERMINATE_CLUSTER_WHEN_TERMINATION_PROTECTION_ENABLED", "detail": "No."}),
        answer(406, {"errorCode": "INVALID_VERSION", "detail": "No such version."}),
        on_v2(406, {"errorCode": "INVALID_VERSION_DATE", "detail": "Invalid accept header or version date."}),
        answer(410, {"errorCode": "VERSION_GONE", "detail": "Gone."}),
        answer(429, {"errorCode": "RATE_LIMITED", "detail": "limited"}, {"Retry-After": "40", "RateLimit-Limit": "5"}),
        answer(
            429,
            {"errorCode": "RATE_LIMITED_TOKEN_BUCKET", "detail": "Too many.", "parameters": ["/x", 10, 100, 10, 1]},
            {"Retry-After": "10"},
        ),
        answer(403, {"error": "access_denied", "error_description": "Access Token limit reached."}),
        answer(
            403,
            {"errorCode": "IP_ADDRESS_NOT_ON_ACCESS_LIST", "detail": "not allowed", "parameters": ["198.51.100.7"]},
            credentials="service account",
        ),
        from_response("GET", BASE, 502, httpx.Headers({"content-type": "text/html"}), b"<html></html>", 0),
        ApiError("tls", "The certificate of api.example is signed by an authority this computer does not trust"),
        *(handshake(code) for code in (62, 10, "WRONG_VERSION_NUMBER")),
        ApiError("connect", "Connection refused by api.example:443"),
        ApiError("timeout", "No answer after 30 s: GET " + BASE),
        ApiError("dns", "The host name api.example does not resolve"),
        on_v2(406, {"errorCode": "INVALID_VERSION_DATE"}, versions=("2023-01-01", "2024-08-05")),
        on_v2(406, {"errorCode": "INVALID_VERSION_DATE"}, versions=("2023-01-01", "2024-08-05"), accept="*/*"),
        answer(403, {"errorCode": "FORBIDDEN", "detail": "No."}, roles=("Project Read Only",)),
        DescriptionError("api.yaml", "there is no such file"),
        await refusal("https://other.example/x"),
        await refusal("http://other.example/x"),
    ]
    for refused in (lambda: check_base_url("http://api.example"), lambda: trusting(str(ROOT / "README.md"))):
        try:
            refused()
        except ApiError as error:
            errors.append(error)
    errors += resolve_failures()
    assert len(errors) == 38 + 9
    return errors


# The config file as a user's failures name it: where the explorer looks for it (platformdirs, on Linux).
CONFIG = "~/.config/explorer/config.toml"


def resolve_failures() -> list[ApiError]:
    """Each failure Credentials.resolve tells apart, as the explorer's command line resolves: its variables."""
    nowhere = Path(CONFIG)  # not expanded: no file there, so no profiles
    with tempfile.TemporaryDirectory() as folder:
        several = Path(folder) / "config.toml"
        several.write_text(
            f'[profiles.lab]\nbase_url = "{BASE}"\nclient_id = "c"\nclient_secret = {{ keyring = "c@lab" }}\n\n'
            f'[profiles.prod]\nbase_url = "{BASE}"\n'
        )
        several.chmod(0o600)
        cases = [
            {"path": nowhere},  # nothing says which service: no base URL
            {"path": nowhere, "environ": {"EXPLORER_BASE_URL": BASE}},  # no credentials for it
            {"path": nowhere, "profile": "lab"},  # a profile, and no config file to hold it
            {"path": nowhere, "base_url": "http://api.example/api/service/v1.0"},  # plain http:// elsewhere
            {"path": nowhere, "environ": {"EXPLORER_BASE_URL": BASE, "EXPLORER_API_VERSION": "latest"}},
            {"path": nowhere, "environ": {"EXPLORER_BASE_URL": BASE, "EXPLORER_CLIENT_ID": "c\udcff"}},  # not UTF-8
            {"path": several},  # profiles, none chosen
            {"path": several, "profile": "staging"},  # a profile the file does not have
            {"path": several, "profile": "lab"},  # its secret in a keyring there is none of (tests/conftest.py)
        ]
        errors = []
        for case in cases:
            with pytest.raises(ApiError) as caught:
                Credentials.resolve(**{"environ": {}, **case}, variables=VARIABLES)
            errors.append(caught.value)
    for error in errors:  # the temporary folder as the user's own config file
        error.hint = error.hint and error.hint.replace(str(several), CONFIG)
    return errors


async def test_the_docs_quote_every_hint_word_for_word():
    quoted = quoted_hints()
    hints = await every_hint()
    missing = [hint for hint in hints if not any(hint in cell for cell in quoted)]
    assert not missing, missing


def test_a_refusal_names_the_roles_the_description_requires():
    refused = answer(403, {"error": 403, "errorCode": "FORBIDDEN", "detail": "No."}, roles=("Project Read Only",))
    assert refused.hint == (
        "The service refuses this request for these credentials. The API description requires Project Read Only "
        "for GET here."
    )
    unauthorized = answer(
        401,
        {"error": 401, "errorCode": "USER_UNAUTHORIZED", "detail": "No."},
        roles=("Project Owner", "Organization Owner"),
    )
    assert unauthorized.hint.endswith("The API description requires Project Owner or Organization Owner for GET here.")
    # Without a description, or where the refusal is not about roles, nothing is added.
    assert answer(403, {"error": 403, "errorCode": "FORBIDDEN", "detail": "No."}).hint == (
        "The service refuses this request for these credentials."
    )
    listed = answer(403, {"errorCode": "IP_ADDRESS_NOT_ON_ACCESS_LIST", "detail": "x"}, roles=("Project Read Only",))
    assert "requires" not in listed.hint


FLAG = re.compile(r"(?<![\w-])--[a-z]|EXPLORER_[A-Z]")


async def test_the_librarys_own_hints_name_no_flag_and_no_variable():
    """A script has neither: the library says what went wrong and which setting would help."""
    errors = await every_error()
    named = [error.hint for error in errors if error.hint and FLAG.search(error.hint)]
    assert not named, named
    assert {error.setting for error in errors} >= {"client", "api_key", "credentials", "api_version", "openapi"}


def test_every_setting_a_hint_can_name_has_words_on_the_command_line():
    """The screen's words for them: tests/tui/test_hint_words.py."""
    assert sorted(command_words.FLAG_WORDS) == sorted(get_args(Setting))


ROOT_HINT = (
    "Nothing is at https://api.example/api/atlas/v3, the API root itself: the base URL is likely wrong. An API root "
    "is the address where the API starts, such as https://HOST/api/atlas/v2, or the sandbox's "
    "https://HOST/api/service/v1.0."
)


async def test_a_404_of_the_api_root_itself_names_the_base_url_not_the_ids_in_a_path():
    """The session knows its base URL: a 404 there is a wrong base URL; one below it, a path's IDs."""

    def service(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/api/oauth/token":
            return httpx.Response(200, json={"access_token": "t", "token_type": "Bearer", "expires_in": 3600})
        return httpx.Response(404, json={"error": 404, "errorCode": "RESOURCE_NOT_FOUND", "detail": "Not found."})

    credentials = Credentials(
        "https://api.example/api/atlas/v3", client_id="client", client_secret=Secret("secret"), api_version=None
    )
    async with Session(credentials, transport=httpx.MockTransport(service)) as session:
        root = (await session.fetch("/")).error
        root_again = (await session.fetch("https://api.example/api/atlas/v3/?pretty=true")).error
        below = (await session.fetch("groups")).error
    assert root.hint == root_again.hint == ROOT_HINT
    assert (
        command_line_hint(root)
        == f"{ROOT_HINT} Give the right one with --base-url URL (EXPLORER_BASE_URL, or base_url in the profile)."
    )
    assert below.hint == "Nothing is there: check the IDs in the path, or reach it by following links from the root."


REFUSED_AS_IT_IS = (
    "The request is well formed, but the resource as it is now does not allow it: the detail says what stands in "
    "the way (a setting to turn off first, an operation still going on, another API for this kind of resource)."
)
MALFORMED = "The service refused the request as malformed: the detail and parameters name what to change."


@pytest.mark.parametrize(
    "code, hint",
    [
        ("CANNOT_TERMINATE_CLUSTER_WHEN_TERMINATION_PROTECTION_ENABLED", REFUSED_AS_IT_IS),  # the sandbox's
        ("CLUSTER_ALREADY_REQUESTED_DELETION", REFUSED_AS_IT_IS),  # the sandbox's
        ("OPERATION_NOT_ALLOWED", REFUSED_AS_IT_IS),
        ("RESTORE_IN_PROGRESS", REFUSED_AS_IT_IS),
        ("INVALID_QUERY_PARAMETER", MALFORMED),
        ("INVALID_ATTRIBUTE", MALFORMED),
        ("MISSING_ATTRIBUTE", MALFORMED),
    ],
)
def test_a_400_that_refuses_the_resource_as_it_is_is_not_called_malformed(code, hint):
    assert answer(400, {"error": 400, "errorCode": code, "detail": "x"}).hint == hint


def test_the_real_services_400s_that_refuse_a_resource_as_it_is_are_worded_so():
    """Every 400 recorded from the real service names a refusal of what the resource is (CANNOT_…)."""
    recorded = sorted(REAL_RESPONSES.glob("400_*.http"))
    codes = {as_resource(path).error.error_code: as_resource(path).error.hint for path in recorded}
    assert codes == {
        "CANNOT_USE_FLEX_CLUSTER_IN_CLUSTER_API": REFUSED_AS_IT_IS,
        "CANNOT_USE_NON_FLEX_CLUSTER_IN_FLEX_API": REFUSED_AS_IT_IS,
        "ONLINE_ARCHIVE_CANNOT_MODIFY_FIELD": REFUSED_AS_IT_IS,
    }
