"""Credentials go only to the configured origin, over HTTPS (or loopback), and never show."""

from __future__ import annotations

import json
import logging

import httpx
import pytest

from explorer.api.config import Credentials
from explorer.api.errors import ApiError
from explorer.api.secret import Secret
from explorer.api.session import Session
from explorer.api.urls import check_base_url

BASE = "https://api.example.com/api/service/v1.0"
SECRET = "s3cr3t-client-secret"
TOKEN = "tok-0123456789-very-secret"


class Recorder:
    """A transport that answers like a tiny service and remembers every request it saw."""

    def __init__(self, next_href: str | None = None) -> None:
        self.seen: list[httpx.Request] = []
        self.next_href = next_href

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.seen.append(request)
        if request.url.path == "/api/oauth/token":
            return httpx.Response(200, json={"access_token": TOKEN, "token_type": "Bearer", "expires_in": 3600})
        links = [{"rel": "self", "href": str(request.url)}]
        if self.next_href:
            links.append({"rel": "next", "href": self.next_href})
        return httpx.Response(200, json={"links": links, "results": [], "totalCount": 0})


def session_with(recorder: Recorder) -> Session:
    credentials = Credentials(BASE, client_id="client", client_secret=Secret(SECRET))
    return Session(credentials, transport=httpx.MockTransport(recorder))


@pytest.mark.parametrize(
    "url", ["http://api.example.com/api/service/v1.0", "http://10.0.0.5:8080", "http://[2001:db8::1]/"]
)
def test_plain_http_to_a_remote_host_is_refused_before_any_connection(url):
    with pytest.raises(ApiError) as caught:
        check_base_url(url)
    assert caught.value.kind == "insecure"
    assert "unencrypted" in caught.value.line()
    assert "loopback" in caught.value.hint


@pytest.mark.parametrize("url", ["http://127.0.0.1:8080", "http://localhost:8080/api/service/v1.0", "http://[::1]:9"])
def test_plain_http_on_loopback_is_allowed(url):
    assert check_base_url(url).scheme == "http"


def test_a_base_url_carrying_credentials_is_refused():
    with pytest.raises(ApiError, match="user name or password"):
        check_base_url("https://user:pass@api.example.com")


async def test_a_typed_url_on_another_origin_is_refused_and_never_contacted():
    recorder = Recorder()
    async with session_with(recorder) as session:
        with pytest.raises(ApiError) as caught:
            await session.fetch("https://evil.example/api/service/v1.0/groups")
    assert caught.value.kind == "origin"
    assert all(r.url.host == "api.example.com" for r in recorder.seen)
    assert recorder.seen == []


@pytest.mark.parametrize(
    ("typed", "why"),
    [
        ("https://[::1/x", "the [ of its IPv6 address is not closed"),
        ("https://api.example.com:abc/x", "Invalid port"),
        ("https://exa\u2100mple.com/", "Invalid IDNA hostname"),
        ("/api/\x1b[2Jx", "it holds ␛, a control character"),
        ("groups/\ud800", "it holds <U+D800>, half of a character"),
        ("https://api.example.com:99999/x", "port 99999 is not between 1 and 65535"),
    ],
)
async def test_a_typed_url_that_cannot_be_parsed_is_a_config_error_and_never_sent(typed, why):
    recorder = Recorder()
    async with session_with(recorder) as session:
        with pytest.raises(ApiError, match="is not a valid URL") as caught:
            await session.fetch(typed)
    assert caught.value.kind == "config" and why in str(caught.value)
    assert recorder.seen == []


@pytest.mark.parametrize(
    ("typed", "sent"),
    [
        ("/gröups/日本語", "/api/service/v1.0/gr%C3%B6ups/%E6%97%A5%E6%9C%AC%E8%AA%9E"),
        ("/api/gröups?name=ä b", "/api/gr%C3%B6ups?name=%C3%A4%20b"),
        ("https://api.example.com/api/😀", "/api/%F0%9F%98%80"),
        ("/groups/a%2Fb", "/api/service/v1.0/groups/a%2Fb"),  # what is percent-encoded already stays so
    ],
)
async def test_letters_past_ascii_in_a_typed_path_go_percent_encoded_as_utf8(typed, sent):
    recorder = Recorder()
    async with session_with(recorder) as session:
        resource = await session.fetch(typed)
        assert resource.status == 200 and recorder.seen[-1].url.raw_path.decode() == sent


@pytest.mark.parametrize(
    ("typed", "shown", "encoded"),
    [
        ("/日本語/\u202eabc", "'/日本語/<U+202E>abc' is not a valid URL: it holds <U+202E>, an invisible", "%E2%80%AE"),
        ("https://a.example/\u200b", "'https://a.example/<U+200B>' is not a valid URL: it holds <U+200B>", "%E2%80%8B"),
        ("/groups/a\tb", "'/groups/a␉b' is not a valid URL: it holds ␉, a control character", "%09"),
    ],
)  # fmt: skip
async def test_a_typed_path_with_a_character_nobody_sees_is_refused_in_plain_words(typed, shown, encoded):
    recorder = Recorder()
    async with session_with(recorder) as session:
        with pytest.raises(ApiError) as caught:
            await session.fetch(typed)
    said = f"{caught.value.line()}\n{caught.value.hint}"
    assert caught.value.kind == "config" and said.startswith(shown), said
    assert said.endswith(f"type it percent-encoded: {encoded}") and "codec" not in said and "\\u" not in said
    assert recorder.seen == []


