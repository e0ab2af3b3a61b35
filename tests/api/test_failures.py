"""Failures below HTTP and odd answers: each one ApiError, with a line, a full text and a hint."""

from __future__ import annotations

import socket
from dataclasses import replace

import httpx
import pytest

from explorer.api.config import Credentials
from explorer.api.errors import ApiError, ConfigError, from_response, retry_after
from explorer.api.options import Bounds
from explorer.api.secret import Secret
from explorer.api.session import Session
from explorer.sandbox import Settings, create_app
from explorer.sandbox.links import API_ROOT
from explorer.sandbox.server import ServerThread
from explorer.sandbox.tls import names_for, server_files

SANDBOX = Settings()


def credentials(origin: str, **overrides) -> Credentials:
    base = Credentials(origin + API_ROOT, client_id=SANDBOX.client_id, client_secret=Secret(SANDBOX.client_secret))
    return replace(base, **overrides)


async def failure(session: Session) -> ApiError:
    async with session:
        with pytest.raises(ApiError) as caught:
            await session.fetch("/orgs")
    return caught.value


@pytest.mark.slow
async def test_a_timeout():
    with ServerThread(create_app(Settings(latency_ms=800))) as server:
        error = await failure(Session(credentials(server.url), bounds=Bounds(timeout=0.3)))
    assert error.kind == "timeout"
    assert error.line().startswith("No answer after 0.3 s: POST")  # the token request was the first to wait
    assert error.url.endswith("/api/oauth/token")
    assert "network" in error.hint


async def test_a_refused_connection():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    error = await failure(Session(credentials(f"http://127.0.0.1:{port}")))
    assert error.kind == "connect"
    assert "refused" in error.line()
    assert "running" in error.hint


async def test_a_host_that_does_not_resolve():
    error = await failure(Session(credentials("https://no-such-host.invalid")))
    assert error.kind == "dns"
    assert error.line() == "The host name no-such-host.invalid does not resolve"


async def test_tls_is_verified_and_a_ca_bundle_can_be_named(tmp_path):
    files = server_files(tmp_path, names_for("127.0.0.1"))
    with ServerThread(create_app(), tls=files) as server:
        error = await failure(Session(credentials(server.url)))
        assert error.kind == "tls"
        assert error.line() == "The certificate of 127.0.0.1 is signed by an authority this computer does not trust"
        assert error.hint == "The certificate is not trusted: name its authority (for the sandbox, its sandbox-ca.pem)."
        assert error.setting == "ca_bundle"
        async with Session(credentials(server.url, ca_bundle=str(files.ca))) as trusted:
            assert (await trusted.fetch("/orgs")).status == 200


async def test_a_certificate_for_other_names_says_so_not_to_name_an_authority(tmp_path):
    files = server_files(tmp_path, ["localhost"])
    with ServerThread(create_app(), tls=files) as server:
        error = await failure(Session(credentials(server.url, ca_bundle=str(files.ca))))
    assert error.kind == "tls-certificate"
    assert error.line() == "The certificate of 127.0.0.1 is for other names, not for 127.0.0.1"
    assert error.hint == "Connect by a name the certificate holds: change the host in the base URL to it."


async def test_https_to_a_server_that_speaks_no_tls_says_so():
    with ServerThread(create_app()) as server:
        error = await failure(Session(credentials(server.url.replace("http://", "https://"))))
    assert error.kind == "connect"
    assert error.line() == "127.0.0.1 does not answer in TLS there"
    assert error.hint == (
        "It may serve plain HTTP on that port, or another protocol: check the scheme and port of the URL."
    )


@pytest.mark.parametrize("content", [b"", b"not a certificate\n", b"\x30\x82\x01\x0a binary, as DER would be"])
def test_a_ca_bundle_that_is_not_pem_is_a_configuration_error_naming_the_file(tmp_path, content):
    bundle = tmp_path / "bundle.pem"
    bundle.write_bytes(content)
    with pytest.raises(ConfigError) as caught:
        Session(credentials("https://127.0.0.1:8443", ca_bundle=str(bundle)))
    assert caught.value.line() == f"The CA bundle {bundle} holds no certificate TLS can use"
    assert caught.value.hint == (
        "Name a PEM file of certificates (-----BEGIN CERTIFICATE-----), such as the sandbox's sandbox-ca.pem."
    )


def test_a_ca_bundle_that_cannot_be_read_is_a_configuration_error_naming_the_file(tmp_path):
    with pytest.raises(ConfigError) as caught:
        Session(credentials("https://127.0.0.1:8443", ca_bundle=str(tmp_path / "missing.pem")))
    assert caught.value.line() == f"The CA bundle {tmp_path / 'missing.pem'} cannot be read: No such file or directory"
    with pytest.raises(ConfigError) as caught:
        Session(credentials("https://127.0.0.1:8443", ca_bundle=str(tmp_path)))
    assert caught.value.line() == f"The CA bundle {tmp_path} cannot be read: Is a directory"


