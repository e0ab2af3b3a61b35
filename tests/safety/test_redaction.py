"""A HAR file holds no token and no secret, whatever the Content-Type says and however a body spells them.

Redaction judges a body by what it holds: JSON or a form is redacted by field name (JSON escapes
undone, case folded), and the credentials themselves (the client secret, every token) are masked
wherever they appear. Each test looks at the bytes written, every spelling of every secret: as it
is, JSON-escaped, percent-encoded, and in every text the file holds once decoded (a body's JSON
read again, a URL's escapes undone).
"""

from __future__ import annotations

import base64
import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote, quote_plus, unquote_plus

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st

from explorer.api.config import Credentials
from explorer.api.errors import ApiError
from explorer.api.har import REDACTED, HarRecorder, Recent, archive
from explorer.api.secret import Secret
from explorer.api.session import Session
from tests.safety.recording_server import Behaviour

ORIGIN = "https://service.example"
ROOT = ORIGIN + "/api/service/v1.0"
CLIENT_ID = "mdb_sa_id_6a1f"
CLIENT_SECRET = "mdb_sa_sk_Q9x#Zr41vT"  # a '#': what Hypothesis draws never holds one (ALPHABET)
TOKEN = "eyJhbGciOi.tok#Ks8Pq2.sig"
PASSWORD = "pw#hunter2-Vq81"  # a database user's: known to nobody but the body that holds it
BASE64 = re.compile(r"[A-Za-z0-9+/]+=*")
LABELS = [
    "application/json",
    "Application/JSON",
    "application/vnd.atlas.2024-08-05+json",
    "text/plain",
    "application/octet-stream",
    None,
    "application/x-www-form-urlencoded",
    "APPLICATION/X-WWW-FORM-URLENCODED; charset=utf-8",
]


def escaped(text: str) -> str:
    """Every character as a JSON \\u escape (surrogate pairs past the first plane)."""
    units = text.encode("utf-16-be")
    return "".join(f"\\u{int.from_bytes(units[i : i + 2], 'big'):04x}" for i in range(0, len(units), 2))


def spellings(secret: str) -> set[str]:
    """The ways a secret may be written in a file's bytes: as it is, JSON-escaped (wholly, or as
    json writes it), percent-encoded, and each of those escaped once more (a body in a HAR text)."""
    once = {secret, json.dumps(secret)[1:-1], escaped(secret), quote(secret, safe=""), quote_plus(secret)}
    return once | {json.dumps(form)[1:-1] for form in once}


def texts(value: Any) -> Iterator[str]:
    """Every text a document holds, keys too, read as a reader reads it: a text that is JSON read
    again, a URL's or form's escapes undone."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from texts(key)
            yield from texts(item)
    elif isinstance(value, list):
        for item in value:
            yield from texts(item)
    elif isinstance(value, str):
        yield value
        yield unquote_plus(value)
        if BASE64.fullmatch(value) and len(value) % 4 == 0:  # a body that is not UTF-8
            yield base64.b64decode(value).decode("latin-1")
        try:
            inner = json.loads(value)
        except ValueError:
            return
        if not isinstance(inner, str):
            yield from texts(inner)
    elif value is not None:
        yield str(value)


def assert_nowhere(written: bytes, *secrets: str) -> None:
    """No spelling of any secret in the bytes, nor in any text they hold once decoded."""
    for secret in secrets:
        for form in spellings(secret):
            assert form.encode() not in written, f"{secret!r} is in the file as {form!r}"
    held = list(texts(json.loads(written)))
    for secret in secrets:
        assert not [text for text in held if secret in text], f"{secret!r} is in the file, decoded"


def exchange(
    method: str,
    url: str,
    *,
    sent: bytes = b"",
    label: str | None = None,
    headers: dict[str, str] | None = None,
    status: int = 200,
    answer: bytes = b"",
    answer_headers: dict[str, str] | None = None,
) -> httpx.Response:
    """One exchange as the session's hook sees it: both bodies labelled `label` (None: unlabelled)."""
    labelled = {"Content-Type": label} if label else {}
    request = httpx.Request(method, url, headers={**(headers or {}), **(labelled if sent else {})}, content=sent)
    return httpx.Response(status, headers={**labelled, **(answer_headers or {})}, content=answer, request=request)


