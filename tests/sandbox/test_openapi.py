"""The sandbox describes itself: `GET /openapi.json`, OpenAPI 3.1 made from its own route table.

Checked against the OpenAPI 3.1 schema by openapi-spec-validator, the library that defines
validity; and against the sandbox itself: every route is described, and what the description says
of a resource (its query parameters, its versions) is what the resource answers.
"""

from __future__ import annotations

import re
from collections import deque
from urllib.parse import urlsplit

import httpx
import jsonschema
import pytest
from openapi_spec_validator import validate
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Mount, Route

from explorer.sandbox.links import API_ROOT, DESCRIPTION_PATH
from explorer.sandbox.openapi import describe
from explorer.sandbox.resources import LEGACY_ROUTES, ROUTES, resource
from tests.sandbox.conftest import API
from tests.sandbox.test_command import running

METHODS = {"GET", "POST", "PATCH", "DELETE"}
GROUP = API + "/groups/{groupId}"


def routed(routes, prefix: str = "") -> set[tuple[str, str]]:
    """(path template without converters, method) of every route, walked as Starlette routes them."""
    found = set()
    for route in routes:
        if isinstance(route, Mount):
            found |= routed(route.routes, prefix + route.path)
        else:
            assert isinstance(route, Route)
            template = re.sub(r"\{(\w+):\w+\}", r"{\1}", prefix + route.path)
            found |= {(template, method) for method in route.methods & METHODS}
    return found


def operations(document: dict) -> dict[tuple[str, str], dict]:
    return {
        (path, method.upper()): operation
        for path, item in document["paths"].items()
        for method, operation in item.items()
    }


async def served(sandbox) -> dict:
    response = await sandbox.client.get(DESCRIPTION_PATH)  # no credentials
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "application/json"
    return response.json()


@pytest.mark.slow
async def test_the_description_is_served_without_credentials_and_is_valid_openapi_3_1(sandbox):
    document = await served(sandbox)
    validate(document)  # raises on any departure from the OpenAPI 3.1 schema
    assert document["openapi"] == "3.1.0"
    assert document["servers"] == [{"url": str(sandbox.client.base_url).rstrip("/")}]


async def test_every_route_is_described_under_its_full_path_and_the_token_endpoints_too(open_sandbox):
    async with open_sandbox(rate_limits="bucket") as sandbox:
        described = operations(await served(sandbox))
    assert routed(ROUTES) <= set(described)
    assert {("/api/oauth/token", "POST"), ("/api/oauth/revoke", "POST")} <= set(described)
    assert set(described) - routed(ROUTES) == {("/api/oauth/token", "POST"), ("/api/oauth/revoke", "POST")}
    assert not routed(LEGACY_ROUTES) & set(described)  # the legacy whitelist: a link it does not know
    assert (API + "/groups/{groupId}/databaseUsers/{databaseName}/{username}", "PATCH") in described


async def test_what_this_sandbox_does_not_serve_is_not_described(open_sandbox):
    async with open_sandbox() as sandbox:  # minute windows: GET …/rateLimits answers 404
        minutes = (await served(sandbox))["paths"]
    async with open_sandbox(rate_limits="bucket") as sandbox:
        buckets = (await served(sandbox))["paths"]
    assert API + "/rateLimits" not in minutes and API + "/rateLimits/{endpointSetId}" not in minutes
    assert API + "/rateLimits" in buckets and API + "/rateLimits/{endpointSetId}" in buckets
    assert buckets.keys() - minutes.keys() == {API + "/rateLimits", API + "/rateLimits/{endpointSetId}"}


async def test_each_operation_is_named_summarised_tagged_and_says_its_roles(sandbox):
    described = operations(await served(sandbox))
    ids = [operation["operationId"] for operation in described.values()]
    assert len(ids) == len(set(ids))
    clusters = described[(GROUP + "/clusters", "GET")]
    assert clusters["operationId"] == "listClusters"
    assert clusters["summary"] == "Return the clusters of a project."
    assert clusters["tags"] == ["Clusters"]
    assert clusters["x-rolesRequirements"] == ["Project Read Only"]
    assert described[(GROUP, "PATCH")]["x-rolesRequirements"] == ["Project Owner"]
    assert described[(API + "/orgs/{orgId}/users", "GET")]["x-rolesRequirements"] == ["Organization Member"]
    assert all(operation["summary"] and len(operation["tags"]) == 1 for operation in described.values())


async def test_parameters_path_and_query(sandbox):
    document = await served(sandbox)
    described = operations(document)
    user = described[(GROUP + "/databaseUsers/{databaseName}/{username}", "GET")]
    names = [p.get("name") or p["$ref"].rsplit("/", 1)[-1] for p in user["parameters"]]
    assert names == ["groupId", "databaseName", "username", "envelope", "pretty"]
    assert all(p["required"] is True for p in user["parameters"] if p.get("in") == "path")
    listing = described[(GROUP + "/events", "GET")]["parameters"]
    assert {"$ref": "#/components/parameters/itemsPerPage"} in listing
    assert {p["name"] for p in listing if "name" in p} == {"groupId", "eventType", "minDate", "maxDate"}
    assert document["components"]["parameters"]["itemsPerPage"]["schema"]["maximum"] == 500


