"""Writes in the library: read-only by default, prepared exactly, sent once, checked and undoable."""

from __future__ import annotations

import json
import shlex

import httpx
import pytest

from explorer.api.body_check import check_body
from explorer.api.changes import Change, changes, patch_changes
from explorer.api.config import Credentials
from explorer.api.errors import ApiError, ConfigError
from explorer.api.once import look_before, redirected
from explorer.api.resource import Resource
from explorer.api.secret import Secret
from explorer.api.writes import UndoBody, WritePolicy, WritesRefused, undo_body, write_policy
from explorer.display.shell_forms import as_command, as_curl, reached_by, secret_variable
from explorer.display.variables import writes_asked

ON = WritePolicy(True, "--writes")


def test_writes_are_off_unless_a_profile_or_the_flag_says_so():
    assert write_policy(None) == WritePolicy(False, "the default")
    assert write_policy(None, asked=writes_asked(True, {})) == ON
    assert write_policy(None, asked=writes_asked(False, {"EXPLORER_WRITES": "1"})).because == "EXPLORER_WRITES=1"
    assert write_policy(None, asked=writes_asked(False, {"EXPLORER_WRITES": "0"})) == WritePolicy(False, "the default")
    assert write_policy(True, profile="lab").because == "the profile 'lab' says writes = true"


def test_a_production_profile_refuses_the_flag_naming_the_profile():
    with pytest.raises(WritesRefused) as refused:
        write_policy(False, asked=writes_asked(True, {}), profile="prod")
    assert refused.value.line() == "Writes are off for the profile 'prod' (writes = false): --writes is refused"
    assert not write_policy(False, profile="prod").on