def token_answer() -> dict[str, Any]:
    """The token endpoint's answer; its `scope` says the token again (as a careless service may)."""
    return {"access_token": TOKEN, "token_type": "Bearer", "expires_in": 3600, "scope": f"issued {TOKEN}"}


BASIC = "Basic " + base64.b64encode(f"{CLIENT_ID}:{CLIENT_SECRET}".encode()).decode()
BEARER = {"Authorization": f"Bearer {TOKEN}"}
# What a service and its caller may send: each body holds a secret by a field's name, spelled as a
# reader reads it (escapes, case, separators; nested, in a list), or holds the token itself.
BODIES = [
    b'{"pass\\u0077ord": "' + PASSWORD.encode() + b'"}',
    b'{"\\u0061ccess_token": "' + TOKEN.encode() + b'", "token_type": "Bearer"}',
    b'{"user": {"roles": [{"db": "admin"}], "PASS_WORD": "' + PASSWORD.encode() + b'"}}',
    b'[{"id": 1}, {"id": 2, "credentials": {"Bind-Password": "' + PASSWORD.encode() + b'"}}]',
    b'{"password": ["' + PASSWORD.encode() + b'"]}',
    # a password's near kin, by names that hold the word anywhere or spell it short
    b"{"
    + b", ".join(
        b'"%s": "%s"' % (name, PASSWORD.encode())
        for name in (b"passwordConfirm", b"password2", b"password_confirmation", b"passwd", b"pwd", b"passwordHash")
    )
    + b"}",
    b'{"note": "the token is ' + TOKEN.encode() + b'", "' + TOKEN.encode() + b'": 1}',
    ('{"note": "' + escaped(TOKEN) + '", "also": "' + escaped(CLIENT_SECRET) + '"}').encode(),
    b"pass%77ord=" + quote_plus(PASSWORD).encode() + b"&name=lesson",
    b"token=" + quote_plus(TOKEN).encode() + b"&token_type_hint=access_token",
    b"grant_type=client_credentials&client_secret=" + quote_plus(CLIENT_SECRET).encode(),
    b"Token " + TOKEN.encode() + b" accepted for " + CLIENT_SECRET.encode(),
    b'{"password": "' + PASSWORD.encode() + b'", "cut off here',
    b"\xff\xfe " + TOKEN.encode() + b" \xff",  # not UTF-8: written as base64, the token in it all the same
]


def session_exchanges(label: str | None) -> list[httpx.Response]:
    """A session's traffic, every body labelled `label`: the token endpoint, reads and writes that
    carry secrets in their bodies, URLs, headers and cookies, and the revoke."""
    out = [
        exchange(
            "POST",
            ORIGIN + "/api/oauth/token",
            sent=b"grant_type=client_credentials",
            label=label,
            headers={"Authorization": BASIC},
            answer=json.dumps(token_answer()).encode(),
        )
    ]
    for body in BODIES:
        out.append(exchange("GET", ROOT + "/groups/1", label=label, headers=BEARER, answer=body))
        out.append(exchange("PATCH", ROOT + "/groups/1", sent=body, label=label, headers=BEARER, answer=b"{}"))
    out.append(
        exchange(
            "GET",
            f"{ROOT}/echo/{quote(TOKEN, safe='')}?apiKey={quote_plus(PASSWORD)}&echo={quote_plus(CLIENT_SECRET)}",
            label=label,
            headers={**BEARER, "Cookie": f"session={TOKEN}", "X-Echo": TOKEN},
            status=302,
            answer_headers={
                "Set-Cookie": f"session={TOKEN}; HttpOnly",
                "Location": f"{ROOT}/next?access_token={quote_plus(TOKEN)}",
                "X-Token-Was": TOKEN,
            },
        )
    )
    out.append(
        exchange(
            "POST",
            ORIGIN + "/api/oauth/revoke",
            sent=f"token={quote_plus(TOKEN)}&token_type_hint=access_token".encode(),
            label=label,
            headers={"Authorization": BASIC},
            answer=b"revoked " + TOKEN.encode(),
        )
    )
    return out