async def test_the_clusters_serve_two_versions_and_the_older_has_a_sunset(sandbox):
    described = operations(await served(sandbox))
    for path in (GROUP + "/clusters", GROUP + "/clusters/{clusterName}"):
        content = described[(path, "GET")]["responses"]["200"]["content"]
        assert content.keys() == {"application/vnd.service.2023-01-01+json", "application/vnd.service.2024-08-05+json"}
        old, new = content.values()
        assert (old["x-xgen-version"], old["x-sunset"]) == ("2023-01-01", "2027-07-01")
        assert new["x-xgen-version"] == "2024-08-05" and "x-sunset" not in new
    project = described[(GROUP, "GET")]["responses"]["200"]["content"]
    assert project == {
        "application/vnd.service.2023-01-01+json": {
            "schema": {
                "anyOf": [{"$ref": "#/components/schemas/Entity"}, {"$ref": "#/components/schemas/EnvelopedEntity"}]
            },
            "x-xgen-version": "2023-01-01",
        }
    }


async def test_successes_and_errors_as_the_handlers_answer(sandbox):
    document = await served(sandbox)
    described = operations(document)
    assert described[(API + "/groups", "POST")]["responses"].keys() >= {"201", "401", "403", "404", "429"}
    assert described[(GROUP, "DELETE")]["responses"].keys() >= {"204", "404", "409"}
    assert "200" not in described[(GROUP, "DELETE")]["responses"]
    assert "202" in described[(GROUP + "/clusters/{clusterName}", "DELETE")]["responses"]
    not_found = document["components"]["responses"]["notFound"]
    assert not_found["content"]["application/json"]["schema"] == {
        "anyOf": [{"$ref": "#/components/schemas/ApiError"}, {"$ref": "#/components/schemas/EnvelopedApiError"}]
    }
    assert "X-Error-Code" in not_found["headers"]
    assert document["components"]["schemas"]["ApiError"]["required"] == [
        "detail",
        "error",
        "errorCode",
        "parameters",
        "reason",
    ]


def answer_schema(document: dict, path: str, method: str, status: str) -> jsonschema.Validator:
    """A validator of what the description says `method path` answers with `status`."""
    responses = operations(document)[(path, method)]["responses"]
    response = responses[status]
    if "$ref" in response:
        response = document["components"]["responses"][response["$ref"].rsplit("/", 1)[-1]]
    schema = next(iter(response["content"].values()))["schema"]
    return jsonschema.Draft202012Validator({**schema, "components": document["components"]})


@pytest.mark.parametrize("envelope", ["false", "true"])
async def test_answers_are_as_described_with_and_without_the_envelope(sandbox, envelope):
    """Spec 2.6: with envelope=true an entity and an error come as {status, content} and a list
    gains status. The description says both shapes, and each answer is one of them."""
    document = await served(sandbox)
    production = sandbox.project_id("production")
    asked = [
        (GROUP, f"/groups/{production}", "200"),
        (GROUP + "/clusters", f"/groups/{production}/clusters", "200"),
        (GROUP, "/groups/0123456789abcdef01234567", "404"),
        (GROUP, "/groups/0", "400"),
    ]
    for template, path, status in asked:
        response = await sandbox.get(path, params={"envelope": envelope})
        assert str(response.status_code) == status, path
        body = response.json()
        answer_schema(document, template, "GET", status).validate(body)
        assert ("content" in body) == (envelope == "true" and "results" not in body), path


async def test_the_description_names_the_origin_each_client_used(open_in_process):
    async with open_in_process() as sandbox:
        here = (await sandbox.client.get(DESCRIPTION_PATH)).json()
        there = (await sandbox.client.get(DESCRIPTION_PATH, headers={"Host": "class.example:9443"})).json()
    assert here["servers"] == [{"url": "http://sandbox.test"}]
    assert there["servers"] == [{"url": "http://class.example:9443"}]
    tokens = there["components"]["securitySchemes"]["ServiceAccounts"]["flows"]["clientCredentials"]
    assert tokens["tokenUrl"] == "http://class.example:9443/api/oauth/token"


async def documented_widget(request: Request) -> Response:
    """Return one widget.

    A route added to the table, to see it described."""
    return Response(b"{}")


async def undocumented_widget(request: Request) -> Response:
    return Response(b"{}")


@pytest.mark.slow
def test_a_route_added_to_the_table_is_described():
    extra = resource(API_ROOT + "/widgets/{widgetId}", GET=documented_widget)
    document = describe("http://sandbox.test", [*ROUTES, extra])
    validate(document)
    widget = document["paths"][API + "/widgets/{widgetId}"]["get"]
    assert (widget["operationId"], widget["summary"]) == ("documentedWidget", "Return one widget.")
    assert widget["description"] == "A route added to the table, to see it described."
    assert widget["tags"] == ["Test Openapi"]  # the family: the handler's module
    assert "x-rolesRequirements" not in widget  # no row of the table of roles covers it