def test_a_profile_says_writes_as_true_or_false_only(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text('[profiles.p]\nbase_url = "https://h.example/api/service/v1.0"\nwrites = "yes"\n')
    with pytest.raises(ConfigError) as bad:
        Credentials.resolve(profile="p", path=config, environ={})
    assert bad.value.line() == f"In {config}, profile 'p': writes must be true or false"


async def test_a_read_only_session_sends_no_write(connect):
    async with connect() as c:
        project = c.project_id("production")
        with pytest.raises(ApiError) as refused:
            await c.session.fetch(f"/groups/{project}", method="PATCH", json={"name": "x"})
        assert refused.value.kind == "read-only"
        assert (refused.value.hint, refused.value.setting) == ("Nothing was sent.", "writes")
        assert not [e for e in c.session.log if e.method == "PATCH"]


async def test_what_is_prepared_is_what_is_sent(connect):
    async with connect(writes=ON) as c:
        project = c.project_id("production")
        outgoing = await c.session.prepare_write("PATCH", f"/groups/{project}", b'{"name": "renamed"}')
        assert outgoing.header("authorization") == "Bearer ***"
        assert outgoing.header("content-type") == "application/json"
        answer = await c.session.send_write(outgoing)
        assert answer.status == 200 and answer.json["name"] == "renamed"
        assert answer.request_headers == [(k, v) for k, v in outgoing.headers]
        assert [(e.method, e.status) for e in c.session.log if e.method == "PATCH"] == [("PATCH", 200)]


async def test_a_write_to_another_origin_is_never_prepared(connect):
    async with connect(writes=ON) as c:
        with pytest.raises(ApiError) as refused:
            await c.session.prepare_write("DELETE", "https://elsewhere.example/api/x")
        assert refused.value.kind == "origin"


def test_curl_and_command_name_every_header_and_no_secret():
    from explorer.api.writes import Outgoing

    out = Outgoing(
        "PATCH",
        "https://h.example/api/service/v1.0/groups/1",
        (("accept", "application/vnd.service.2023-01-01+json"), ("content-type", "application/json"),
         ("authorization", "Bearer ***")),
        b'{"name": "it\'s"}',
    )  # fmt: skip
    assert as_curl(out) == (
        "curl -X PATCH -H \"Authorization: Bearer $TOKEN\" -H 'Accept: application/vnd.service.2023-01-01+json' "
        "-H 'Content-Type: application/json' --data-raw '{\"name\": \"it'\"'\"'s\"}' "
        "https://h.example/api/service/v1.0/groups/1"
    )
    assert as_command(out, "https://h.example/api/service/v1.0") == (
        "explorer patch /groups/1 -H 'Accept: application/vnd.service.2023-01-01+json' "
        '--data \'{"name": "it\'"\'"\'s"}\' --writes'
    )


@pytest.mark.parametrize(
    ("authorization", "credentials"),
    [
        (("authorization", "Digest ***"), '--digest -u "$PUBLIC_KEY:$PRIVATE_KEY" '),
        (("authorization", "Bearer ***"), '-H "Authorization: Bearer $TOKEN" '),
        (None, ""),  # another origin's page: it carried none, and its copy carries none
    ],
)
def test_a_read_is_copied_with_the_credentials_it_carried_as_variables(authorization, credentials):
    from explorer.api.writes import Outgoing

    headers = (("host", "h.example"), ("accept", "application/vnd.service.2024-08-05+json"), ("x-trace", "it's"))
    out = Outgoing(
        "GET", "https://h.example/api/service/v1.0/groups?pageNum=2", headers + (authorization,) * bool(authorization)
    )
    assert as_curl(out) == (
        f"curl {credentials}-H 'Accept: application/vnd.service.2024-08-05+json' -H 'X-Trace: it'\"'\"'s' "
        "'https://h.example/api/service/v1.0/groups?pageNum=2'"
    )
    assert as_command(out, "https://h.example/api/service/v1.0") == (
        "explorer get '/groups?pageNum=2' -H 'Accept: application/vnd.service.2024-08-05+json' -H 'X-Trace: it'\"'\"'s'"
    )


def test_differences_field_by_field_with_entities_matched_by_id():
    before = {"name": "a", "tags": [{"id": 1, "v": "x"}, {"id": 2, "v": "y"}], "gone": True}
    after = {"name": "b", "tags": [{"id": 2, "v": "y"}, {"id": 1, "v": "z"}], "new": 1}
    assert [c.line() for c in changes(before, after)] == [
        '~ .name: "a" → "b"',
        '~ .tags[id=1].v: "x" → "z"',
        "- .gone: true",
        "+ .new: 1",
    ]
    assert patch_changes({"name": "a", "other": 1}, {"name": "b"}) == [Change(".name", "changed", "a", "b")]


def test_undo_puts_back_what_a_patch_changed():
    undo = undo_body({"name": "a", "size": 1}, {"name": "b", "size": 1, "extra": 2})
    assert undo == UndoBody({"name": "a"}, ["extra"])


def test_undo_of_a_put_restores_what_it_removed_where_the_patch_may_write_it_and_names_the_rest():
    before = {"id": "1", "name": "a", "comment": "old", "region": "EU", "state": "IDLE", "links": []}
    put = {"type": "object", "properties": {"name": {}, "comment": {}, "region": {}, "state": {}}}
    patch = {"type": "object", "properties": {"name": {}, "comment": {}, "state": {"readOnly": True}}}
    undo = undo_body(before, {"name": "b", "extra": 1}, method="PUT", written=put, undo=patch)
    assert undo == UndoBody({"name": "a", "comment": "old"}, added=["extra"], unrestorable=["region", "state"])
    assert undo.caveat() == (
        "This undo cannot put everything back: the PUT removed .region, .state, which a PATCH here may not write "
        "(read-only or not in its schema); the write added .extra, which a PATCH cannot remove (it only sets fields)."
    )
    whole = undo_body(before, {"name": "b"}, method="PUT")  # no schema: every field a write may send
    assert whole == UndoBody({"name": "a", "comment": "old", "region": "EU", "state": "IDLE"})
    assert whole.caveat() is None
    assert undo_body(before, {"name": "b"}, method="PATCH").body == {"name": "a"}  # a PATCH removed nothing


def test_a_body_is_checked_against_json_then_its_schema_with_lines():
    assert check_body('{\n  "name": \n}')[0].text() == (
        "line 3: not JSON: expected a value (a string, number, object, array, true, false or null) (column 1)"
    )
    schema = {
        "type": "object",
        "required": ["name"],
        "additionalProperties": False,
        "properties": {"name": {"type": "string"}, "size": {"type": "integer"}},
    }
    problems = check_body(json.dumps({"size": "big", "colour": 1}, indent=2), schema)
    assert [p.text() for p in problems] == [
        "line 1: the body: name is missing, and it is required",
        "line 3: the body: colour is not among its fields",
        "line 2: .size: must be an integer, not a string",
    ]
    assert [p.field for p in problems] == ["name", "colour", "size"]


def test_a_schema_problem_is_said_in_a_few_words_on_the_line_of_its_item():
    entries = {
        "type": "array",
        "items": {
            "type": "object",
            "additionalProperties": False,
            "properties": {"ipAddress": {"type": "string"}, "comment": {"type": "string", "maxLength": 80}},
            "oneOf": [{"required": ["cidrBlock"]}, {"required": ["ipAddress"]}],
        },
    }
    body = [{"ipAddress": "10.0.0.1", "comment": "A" * 3000}, {"comment": "no address", "bogus": True}]
    assert [p.text() for p in check_body(json.dumps(body, indent=2), entries)] == [
        "line 4: .[0].comment: 3,000 characters: at most 80 are allowed",
        "line 8: .[1]: bogus is not among its fields",
        "line 6: .[1]: matches none of the 2 forms it may take; the closest: cidrBlock is missing, and it is required",
    ]
    short = {"type": "string", "minLength": 3}
    assert [p.message for p in check_body('"x"', short)] == ["the body: 1 character: at least 3 are allowed"]
    pattern = {"type": "string", "pattern": "^[a-z]+$", "enum": ["a", "b"]}
    assert [p.message for p in check_body('"\u202eX"', pattern)] == [
        'the body: has a character or a form its pattern does not allow ("^[a-z]+$")',
        'the body: must be one of "a", "b"',
    ]


def test_a_put_removes_only_what_a_write_may_send_and_a_delete_asks_for_the_name():
    from explorer.api.writes import delete_name, write_changes

    entity = {"id": "1", "name": "a", "comment": "old", "links": [], "created": "2025-01-01T00:00:00Z"}
    assert [c.line() for c in write_changes("PUT", entity, {"name": "b"})] == [
        '~ .name: "a" → "b"',
        '- .comment: "old"',
    ]
    assert [c.line() for c in write_changes("PATCH", entity, {"name": "b"})] == ['~ .name: "a" → "b"']
    assert delete_name(entity, "https://h.example/api/x/groups/1") == "a"
    assert delete_name(None, "https://h.example/api/x/accessList/10.0.0.0%2F8") == "10.0.0.0/8"


async def test_a_recorded_real_refusal_of_a_write_comes_back_as_its_error_document():
    from pathlib import Path

    from explorer.connection import replaying

    archive = (
        "/api/atlas/v2/groups/6a793f532c88faeba59ba0df/clusters/onlineArchives-734/onlineArchives/"
        "6a79450d2c88faeba59d4082"
    )
    async with replaying(Path(__file__).parent.parent / "fixtures" / "real-responses", writes=ON) as session:
        answer = await session.send_write(await session.prepare_write("PATCH", archive, b'{"paused": true}'))
    assert answer.status == 400
    assert answer.error is not None
    assert answer.error.line() == (
        "400 Bad Request · ONLINE_ARCHIVE_CANNOT_MODIFY_FIELD: The request contained modifications to immutable fields."
    )


def test_fields_a_schema_wants_or_refuses_are_named_in_plain_words():
    schema = {
        "type": "object",
        "additionalProperties": False,
        "properties": {"name": {}, "region": {}, "provider": {}},
        "dependentRequired": {"region": ["provider"]},
    }
    problems = check_body(json.dumps({"name": "a", "region": "EU", "x": 1, "y": 2}), schema)
    assert [p.message for p in problems] == [
        "the body: x, y are not among its fields",
        "the body: region needs provider beside it",
    ]


@pytest.mark.parametrize(
    ("overrides", "flags"),
    [
        ({"profile": "lab"}, "--profile lab"),
        ({}, "--base-url https://h.example/api/service/v1.0 --client-id a"),
        ({"ca_bundle": "CA"}, "--base-url https://h.example/api/service/v1.0 --client-id a --ca-bundle 'CA'"),
        ({"client_id": None, "public_key": "pub", "private_key": Secret("pk")},
         "--base-url https://h.example/api/service/v1.0 --public-key pub"),
    ],
)  # fmt: skip
def test_a_copied_command_names_how_a_shell_reaches_the_same_service(tmp_path, overrides, flags):
    """Who the session is (a client ID or public key), never the secret, which the command reads
    from the environment; a profile's command says only the profile."""
    from explorer.api.config import Credentials
    from explorer.api.secret import Secret
    from explorer.api.session import Session
    from explorer.api.writes import Outgoing
    from explorer.sandbox.tls import server_files

    base_url = "https://h.example/api/service/v1.0"
    if "ca_bundle" in overrides:  # a real authority, in a folder whose name a shell must quote
        overrides = {"ca_bundle": str(server_files(tmp_path / "my ca", ["localhost"]).ca)}
        flags = flags.replace("CA", overrides["ca_bundle"])
    credentials = Credentials(base_url, **{"client_id": "a", "client_secret": Secret("b"), **overrides})
    session = Session(credentials)
    out = Outgoing("GET", base_url + "/orgs", (("accept", "application/json"),))
    assert as_command(out, base_url, reached_by(session)) == f"explorer get /orgs {flags} -H 'Accept: application/json'"
    secret = {"profile": None, "client_id": "EXPLORER_CLIENT_SECRET", "public_key": "EXPLORER_PRIVATE_KEY"}
    kind = next((name for name in ("profile", "public_key") if name in overrides), "client_id")
    assert secret_variable(reached_by(session)) == secret[kind]
    assert "b" not in shlex.split(as_command(out, base_url, reached_by(session)))


def test_the_api_root_is_copied_as_a_path_and_curl_trusts_the_sessions_authority():
    from explorer.api.writes import Outgoing

    base_url = "https://127.0.0.1:18443/api/service/v1.0"
    out = Outgoing("GET", base_url, (("accept", "application/json"), ("authorization", "Bearer ***")))
    assert as_command(out, base_url, ("--base-url", base_url)) == (
        f"explorer get / --base-url {base_url} -H 'Accept: application/json'"
    )
    assert as_curl(out, "/tmp/my ca/sandbox-ca.pem") == (
        "curl --cacert '/tmp/my ca/sandbox-ca.pem' -H \"Authorization: Bearer $TOKEN\" "
        f"-H 'Accept: application/json' {base_url}"
    )


def answer(method: str, status: int, location: str | None) -> Resource:
    headers = httpx.Headers([(b"Location", location.encode())] if location is not None else [])  # as received
    url = "https://service.invalid/api/service/v1.0/groups"
    return Resource(
        method=method, url=url, status=status, headers=headers, request_headers=[], body=b"", elapsed=0.1, received_at=0
    )


def test_a_redirect_to_a_write_is_said_with_its_location_visible_and_never_followed():
    assert redirected(answer("POST", 308, "https://elsewhere.invalid/a\u202eb")) == (
        "308 Permanent Redirect: the service points this write to https://elsewhere.invalid/a<U+202E>b, and says "
        "it did not take it here. The redirect was not followed: nothing was sent there."
    )
    assert redirected(answer("DELETE", 303, None)) == (
        "303 See Other: the service points this write elsewhere, naming no place, and whether it took it here, "
        "only reading the resource tells. The redirect was not followed: nothing was sent there."
    )
    assert redirected(answer("GET", 307, "https://elsewhere.invalid/")) is None  # a read's is the reader's
    assert redirected(answer("POST", 201, "https://service.invalid/x")) is None


def test_a_write_that_may_have_been_done_says_how_to_look_by_its_method():
    assert look_before("POST", "explorer get /groups") == (
        "Look before sending it again, or it may be done twice: explorer get /groups lists what is there, with "
        "what it made if it was done."
    )
    assert look_before("DELETE", "GET U").endswith("GET U answers 404 if it was done.")
    assert look_before("PATCH", "GET U").endswith("GET U shows whether it holds what was sent.")
