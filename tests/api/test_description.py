"""The API description: indexed from JSON or YAML, cached by content, and used for versions and paths.

The fixture (tests/fixtures/openapi/real-shape.json) is hand-made in the shape of the real
service's description: full paths under /api/atlas/v2, `$ref` parameters, one versioned media
type per version with `x-xgen-version` and `x-sunset`, `x-rolesRequirements`, a deprecated operation.
"""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest
import yaml

from explorer.api import description
from explorer.api.body_check import check_body
from explorer.api.config import Credentials
from explorer.api.description import DescriptionError, from_bytes
from explorer.api.options import Caches
from explorer.api.secret import Secret
from explorer.api.session import Session
from explorer.demo import demo_session
from tests.conftest import REAL_RESPONSES, ROOT
from tests.versioned_service import VersionedService

FIXTURE = ROOT / "tests" / "fixtures" / "openapi" / "real-shape.json"
V2 = "/api/atlas/v2"
PROJECT = V2 + "/groups/6a793f362c88faeba59b8a26"


@pytest.fixture(scope="module")
def real_shape() -> description.Description:
    return from_bytes(str(FIXTURE), FIXTURE.read_bytes(), None)


def test_the_root_shows_the_documented_top_level_collections(real_shape):
    names = [child.name for child in real_shape.children(V2)]
    # /groups/{groupId} and /federationSettings/{id}/… need a value the root does not give.
    assert names == ["alertConfigs/matchers/fieldNames", "clusters", "groups", "orgs"]
    assert real_shape.children(V2)[2].path == V2 + "/groups"


def test_a_projects_children_are_bound_to_its_id(real_shape):
    children = real_shape.children(PROJECT)
    assert [child.name for child in children] == [
        "accessList", "alertConfigs", "auditLog", "clusters", "databaseUsers", "events", "flexClusters", "invites",
        "maintenanceWindow", "processes", "settings", "streams", "teams", "users", "userSecurity",
    ]  # fmt: skip
    assert children[3].path == PROJECT + "/clusters"
    assert children[3].template == V2 + "/groups/{groupId}/clusters"


def test_a_list_offers_its_items_template_and_its_literal_branches(real_shape):
    clusters = PROJECT + "/clusters"
    assert [child.name for child in real_shape.children(clusters)] == ["provider/regions"]
    assert real_shape.item_template(clusters) == V2 + "/groups/{groupId}/clusters/{clusterName}"
    cluster = [child.name for child in real_shape.children(clusters + "/ldap-954")]
    assert cluster == [
        "autoScalingConfiguration", "backup/restoreJobs", "backup/schedule", "backup/snapshots", "onlineArchives",
        "processArgs", "search/deployment",
    ]  # fmt: skip


def test_a_literal_segment_is_matched_before_a_variable(real_shape):
    regions = real_shape.match(PROJECT + "/clusters/provider/regions")
    assert regions.template == V2 + "/groups/{groupId}/clusters/provider/regions"
    cluster = real_shape.match(PROJECT + "/clusters/provider")  # a cluster named "provider"
    assert cluster.template == V2 + "/groups/{groupId}/clusters/{clusterName}"
    assert cluster.values == {"groupId": "6a793f362c88faeba59b8a26", "clusterName": "provider"}
    # Percent-encoded segments and a query string match as the path they name.
    assert real_shape.match(PROJECT + "/accessList/10.0.0.0%2F8?pretty=true").values["entryValue"] == "10.0.0.0/8"


def test_a_path_the_description_does_not_know_is_told(real_shape):
    assert not real_shape.knows(PROJECT + "/whitelist")  # the real project's legacy link
    assert real_shape.knows(PROJECT + "/clusters")
    assert real_shape.operation(PROJECT + "/whitelist") is None
    assert real_shape.children(PROJECT + "/whitelist") == []