@pytest.mark.parametrize(
    "routes, message",
    [
        ([resource(API_ROOT + "/widgets", GET=undocumented_widget)], "undocumented_widget .* has no docstring"),
        (
            [resource(API_ROOT + "/a", GET=documented_widget), resource(API_ROOT + "/b", GET=documented_widget)],
            "two handlers are named documented_widget",
        ),
        ([Route(API_ROOT + "/widgets", documented_widget)], "is not a resource"),
    ],
)
def test_a_route_that_cannot_be_described_is_an_error_naming_it(routes, message):
    with pytest.raises((ValueError, TypeError), match=message):
        describe("http://sandbox.test", routes)


def template_pattern(template: str) -> re.Pattern[str]:
    return re.compile(re.sub(r"\\\{\w+\\\}", "[^/?]+", re.escape(template)))


async def unhurried(sandbox, path: str, **kwargs) -> httpx.Response:
    """A request a minute after the last: the token buckets are full again."""
    sandbox.clock.advance(60)
    return await sandbox.get(path, **kwargs)


async def one_url_per_template(sandbox, templates: list[str]) -> dict[str, str]:
    """Follow links from the production project and the root, breadth first, until each GET
    template has a concrete path (the first found), as a user browsing would."""
    patterns = [(template, template_pattern(template)) for template in templates]
    found: dict[str, str] = {}
    production = f"{API}/groups/{sandbox.project_id('production')}"
    queue, seen = deque([production, API]), set()
    while queue:
        path = queue.popleft()
        template = next((t for t, pattern in patterns if pattern.fullmatch(path)), None)
        if path in seen or template is None or template in found:
            continue
        seen.add(path)
        response = await unhurried(sandbox, path)
        if response.status_code != 200:
            continue
        found[template] = path
        body = response.json()
        for item in [body, *body.get("results", [])]:
            for link in item.get("links", []):
                queue.append(urlsplit(link["href"]).path)
    return found


@pytest.mark.slow
async def test_each_resource_takes_the_query_parameters_and_serves_the_versions_described(open_sandbox):
    async with open_sandbox(rate_limits="bucket", token_ttl=10**8) as sandbox:
        described = operations(await served(sandbox))
        reads = {path: operation for (path, method), operation in described.items() if method == "GET"}
        urls = await one_url_per_template(sandbox, list(reads))
        assert urls.keys() == reads.keys()  # every resource described is reached by links
        for template, path in urls.items():
            operation = reads[template]
            documented = {p.get("name") or p["$ref"].rsplit("/", 1)[-1] for p in operation["parameters"]}
            documented -= {p["name"] for p in operation["parameters"] if p.get("in") == "path"}
            refused = await unhurried(sandbox, path, params={"notAParameter": "1"})
            assert refused.status_code == 400, template
            accepted = refused.json()["detail"].partition("Accepted here: ")[2].rstrip(".").split(", ")
            assert set(accepted) == documented, template
            for media, said in operation["responses"]["200"]["content"].items():
                answer = await unhurried(sandbox, path, headers={"Accept": media})
                assert answer.headers["content-type"] == media + ";charset=utf-8", template
                assert ("sunset" in answer.headers) == ("x-sunset" in said), template
            unknown = await unhurried(sandbox, path, headers={"Accept": "application/vnd.service.2099-01-01+json"})
            assert unknown.status_code == 406, template


@pytest.mark.slow
def test_the_banner_names_the_description_which_needs_no_credentials(tmp_path):
    with running(tmp_path, "--http") as (url, banner, _):
        named = re.search(r"description\s+GET (\S+)", banner)
        assert named and named.group(1) == url + DESCRIPTION_PATH
        response = httpx.get(named.group(1))
    assert response.status_code == 200
    assert response.json()["servers"] == [{"url": url}]


async def test_a_201_links_to_what_can_be_done_with_what_it_made_and_the_links_lead_there(sandbox):
    """OpenAPI links from each 201 (a created project to its clusters, a cluster to itself): their
    parameters, followed as a client (Schemathesis's stateful phase) follows them, reach the new thing."""
    document = await served(sandbox)
    described = operations(document)
    project_links = described[(API + "/groups", "POST")]["responses"]["201"]["links"]
    assert project_links["listClusters"] == {
        "operationId": "listClusters",
        "parameters": {"groupId": "$response.body#/id"},
    }
    assert "getCluster" not in project_links  # a cluster's name is not in a project's answer
    cluster_links = described[(GROUP + "/clusters", "POST")]["responses"]["201"]["links"]
    assert cluster_links["getCluster"]["parameters"] == {
        "clusterName": "$response.body#/name",
        "groupId": "$request.path.groupId",
    }
    assert "links" not in described[(GROUP + "/accessList", "POST")]["responses"]["201"]  # it answers the list
    org = (await sandbox.get("/orgs")).json()["results"][0]["id"]
    made = (await sandbox.call("POST", "/groups", json={"name": "linked", "orgId": org})).json()
    by_id = {operation["operationId"]: path for (path, _), operation in described.items()}
    followed = by_id["listClusters"].removeprefix(API).replace("{groupId}", made["id"])
    assert (await sandbox.get(followed)).json()["results"] == []
