"""The writes in the API description are the writes the sandbox serves: each body's schema and
example, its read-only and required fields, its success, all as the sandbox answers them.

The description and the checks are made from one declaration per write (explorer/sandbox/writes.py);
these tests hold the two to it from outside, by asking the sandbox.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from openapi_spec_validator import validate

from explorer.sandbox.openapi import describe
from explorer.sandbox.resources import ROUTES, cluster_writes, resource
from explorer.sandbox.writes import Fields, declared
from tests.sandbox.conftest import API
from tests.sandbox.test_openapi import operations, served

BODIES = ("POST", "PATCH", "PUT")
WRITES = (*BODIES, "DELETE")
SUCCESS = {"POST": {"201"}, "PATCH": {"200"}, "PUT": {"200"}, "DELETE": {"202", "204"}}


def writes_of(document: dict) -> dict[tuple[str, str], dict]:
    """The writes of the API (the token endpoints, which take forms, are not among them)."""
    return {
        (path, method): operation
        for (path, method), operation in operations(document).items()
        if method in WRITES and path.startswith(API + "/")
    }


def concrete(sandbox, template: str, method: str) -> str:
    """A path of the seeded world for `template`: the staging project and what it holds (or, to
    delete a project, the empty one: the service refuses to delete one with clusters)."""
    emptied = (template, method) == (API + "/groups/{groupId}", "DELETE")
    project = sandbox.world.project_named("empty-sandbox" if emptied else "staging")
    database_name, username = next(iter(project.database_users), ("admin", "none"))
    values = {
        "groupId": project.id,
        "clusterName": "orders-staging",
        "databaseName": database_name,
        "username": username,
        "entry": next(iter(project.access_list), "10.0.0.0/8").replace("/", "%2F"),
    }
    path = template
    for name, value in values.items():
        path = path.replace("{" + name + "}", value)
    return path


def validator(document: dict, schema: dict) -> Draft202012Validator:
    """A JSON Schema validator for a schema of the description, its $refs resolved in the description."""
    return Draft202012Validator({**schema, "components": document["components"]})


def resolved(document: dict, schema: dict) -> dict:
    name = schema["$ref"].rsplit("/", 1)[-1]
    return document["components"]["schemas"][name]


def object_schema(document: dict, schema: dict) -> dict:
    """The object schema of a body: the body's own, or its items' (the access list's array)."""
    found = resolved(document, schema)
    return resolved(document, found["items"]) if found.get("type") == "array" else found


def first_object(body: Any) -> dict:
    return body[0] if isinstance(body, list) else body


@pytest.mark.slow
async def test_every_write_has_a_schema_an_example_and_the_success_it_answers(open_sandbox):
    async with open_sandbox(rate_limits="bucket") as sandbox:
        document = await served(sandbox)
    validate(document)
    described = writes_of(document)
    assert {method for _, method in described} == {"POST", "PATCH", "DELETE"}
    assert len(described) >= 11
    for (path, method), operation in described.items():
        successes = {status for status in operation["responses"] if status.startswith("2")}
        assert len(successes) == 1 and successes <= SUCCESS[method], (path, method)
        assert {"400", "401", "404", "429"} <= operation["responses"].keys(), (path, method)
        if method == "DELETE":
            assert "requestBody" not in operation
            (answer,) = (operation["responses"][status] for status in successes)
            assert all("schema" not in media for media in answer["content"].values())  # no body
            continue
        assert operation["requestBody"]["required"] is True
        assert {"413", "415"} <= operation["responses"].keys()
        for media_type, media in operation["requestBody"]["content"].items():
            assert media_type.startswith("application/vnd.service.") and media["x-xgen-version"]
            schema = object_schema(document, media["schema"])
            assert schema["additionalProperties"] is False, (path, method)
            assert set(schema.get("required", [])) <= schema["properties"].keys()
            assert "example" in media, (path, method)
            errors = list(validator(document, media["schema"]).iter_errors(media["example"]))
            assert errors == [], (path, method, errors)


@pytest.mark.slow
async def test_each_example_is_accepted_as_it_is(open_sandbox):
    async with open_sandbox() as sandbox:
        document = await served(sandbox)
    for (template, method), operation in writes_of(document).items():
        for media_type, media in operation.get("requestBody", {"content": {None: {}}})["content"].items():
            async with open_sandbox() as sandbox:  # each on the world as seeded
                headers = {"Content-Type": media_type, "Accept": media_type} if media_type else {}
                path = concrete(sandbox, template, method)
                response = await sandbox.call(method, path, json=media.get("example"), headers=headers)
            assert response.status_code in {int(s) for s in operation["responses"] if s.startswith("2")}, (
                method,
                template,
                media_type,
                response.text,
            )


async def test_a_field_the_schema_does_not_know_is_refused_by_both(open_in_process):
    async with open_in_process() as sandbox:
        document = await served(sandbox)
        for (template, method), operation in writes_of(document).items():
            if "requestBody" not in operation:
                continue
            media = next(iter(operation["requestBody"]["content"].values()))
            body = copy.deepcopy(media["example"])
            first_object(body)["notAField"] = 1
            assert not validator(document, media["schema"]).is_valid(body), (method, template)
            response = await sandbox.call(method, concrete(sandbox, template, method), json=body)
            assert response.status_code == 400, (method, template)
            assert (response.json()["errorCode"], response.json()["parameters"]) == ("INVALID_ATTRIBUTE", ["notAField"])


async def test_read_only_and_required_fields_are_what_the_sandbox_refuses(open_in_process):
    changed = {"a value": "no entity has"}
    async with open_in_process() as sandbox:
        document = await served(sandbox)
        for (template, method), operation in writes_of(document).items():
            if "requestBody" not in operation:
                continue
            media = next(iter(operation["requestBody"]["content"].values()))
            schema = object_schema(document, media["schema"])
            path = concrete(sandbox, template, method)
            for name, field in schema["properties"].items():
                body = copy.deepcopy(media["example"])
                first_object(body)[name] = changed
                response = await sandbox.call(method, path, json=body)
                code = response.json().get("errorCode") if response.status_code == 400 else None
                expected = "ATTRIBUTE_READ_ONLY" if field.get("readOnly") else "INVALID_ATTRIBUTE"
                assert code == expected, (method, template, name, response.text)
            for name in schema.get("required", []):
                body = copy.deepcopy(media["example"])
                del first_object(body)[name]
                response = await sandbox.call(method, path, json=body)
                assert response.json()["errorCode"] == "MISSING_ATTRIBUTE", (method, template, name)
                assert response.json()["parameters"] == [name]


async def test_a_patch_schema_marks_the_fields_an_entity_only_reports(sandbox):
    document = await served(sandbox)
    described = operations(document)
    project = resolved(
        document,
        described[(API + "/groups/{groupId}", "PATCH")]["requestBody"]["content"][
            "application/vnd.service.2023-01-01+json"
        ]["schema"],
    )
    read_only = {name for name, field in project["properties"].items() if field.get("readOnly")}
    assert read_only == {"id", "created", "clusterCount", "links", "orgId", "withDefaultAlertsSettings"}
    cluster = described[(API + "/groups/{groupId}/clusters/{clusterName}", "PATCH")]["requestBody"]["content"]
    schema = resolved(document, cluster["application/vnd.service.2024-08-05+json"]["schema"])
    assert schema["properties"]["stateName"]["readOnly"] is True
    assert "readOnly" not in schema["properties"]["paused"]
    for (path, method), operation in described.items():
        if method != "PATCH":
            continue
        example = next(iter(operation["requestBody"]["content"].values()))["example"]
        assert 1 <= len(example) <= 2, path  # a PATCH's example changes a field or two


async def test_the_access_list_takes_an_array_of_entries(sandbox):
    document = await served(sandbox)
    operation = operations(document)[(API + "/groups/{groupId}/accessList", "POST")]
    media = operation["requestBody"]["content"]["application/vnd.service.2023-01-01+json"]
    body = resolved(document, media["schema"])
    assert body["type"] == "array" and body["items"] == {"$ref": "#/components/schemas/AccessListEntry"}
    assert isinstance(media["example"], list)
    answer = operation["responses"]["201"]["content"]["application/vnd.service.2023-01-01+json"]
    assert answer["schema"] == {"$ref": "#/components/schemas/PaginatedList"}
    entry = document["components"]["schemas"]["AccessListEntry"]
    assert entry["oneOf"] == [{"required": ["ipAddress"]}, {"required": ["cidrBlock"]}]
    assert not validator(document, media["schema"]).is_valid([{"ipAddress": "192.0.2.1", "cidrBlock": "192.0.2.1/32"}])


async def undeclared_write(request):
    """Change a widget."""


def test_a_write_not_declared_cannot_be_described():
    extra = resource(API + "/widgets", POST=undeclared_write)
    with pytest.raises(ValueError, match="undeclared_write .* is a write not declared"):
        describe("http://sandbox.test", [*ROUTES, extra])


def test_the_declarations_give_their_schemas_to_the_description():
    write = declared(cluster_writes.create_cluster)
    assert write is not None and isinstance(write.body, Fields) and write.status == 201
    document = describe("http://sandbox.test")
    assert document["components"]["schemas"]["CreateCluster"] == write.body.schema()