def test_an_operation_has_its_summary_versions_roles_and_sunsets(real_shape):
    clusters = real_shape.operation(PROJECT + "/clusters")
    assert clusters.operation_id == "listClusters"
    assert clusters.summary == "Return All Clusters in One Project"
    assert clusters.versions == ("2023-01-01", "2023-02-01", "2024-08-05")
    assert clusters.sunsets == {"2023-01-01": "2026-11-30", "2023-02-01": "2026-11-30"}
    assert clusters.newest_version == "2024-08-05"
    assert clusters.roles == ("Project Read Only",)
    index = real_shape.operation(PROJECT + "/clusters/c/fts/indexes/i1")
    assert (index.deprecated, index.sunset) == (True, "2026-11-30")
    assert real_shape.operation(PROJECT, "DELETE").roles == ("Project Owner",)
    assert real_shape.operation(PROJECT, "PATCH") is None
    assert real_shape.vendor == "atlas"


def test_completions_continue_the_path_by_one_segment(real_shape):
    assert real_shape.completions(PROJECT + "/c") == [PROJECT + "/clusters"]
    assert real_shape.completions(PROJECT + "/clusters/") == [
        PROJECT + "/clusters/provider/",  # only a step towards …/provider/regions
        PROJECT + "/clusters/{clusterName}",
    ]
    assert real_shape.completions(V2 + "/nowhere/") == []


def test_a_completion_that_is_only_a_step_towards_documented_paths_ends_with_a_slash(real_shape):
    cluster = PROJECT + "/clusters/ldap-954"
    # …/backup is not documented, only what is below it: the slash lets the list go on at once.
    assert real_shape.completions(cluster + "/b") == [cluster + "/backup/"]
    assert real_shape.completions(cluster + "/backup/") == [
        cluster + "/backup/restoreJobs", cluster + "/backup/schedule", cluster + "/backup/snapshots",
    ]  # fmt: skip
    # A documented path stays as it is, though paths are documented below it.
    assert real_shape.completions(PROJECT + "/c") == [PROJECT + "/clusters"]
    snapshots = cluster + "/backup/snapshots"  # documented, with {snapshotId} below it
    assert real_shape.completions(cluster + "/backup/sn") == [snapshots]


def test_yaml_gives_the_same_index_as_json(real_shape):
    document = json.loads(FIXTURE.read_bytes())
    from_yaml = from_bytes("real-shape.yaml", yaml.safe_dump(document).encode(), None)
    assert sorted(from_yaml.operations) == sorted(real_shape.operations)
    assert all(from_yaml.operations[key] == real_shape.operations[key] for key in real_shape.operations)


def test_the_index_is_cached_by_content_and_read_back(tmp_path, monkeypatch):
    data = FIXTURE.read_bytes()
    first = from_bytes("a.json", data, tmp_path)
    assert [path.suffix for path in tmp_path.iterdir()] == [".json"]
    # The second start with the same content never parses the document.
    monkeypatch.setattr(description, "parse", lambda *_: pytest.fail("parsed again"))
    second = from_bytes("b.json", data, tmp_path)
    assert second.to_json() == first.to_json()
    assert second.source == "b.json"


def test_a_broken_cached_index_is_made_again(tmp_path):
    data = FIXTURE.read_bytes()
    from_bytes("a.json", data, tmp_path)
    (cached,) = tmp_path.iterdir()
    cached.write_text("{not json")
    assert len(from_bytes("a.json", data, tmp_path)) == 47
    assert json.loads(cached.read_text())["format"] == description.INDEX_FORMAT