def recorded(exchanges: list[httpx.Response], path: Path) -> bytes:
    """The file `--har` writes of these exchanges."""
    recorder = HarRecorder(path, ROOT)
    for response in exchanges:
        recorder.record(response, 1_700_000_000.0, 0.01)
    recorder.close()
    return path.read_bytes()


def saved(exchanges: list[httpx.Response]) -> bytes:
    """The file "save the session as HAR" writes of the session's kept exchanges."""
    recent = Recent()
    for response in exchanges:
        recent.keep(response, 1_700_000_000.0)
    return archive(ROOT, recent, lambda response: 0.01)[0]


@pytest.mark.parametrize("label", LABELS)
@pytest.mark.parametrize("path", ["recorded", "saved"])
def test_no_token_and_no_secret_reaches_the_har_file_whatever_the_content_type_says(label, path, tmp_path):
    exchanges = session_exchanges(label)
    written = recorded(exchanges, tmp_path / "session.har") if path == "recorded" else saved(exchanges)
    assert_nowhere(written, TOKEN, CLIENT_SECRET, PASSWORD)
    entries = json.loads(written)["log"]["entries"]
    assert len(entries) == 2 * len(BODIES) + 3
    token_entry = entries[0]
    assert "response/content/access_token" in token_entry["_redacted"]
    answer = json.loads(token_entry["response"]["content"]["text"])  # JSON still, whatever the label
    assert answer == {**token_answer(), "access_token": REDACTED, "scope": f"issued {REDACTED}"}
    assert entries[-1]["request"]["postData"]["text"] == "token=%5Bredacted+by+explorer%5D&token_type_hint=access_token"


async def test_the_token_endpoint_answering_text_plain_over_a_socket_leaves_no_token_in_the_file(server, tmp_path):
    token = "tok#socket-7Hq2Lm9"
    server.script(
        "POST",
        "/api/oauth/token",
        Behaviour(
            200, {"Content-Type": "text/plain"}, {"access_token": token, "token_type": "Bearer", "expires_in": 3600}
        ),
    )
    har = tmp_path / "session.har"
    credentials = Credentials(base_url=server.url, client_id=CLIENT_ID, client_secret=Secret(CLIENT_SECRET))
    session = Session(credentials)
    session.recorder = HarRecorder(har, str(session.base_url))
    assert (await session.fetch("/groups/1")).status == 200
    await session.aclose()  # revokes: the token goes in the revoke form
    revokes = server.arrivals_of("POST", "/api/oauth/revoke")
    assert len(revokes) == 1 and quote_plus(token).encode() in revokes[0].body  # the token was sent, and recorded
    written = har.read_bytes()
    entries = json.loads(written)["log"]["entries"]
    assert [entry["request"]["url"].removeprefix(server.origin) for entry in entries] == [
        "/api/oauth/token",
        "/api/service/v1.0/groups/1",
        "/api/oauth/revoke",
    ]
    assert_nowhere(written, token, CLIENT_SECRET)


# Property: a JSON document of any shape, the token and a password planted anywhere, spelled anyhow.

ALPHABET = st.characters(blacklist_characters="#", blacklist_categories=("Cs",))
SECRET_NAMES = ["password", "clientSecret", "access_token", "apiKey", "privateKey", "bindPassword", "token"]
scalars = st.none() | st.booleans() | st.integers() | st.text(ALPHABET, max_size=12)
documents = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(ALPHABET, max_size=8), inner, max_size=4),
    max_leaves=12,
)


def spelt(name: str, chance: random.Random) -> str:
    """A secret's field name as a reader still reads it: its letters in any case, `_`, `-` or a space between."""
    out = []
    for letter in name:
        out.append(letter.upper() if chance.random() < 0.5 else letter.lower())
        if chance.random() < 0.2:
            out.append(chance.choice("_- "))
    return "".join(out)