async def test_an_html_page_from_a_proxy_is_shown_as_what_it_is():
    page = b"<html><body><h1>502 Bad Gateway</h1></body></html>"
    transport = httpx.MockTransport(lambda r: httpx.Response(502, headers={"content-type": "text/html"}, content=page))
    session = Session(
        Credentials("https://h.example/api/service/v1.0", public_key="k", private_key=Secret("p")), transport=transport
    )
    async with session:
        resource = await session.fetch("/orgs")
    assert resource.json_error.startswith("not JSON")
    assert resource.error.kind == "not-json"
    assert resource.error.line() == "502 Bad Gateway · HTML page, not JSON"
    assert "proxy" in resource.error.hint


@pytest.mark.parametrize(
    "status, body, headers, line, hint",
    [
        (
            401,
            {"error": "invalid_client", "error_description": "Invalid credentials provided."},
            {},
            "401 Unauthorized · invalid_client: Invalid credentials provided.",
            "client ID and secret",
        ),
        (
            403,
            {
                "error": "access_denied",
                "error_description": "IP access list validation failed for the service account.",
            },
            {},
            "403 Forbidden · access_denied: IP access list validation failed for the service account.",
            "access list",
        ),
        (
            403,
            {
                "detail": "IP address 203.0.113.9 is not allowed to access this resource.",
                "error": 403,
                "errorCode": "IP_ADDRESS_NOT_ON_ACCESS_LIST",
                "parameters": ["203.0.113.9"],
                "reason": "Forbidden",
            },
            {},
            "403 Forbidden · IP_ADDRESS_NOT_ON_ACCESS_LIST: "
            "IP address 203.0.113.9 is not allowed to access this resource.",
            "the address 203.0.113.9",
        ),
        (
            429,
            {
                "detail": "Resource /x is limited to 100 requests every 1 minutes.",
                "error": 429,
                "errorCode": "RATE_LIMITED",
                "parameters": [],
                "reason": "Too Many Requests",
            },
            {"Retry-After": "17"},
            "429 Too Many Requests · RATE_LIMITED: Resource /x is limited to 100 requests every 1 minutes.",
            "retry in 17 s",
        ),
        (
            503,
            {
                "status": 503,
                "content": {
                    "detail": "Down.",
                    "error": 503,
                    "errorCode": "SERVICE_UNAVAILABLE",
                    "reason": "Service Unavailable",
                },
            },
            {"Retry-After": "5"},
            "503 Service Unavailable · SERVICE_UNAVAILABLE: Down.",
            "retry in 5 s",
        ),
        (
            404,
            {"error": 404, "reason": "Not Found"},
            {"X-Error-Code": "GROUP_NOT_FOUND"},
            "404 Not Found · GROUP_NOT_FOUND",
            "following links from the root",
        ),
        (
            400,
            {
                "detail": "Invalid query parameter pageNum.",
                "error": 400,
                "errorCode": "INVALID_QUERY_PARAMETER",
                "parameters": ["pageNum"],
                "reason": "Bad Request",
            },
            {},
            "400 Bad Request · INVALID_QUERY_PARAMETER: Invalid query parameter pageNum.",
            "the detail and parameters name what to change",
        ),
        (409, {"error": 409, "reason": "Conflict"}, {}, "409 Conflict", None),
    ],
    ids=[
        "invalid-client",
        "access-denied",
        "ip-not-on-list",
        "rate-limited",
        "enveloped-503",
        "code-from-header",
        "malformed",
        "no-hint",
    ],  # fmt: skip
)
def test_error_documents_read_as_one_line_with_a_hint(status, body, headers, line, hint):
    import json

    error = from_response("GET", "https://h/x", status, httpx.Headers(headers), json.dumps(body).encode(), now=0)
    assert error.line() == line
    hint_lines = [line for line in error.full().splitlines() if line.startswith("hint ")]
    assert len(hint_lines) == (1 if hint else 0), error.full()
    if hint:
        assert hint in error.hint and error.hint.split()[0] in hint_lines[0]


def test_retry_after_takes_seconds_or_an_http_date():
    assert retry_after("12", now=0) == 12
    assert retry_after("Thu, 01 Jan 1970 00:01:40 GMT", now=40) == 60
    assert retry_after("Thu, 01 Jan 1970 00:00:10 GMT", now=40) == 0
    assert retry_after("soon", now=0) is None
    assert retry_after(None, now=0) is None
    assert retry_after("²", now=0) is None  # a digit to str.isdigit, not a number of seconds
    assert retry_after("9" * 4400, now=0) is None  # more than int() takes by default