@pytest.mark.parametrize(
    ("content", "why"),
    [
        (b"{]", 'it is not valid JSON (expected a name in double quotes, such as "name", at line 1, column 2)'),
        (b"just: [unclosed", "it is neither JSON nor valid YAML (while parsing a flow sequence)"),
        (b"a string", "it is not an OpenAPI document (no object at its top)"),
        (b'{"swagger": "2.0", "paths": {}}', "it is not an OpenAPI 3 document (no openapi field)"),
        (b'{"openapi": "3.1.0", "paths": {}}', "it documents no paths"),
        (b'{"openapi": "3.1.0", "paths": {"/x": {"summary": "no methods"}}}', "it documents no operations"),
        (b"[1, 2]", "it is not an OpenAPI document (no object at its top)"),
    ],
)
def test_a_document_that_cannot_be_used_is_named_with_why(content, why):
    with pytest.raises(DescriptionError) as caught:
        from_bytes("api.json", content, None)
    assert caught.value.summary == f"The API description api.json cannot be used: {why}"


def test_a_file_that_is_not_there_or_a_folder_is_named(tmp_path):
    with pytest.raises(DescriptionError, match="there is no such file"):
        description.read_file(str(tmp_path / "missing.json"))
    with pytest.raises(DescriptionError, match="it is a directory"):
        description.read_file(str(tmp_path))


def session_on(app, openapi: str | None, **options) -> Session:
    credentials = Credentials(
        "https://h.example/api/atlas/v2", client_id="id", client_secret=Secret("secret"), openapi=openapi, **options
    )
    return Session(credentials, transport=httpx.ASGITransport(app=app))


async def test_each_request_names_the_newest_version_its_operation_documents():
    stand_in = VersionedService(REAL_RESPONSES)
    async with session_on(stand_in, str(FIXTURE)) as session:
        groups = await session.fetch("/groups")
        cluster = await session.fetch(
            PROJECT.replace("6a793f362c88faeba59b8a26", "6a793f37c0eb9e7a17711e84") + "/clusters/ldap-954"
        )
        undocumented = await session.fetch("/alertConfigs/matchers/fieldNames/x")
    assert groups.status == 200
    assert cluster.status == 200
    assert undocumented.status == 404
    assert stand_in.accepts == [
        "application/vnd.atlas.2023-01-01+json",  # /groups: only 2023-01-01
        "application/vnd.atlas.2024-08-05+json",  # a cluster: the newest without a sunset
        "application/vnd.atlas.2023-01-01+json",  # not documented: the default
    ]
    assert cluster.operation.operation_id == "getCluster"
    assert undocumented.operation is None


async def test_an_encoded_slash_stays_inside_its_segment_when_the_operation_is_looked_up():
    # The sandbox's entry 10.20.0.0/16 is …/accessList/10.20.0.0%2F16: one segment, {entry}.
    # httpx's URL.path decodes %2F to /, which makes two; the description matches the raw path.
    async with demo_session() as session:
        projects = await session.fetch("/groups")
        project = projects.page_or_array.results[0]["id"]
        entry = await session.fetch(f"/groups/{project}/accessList/10.20.0.0%2F16")
    assert entry.status == 200
    assert entry.operation is not None and entry.operation.operation_id == "getEntry"


async def test_a_pinned_version_wins_over_the_description():
    stand_in = VersionedService(REAL_RESPONSES)
    async with session_on(stand_in, str(FIXTURE), api_version="2023-02-01") as session:
        await session.fetch("/groups/6a793f37c0eb9e7a17711e84/clusters/ldap-954")
    assert stand_in.accepts == ["application/vnd.atlas.2023-02-01+json"]