def planted(document: Any, chance: random.Random) -> Any:
    """The document with the token and the password put in at a place `chance` picks: the token as a
    value, within one, or as a key; the password under a secret's name."""
    where = chance.randrange(3)
    value: Any = TOKEN if where == 0 else f"before {TOKEN} after" if where == 1 else {TOKEN: "its value"}
    planting = {spelt(chance.choice(SECRET_NAMES), chance): PASSWORD, "here": value}
    if isinstance(document, dict) and chance.random() < 0.5:
        return {**document, **planting}
    if isinstance(document, list) and document:
        index = chance.randrange(len(document))
        return [*document[:index], planted(document[index], chance), *document[index + 1 :]]
    return [document, planting] if chance.random() < 0.5 else {"data": document, "nested": [planting]}


def written_json(value: Any, chance: random.Random) -> str:
    """JSON as a server may write it: any character of any text, keys too, as a \\u escape or not."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{written_json(k, chance)}: {written_json(v, chance)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(written_json(item, chance) for item in value) + "]"
    if isinstance(value, str):
        odds = chance.random()
        return '"' + "".join(escaped(c) if chance.random() < odds else json.dumps(c)[1:-1] for c in value) + '"'
    return json.dumps(value)


@given(documents, st.randoms(use_true_random=False), st.sampled_from(LABELS))
def test_a_secret_planted_anywhere_in_any_json_is_never_written(document, chance, label):
    body = written_json(planted(document, chance), chance).encode()
    assert json.loads(body) is not None  # what was planted is JSON, as the service may send it
    exchanges = session_exchanges(label)[:1]  # the token endpoint's answer: the token is known after it
    exchanges.append(exchange("GET", ROOT + "/anything", label=label, headers=BEARER, answer=body))
    exchanges.append(exchange("PUT", ROOT + "/anything", sent=body, label=label, headers=BEARER, answer=b"{}"))
    assert_nowhere(saved(exchanges), TOKEN, CLIENT_SECRET, PASSWORD)


async def test_a_private_key_the_service_says_back_is_in_neither_har_file(digest_server, tmp_path):
    private_key = "pk#b7c1e9d0-44aa-4f3e-9a8b-2d6f1c0e7a55"  # never sent: Digest sends a hash of it
    digest_server.script(
        "GET", "/groups/1", Behaviour(200, {"Content-Type": "text/plain"}, f"key: {private_key}".encode())
    )
    har = tmp_path / "session.har"
    credentials = Credentials(base_url=digest_server.url, public_key="pub_6a1f", private_key=Secret(private_key))
    session = Session(credentials)
    session.recorder = HarRecorder(har, str(session.base_url))
    assert (await session.fetch("/groups/1")).status == 200
    saved_file = archive(str(session.base_url), session.recent, lambda response: 0.01)[0]
    await session.aclose()
    for written in (har.read_bytes(), saved_file):
        assert b"key: [redacted by explorer]" in written
        assert_nowhere(written, private_key)


# A token endpoint, or any answer, in UTF-16 or UTF-32: json.loads reads those too, so a reader of
# the file would. The token endpoint's is refused (JSON between systems is UTF-8: RFC 8259 8.1);
# any other body is read as json.loads reads it, and the credentials are looked for in every encoding.

WIDE = ["utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le"]
CODECS = ["utf-8", "utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"]


def assert_in_no_encoding(written: bytes, *secrets: str) -> None:
    """assert_nowhere, and no secret in any body the file holds, in any encoding: its `text` (or
    the bytes its base64 stands for) in each of CODECS, and with its NULs taken out."""
    assert_nowhere(written, *secrets)
    for entry in json.loads(written)["log"]["entries"]:
        for content in (entry["response"]["content"], entry["request"].get("postData", {})):
            text = content.get("text", "")
            data = base64.b64decode(text) if content.get("encoding") == "base64" else text.encode()
            for secret in secrets:
                for codec in CODECS:
                    assert secret.encode(codec) not in data, f"{secret!r} is in a body, in {codec}"
                assert secret.encode() not in data.replace(b"\0", b""), f"{secret!r} is in a body, NULs between"


@pytest.mark.parametrize("encoding", WIDE)
async def test_a_token_endpoint_answering_in_utf_16_or_32_is_refused_and_its_token_never_used(
    encoding, server, tmp_path
):
    token = "tok#wide-9Qe4Rt7Yu1"
    answer = json.dumps({"access_token": token, "token_type": "Bearer", "expires_in": 3600}).encode(encoding)
    server.script("POST", "/api/oauth/token", Behaviour(200, {"Content-Type": "application/json"}, answer))
    har = tmp_path / "session.har"
    credentials = Credentials(base_url=server.url, client_id=CLIENT_ID, client_secret=Secret(CLIENT_SECRET))
    session = Session(credentials)
    session.recorder = HarRecorder(har, str(session.base_url))
    with pytest.raises(ApiError) as refused:
        await session.fetch("/groups/1")
    saved_file = archive(str(session.base_url), session.recent, lambda response: 0.01)[0]
    await session.aclose()
    assert refused.value.kind == "token"
    assert refused.value.summary == "The token endpoint's answer cannot be used: it is not UTF-8 JSON"
    assert [(a.method, a.path) for a in server.arrivals] == [("POST", "/api/oauth/token")]  # no request, no revoke
    for written in (har.read_bytes(), saved_file):
        assert_in_no_encoding(written, token, CLIENT_SECRET)


def wide_bodies(encoding: str) -> list[bytes]:
    """Answers in `encoding` holding the token (known from the token endpoint's answer) and a
    password: JSON (the password by its field's name), and text (the token as it is)."""
    document = {"note": f"the token is {TOKEN}", "bindPassword": PASSWORD, "password": [PASSWORD]}
    return [
        json.dumps(document).encode(encoding),
        json.dumps(document, indent=2, ensure_ascii=False).encode(encoding),
        f"Token {TOKEN} accepted".encode(encoding),
        f"\u201cToken {TOKEN}\u201d, said the service".encode(encoding),  # not read as UTF-16: no NUL up front
    ]


@pytest.mark.parametrize("encoding", [*WIDE, "utf-32-be", "utf-8-sig"])
@pytest.mark.parametrize("path", ["recorded", "saved"])
def test_an_answer_in_utf_16_or_32_leaves_neither_the_token_nor_a_password_in_the_har_file(encoding, path, tmp_path):
    exchanges = session_exchanges("application/json")[:1]  # the token endpoint's, in UTF-8: the token is known
    for body in wide_bodies(encoding):
        for label in ("application/json", f"text/plain; charset={encoding}"):
            exchanges.append(exchange("GET", ROOT + "/groups/1", label=label, headers=BEARER, answer=body))
    written = recorded(exchanges, tmp_path / "session.har") if path == "recorded" else saved(exchanges)
    assert_in_no_encoding(written, TOKEN, CLIENT_SECRET, PASSWORD)
    entries = json.loads(written)["log"]["entries"]
    json_answer = json.loads(entries[1]["response"]["content"]["text"])  # written as its text, redacted
    assert json_answer == {"note": f"the token is {REDACTED}", "bindPassword": REDACTED, "password": REDACTED}
    assert "response/content/bindPassword" in entries[1]["_redacted"]


# A name given twice: a JSON reader keeps the last, so each field of the name is looked at, and the
# body is written again (never as it came, the first one's secret in it).

DUPLICATED = [
    b'{"name": "db-user", "password": "' + PASSWORD.encode() + b'", "password": null}',
    b'{"password": "' + PASSWORD.encode() + b'", "password": "' + PASSWORD.encode() + b'2"}',
    b'{"user": {"name": "a", "bindPassword": "' + PASSWORD.encode() + b'", "bindPassword": ""}}',
    b'[{"id": 1}, {"clientSecret": "' + PASSWORD.encode() + b'", "clientSecret": false}]',
    b"password=" + quote_plus(PASSWORD).encode() + b"&password=",
]


@pytest.mark.parametrize("body", DUPLICATED)
@pytest.mark.parametrize("path", ["recorded", "saved"])
def test_a_secret_in_a_field_whose_name_is_given_twice_is_never_written(body, path, tmp_path):
    exchanges = [
        exchange("GET", ROOT + "/groups/1", label="application/json", answer=body),
        exchange("POST", ROOT + "/groups/1/databaseUsers", sent=body, label="application/json", answer=b"{}"),
    ]
    written = recorded(exchanges, tmp_path / "session.har") if path == "recorded" else saved(exchanges)
    assert_nowhere(written, PASSWORD)
    entries = json.loads(written)["log"]["entries"]
    assert entries[0]["_redacted"] and entries[1]["_redacted"]


def test_every_field_of_a_name_given_twice_is_written_back_in_its_order():
    body = b'{"name": "db-user", "password": "' + PASSWORD.encode() + b'", "password": null}'
    exchanges = [exchange("POST", ROOT + "/groups/1/databaseUsers", sent=body, label="application/json")]
    entry = json.loads(saved(exchanges))["log"]["entries"][0]
    assert entry["request"]["postData"]["text"] == f'{{"name": "db-user", "password": "{REDACTED}", "password": null}}'
    assert entry["_redacted"] == ["request/postData/password"]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"apiKey": {"value": PASSWORD, "id": "k1"}}, "apiKey"),
        ({"password": [PASSWORD]}, "password"),
        ({"credentials": [{"user": "a", "pw": PASSWORD}]}, "credentials"),
    ],
)
def test_a_secret_named_field_holding_an_object_or_a_list_is_taken_out_whole(body, field):
    exchanges = [exchange("GET", ROOT + "/groups/1", label="application/json", answer=json.dumps(body).encode())]
    written = saved(exchanges)
    assert_nowhere(written, PASSWORD)
    entry = json.loads(written)["log"]["entries"][0]
    assert json.loads(entry["response"]["content"]["text"]) == {field: REDACTED}
    assert entry["_redacted"] == [f"response/content/{field}"]