async def test_every_character_nobody_sees_is_named_each_once():
    recorder = Recorder()
    async with session_with(recorder) as session:
        with pytest.raises(ApiError) as caught:
            await session.fetch("/groups/\u200ba\x1bb\u200b\x07")
    assert caught.value.line() == (
        "'/groups/<U+200B>a␛b<U+200B>␇' is not a valid URL: it holds <U+200B>, an invisible character that "
        "reorders or hides text, and ␛, a control character, and ␇, a control character"
    )
    assert caught.value.hint == (
        "If a name on the service really holds them, type them percent-encoded: "
        "<U+200B> as %E2%80%8B, ␛ as %1B, ␇ as %07"
    )
    assert recorder.seen == []


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("https://[::1/x", "'https://[::1/x' is not a valid URL: the [ of its IPv6 address is not closed (such "),
        ("https://::1]/x", "'https://::1]/x' is not a valid URL: the ] of its IPv6 address has no [ before it (such "),
    ],
)
async def test_a_bracket_of_an_ipv6_address_left_open_is_named(typed, said):
    async with session_with(Recorder()) as session:
        with pytest.raises(ApiError) as caught:
            await session.fetch(typed)
    assert caught.value.line() == said + "as https://[::1]:8443/)"


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("https://other.example/x", "other.example is not api.example"),
        ("https://api.example.com:8443/x", "https://api.example.com:8443 is not https://api.example.com:443"),
    ],
)
async def test_a_refusal_of_another_origin_names_what_differs(typed, said):
    async with session_with(Recorder()) as session:
        with pytest.raises(ApiError) as caught:
            await session.fetch(typed)
    assert caught.value.kind == "origin" and str(caught.value).startswith(said), str(caught.value)


@pytest.mark.parametrize("foreign", ["https://api.example.com:8443/x", "https://evil.example/x", "http://127.0.0.1/x"])
async def test_a_next_link_on_another_origin_is_not_sent_the_token(foreign):
    recorder = Recorder(next_href=foreign)
    async with session_with(recorder) as session:
        page = (await session.fetch("/groups")).page
        with pytest.raises(ApiError) as caught:
            await session.fetch(page.next_href)
    assert caught.value.kind == "origin"
    assert [str(r.url) for r in recorder.seen if r.url.host != "api.example.com" or r.url.port] == []


async def test_another_origin_can_be_fetched_anonymously_and_is_marked():
    recorder = Recorder()
    async with session_with(recorder) as session:
        await session.fetch("/groups")
        resource = await session.fetch("https://other.example/public", anonymous=True)
    assert resource.foreign
    [foreign_request] = [r for r in recorder.seen if r.url.host == "other.example"]
    assert "authorization" not in foreign_request.headers


async def test_plain_http_is_refused_even_for_an_anonymous_fetch():
    async with session_with(Recorder()) as session:
        with pytest.raises(ApiError) as caught:
            await session.fetch("http://other.example/x", anonymous=True)
    assert caught.value.kind == "insecure"


async def test_secrets_and_tokens_never_show(caplog):
    caplog.set_level(logging.DEBUG)
    recorder = Recorder()
    async with session_with(recorder) as session:
        resource = await session.fetch("/groups")
        shown = [
            repr(session),
            repr(session.credentials),
            str(session.credentials),
            repr(session.auth),
            repr(session.token_state),
            repr(resource),
            json.dumps(resource.request_headers),
            repr(list(session.log)),
        ]
    assert dict(resource.request_headers)["authorization"] == "Bearer ***"
    sent = [r for r in recorder.seen if r.url.path.endswith("/groups")]
    assert sent[0].headers["authorization"] == f"Bearer {TOKEN}"  # it was sent, just never shown
    everything = "\n".join(shown) + "\n".join(record.getMessage() for record in caplog.records)
    assert SECRET not in everything and TOKEN not in everything


def test_a_secret_refuses_to_be_shown_or_pickled():
    import pickle

    secret = Secret(SECRET)
    assert f"{secret}" == "***" and repr(secret) == "Secret('***')"
    with pytest.raises(TypeError):
        pickle.dumps(secret)


async def test_an_error_from_the_token_endpoint_shows_no_secret():
    def refuse(request: httpx.Request) -> httpx.Response:
        return httpx.Response(
            401, json={"error": "invalid_client", "error_description": "Invalid credentials provided."}
        )

    credentials = Credentials(BASE, client_id="client", client_secret=Secret(SECRET))
    async with Session(credentials, transport=httpx.MockTransport(refuse)) as session:
        with pytest.raises(ApiError) as caught:
            await session.fetch("/groups")
    text = caught.value.full() + repr(caught.value)
    assert SECRET not in text and "Basic" not in text