async def test_a_description_at_a_url_is_fetched_without_credentials(tmp_path):
    seen: list[httpx.Request] = []

    def service(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        if request.url.path == "/openapi.json":
            return httpx.Response(200, content=FIXTURE.read_bytes())
        if request.url.path == "/api/oauth/token":
            return httpx.Response(200, json={"access_token": "t", "token_type": "Bearer", "expires_in": 3600})
        return httpx.Response(200, json={"links": []})

    credentials = Credentials(
        "https://h.example/api/atlas/v2",
        client_id="id",
        client_secret=Secret("secret"),
        openapi="https://docs.example/openapi.json",
    )
    async with Session(
        credentials, transport=httpx.MockTransport(service), caches=Caches(description=tmp_path)
    ) as session:
        await session.fetch("/groups")
    described, *_, fetched = seen
    assert str(described.url) == "https://docs.example/openapi.json"
    assert "authorization" not in described.headers
    assert fetched.headers["accept"] == "application/vnd.atlas.2023-01-01+json"
    assert session.description is not None and len(session.description) == 47


async def test_a_description_that_cannot_be_used_leaves_the_session_working(tmp_path):
    stand_in = VersionedService(REAL_RESPONSES)
    missing = tmp_path / "nowhere.yaml"
    async with session_on(stand_in, str(missing)) as session:
        groups = await session.fetch("/groups")
    assert groups.status == 200
    assert session.description is None
    assert session.description_problem.summary == f"The API description {missing} cannot be used: there is no such file"
    assert stand_in.accepts == ["application/vnd.atlas.2023-01-01+json"]


async def test_plain_http_to_another_host_is_refused_for_a_description():
    stand_in = VersionedService(REAL_RESPONSES)
    async with session_on(stand_in, "http://docs.example/openapi.json") as session:
        await session.fetch("/groups")
    assert session.description_problem.summary == (
        "The API description http://docs.example/openapi.json cannot be used: plain http:// is read from loopback "
        "addresses only; use https://"
    )


def test_the_fixture_is_hand_made_not_the_vendors_file():
    # The vendor's description may not be shipped: the fixture stays small and says what it is.
    assert FIXTURE.stat().st_size < 100_000
    assert json.loads(FIXTURE.read_bytes())["info"]["title"].startswith("A hand-made description")
    assert Path(FIXTURE).suffix == ".json"


async def test_the_sandboxs_patterns_and_envelopes_change_nothing_the_explorer_reads_wrongly():
    """Issue 42 gave the sandbox's description envelopes (anyOf) and patterns: the versions an answer
    is documented in are still read, and the editor's check holds a body to the patterns as the
    sandbox does (a CIDR block, a text field's characters), and passes what it takes."""
    async with demo_session() as session:
        projects = await session.fetch("/groups")
        project = projects.page_or_array.results[0]["id"]
        clusters = await session.fetch(f"/groups/{project}/clusters")
        found, root = session.description, session.base_url.path
    assert found is not None and clusters.operation is not None
    assert clusters.operation.versions == ("2023-01-01", "2024-08-05")
    entries = found.operation(f"{root}/groups/{project}/accessList", "POST")
    renamed = found.operation(f"{root}/groups/{project}", "PATCH")
    assert entries is not None and renamed is not None
    entries_schema, renamed_schema = found.request_schema(entries), found.request_schema(renamed)
    assert check_body(json.dumps(entries.example), entries_schema) == []
    assert check_body('[{"cidrBlock": "2001:db8::/32"}, {"ipAddress": "::ffff:192.0.2.1"}]', entries_schema) == []
    for bad, field, said in (
        ('[{"cidrBlock": "10.0.0.0/33"}]', "cidrBlock", "a CIDR block such as 10.0.0.0/16"),
        ('[{"ipAddress": "fe80::1%eth0"}]', "ipAddress", "an IP address such as 192.0.2.15"),
        ('[{"ipAddress": "010.0.0.1"}]', "ipAddress", "an IP address such as 192.0.2.15"),
    ):
        [problem] = check_body(bad, entries_schema)
        assert problem.message.startswith(f".[0].{field}: has a character or a form its pattern does not allow"), bad
        assert problem.message.endswith(f"; the field: {said}"), bad
    assert check_body('{"name": "caf\\u00e9 \\ud83d\\ude00"}', renamed_schema) == []
    for bad in ('{"name": "right\\u202eto left"}', '{"name": "ends in a newline\\n"}'):
        [problem] = check_body(bad, renamed_schema)
        assert problem.message.startswith(".name: has a character or a form its pattern does not allow"), bad
        assert problem.message.endswith(
            "; the field: a string of 1 to 64 characters, none a control or an invisible one"
        )