# A body that is not UTF-8 (Latin-1, a stray byte): read byte for byte, redacted by name, and written
# back in its own bytes (base64 in the file), the token endpoint's token learnt from it all the same.

NOT_UTF_8_KEY = "PRIV-KEY-abcdef-0123"
NOT_UTF_8_TOKEN = "TOKEN-zzzzzz-1"


def body_bytes(entry: dict[str, Any], part: str) -> bytes:
    """A body as the file holds it: an answer's `text`, base64-decoded when so encoded; a request's
    that is not UTF-8 is base64 too (postData has no `encoding` to say so)."""
    if part == "request":
        return base64.b64decode(entry["request"]["postData"]["text"])
    content = entry["response"]["content"]
    return base64.b64decode(content["text"]) if content.get("encoding") == "base64" else content["text"].encode()


@pytest.mark.parametrize("path", ["recorded", "saved"])
def test_a_body_that_is_not_utf_8_keeps_no_password_private_key_nor_token(path, tmp_path):
    key_answer = '{"name":"café","privateKey":"' + NOT_UTF_8_KEY + '"}'
    token_answer = '{"access_token":"' + NOT_UTF_8_TOKEN + '","token_type":"Bearer","expires_in":3600,"scope":"\xe9"}'
    password_body = b'{"password":"' + PASSWORD.encode() + b'","x":"\xff"}'
    exchanges = [
        exchange("POST", ORIGIN + "/api/oauth/token", sent=b"grant_type=client_credentials", label="application/json",
                 headers={"Authorization": BASIC}, answer=token_answer.encode("latin-1")),
        exchange("GET", ROOT + "/orgs/1/apiKeys/2", label="application/json", answer=key_answer.encode("latin-1")),
        exchange("PATCH", ROOT + "/groups/1", sent=password_body, label="application/json", answer=b"{}"),
        exchange("GET", ROOT + "/echo", label="text/plain", answer=b"token " + NOT_UTF_8_TOKEN.encode() + b" \xe9"),
    ]  # fmt: skip
    written = recorded(exchanges, tmp_path / "session.har") if path == "recorded" else saved(exchanges)
    assert_in_no_encoding(written, PASSWORD, NOT_UTF_8_KEY, NOT_UTF_8_TOKEN, CLIENT_SECRET)
    entries = json.loads(written)["log"]["entries"]
    assert body_bytes(entries[0], "response") == (
        b'{"access_token": "' + REDACTED.encode() + b'", "token_type": "Bearer", "expires_in": 3600, "scope": "\xe9"}'
    )  # its own bytes, the Latin-1 \xe9 as it came
    assert body_bytes(entries[1], "response") == b'{"name": "caf\xe9", "privateKey": "' + REDACTED.encode() + b'"}'
    assert body_bytes(entries[2], "request") == b'{"password": "' + REDACTED.encode() + b'", "x": "\xff"}'
    assert body_bytes(entries[3], "response") == b"token " + REDACTED.encode() + b" \xe9"  # learnt, then masked
    assert [entry["_redacted"] for entry in entries] == [
        ["request/headers/authorization", "response/content/access_token"],
        ["response/content/privateKey"],
        ["request/postData/password"],
        ["response/content"],
    ]


def test_a_wide_body_that_reads_as_no_text_and_names_a_secret_is_taken_out_whole():
    body = b"\xff\xfe" + b'{"password": "' + PASSWORD.encode() + b'"}'  # a UTF-16 mark, then UTF-8: odd bytes
    written = saved([exchange("GET", ROOT + "/groups/1", label="application/json", answer=body)])
    assert_in_no_encoding(written, PASSWORD)
    entry = json.loads(written)["log"]["entries"][0]
    assert body_bytes(entry, "response") == REDACTED.encode()
    assert entry["_redacted"] == ["response/content"]


def test_a_secret_the_person_sent_is_masked_where_the_service_says_it_back(server, tmp_path):
    """`-q access_token=…` and `-H X-Api-Key: …` were taken out where they were sent, and kept where the service
    said them back: a self or next link in the body, a Location. A third attack review found it. Now the values
    of what a person sends under a secret's name are known credentials, masked wherever they appear."""
    from tests.commands.conftest import in_process
    from tests.safety.conftest import account_environment

    query, header = "query-token-5a1e", "header-key-77b3"
    echoed = f"{server.url}/d?access_token={query}"
    server.script(
        "GET",
        "/d",
        Behaviour(200, {"Location": f"{server.url}/d?access_token={query}"}, {"seenKey": header, "next": echoed}),
    )
    recording = tmp_path / "r.har"
    arguments = ["--har", str(recording), "get", "/d", "-q", f"access_token={query}", "-H", f"X-Api-Key: {header}"]
    run = in_process(arguments, account_environment(server, tmp_path))
    assert run.code == 0, run.err
    written = recording.read_text()
    assert query not in written and header not in written
    entry = json.loads(written)["log"]["entries"][-1]
    location = next(h["value"] for h in entry["response"]["headers"] if h["name"].lower() == "location")
    assert location == f"{server.url}/d?access_token={quote(REDACTED, safe='[]')}"


def test_a_saved_har_file_and_a_saved_body_are_their_owner_s_alone(tmp_path):
    """The screen's "save as HAR" and a body's save made files others could read (0644 under umask 022),
    while --har's is 0600: what a service says of its users stays the owner's."""
    import os

    from explorer.api.har import save
    from explorer.api.local_paths import write_new

    was = os.umask(0o022)
    try:
        save(tmp_path / "s.har", b"{}")
        write_new(tmp_path / "body.json", b"{}")
    finally:
        os.umask(was)
    assert {oct((tmp_path / name).stat().st_mode & 0o777) for name in ("s.har", "body.json")} == {"0o600"}
