"""The bodies of the sandbox's API description (openapi.py): one media type per version, and what
a write takes and answers, read from the write's own declaration (writes.py).

The request body's schema is the declaration's (`Fields.schema`: read-only fields marked
`readOnly`, the required ones listed, unknown ones refused by `additionalProperties: false`),
under components/schemas by the declaration's name; its example is the declaration's, made on the
sandbox's seeded world so that it is accepted as it is. The success is the declared status:
201 and 200 with the entity (or, for the access list, the list), 202 and 204 with no body. The
documents every answer may carry (errors, entities, lists, tokens) are ANSWERS.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from explorer.sandbox.documents import VENDOR
from explorer.sandbox.versions import Version
from explorer.sandbox.world import World
from explorer.sandbox.writes import Body, Entries, Write, example_of

REASONS = {200: "OK", 201: "Created", 202: "Accepted", 204: "No Content"}
BODY_ERRORS = ("400", "413", "415")  # what any write with a body may answer besides the usual


def ref(kind: str, name: str) -> dict[str, str]:
    return {"$ref": f"#/components/{kind}/{name}"}


def versioned(versions: Sequence[Version], schema: dict[str, Any] | None, example: Any = None) -> dict[str, Any]:
    """One media type per version, as the real description keys them, each naming its version;
    without a schema for an answer with no body (202, 204), as the real description has them."""
    content = {}
    for version in versions:
        described: dict[str, Any] = {} if schema is None else {"schema": schema}
        if example is not None:
            described["example"] = example
        described["x-xgen-version"] = version.date
        if version.sunset:
            described["x-sunset"] = version.sunset
        content[f"application/vnd.{VENDOR}.{version.date}+json"] = described
    return content


# The answers' documents: errors, links, entities and lists (spec 2.4, 2.5, 2.7), tokens (2.1, 2.3);
# and, after them, the envelopes of those that have one (ENVELOPED).
ANSWERS: dict[str, dict[str, Any]] = {
    "ApiError": {
        "type": "object",
        "required": ["detail", "error", "errorCode", "parameters", "reason"],
        "properties": {
            "detail": {"type": "string"},
            "error": {"type": "integer"},
            "errorCode": {"type": "string"},
            "parameters": {"type": "array"},
            "reason": {"type": "string"},
        },
    },
    "Link": {
        "type": "object",
        "required": ["href", "rel"],
        "properties": {"href": {"type": "string", "format": "uri"}, "rel": {"type": "string"}},
    },
    "Entity": {
        "type": "object",
        "properties": {"links": {"type": "array", "items": ref("schemas", "Link")}},
    },
    "PaginatedList": {
        "type": "object",
        "required": ["links", "results"],
        "properties": {
            "links": {"type": "array", "items": ref("schemas", "Link")},
            "results": {"type": "array", "items": ref("schemas", "Entity")},
            "totalCount": {"type": "integer", "minimum": 0},
            "status": {"type": "integer", "description": "The HTTP status of the answer, with envelope=true."},
        },
    },
    "Token": {
        "type": "object",
        "required": ["access_token", "expires_in", "token_type"],
        "properties": {
            "access_token": {"type": "string"},
            "expires_in": {"type": "integer"},
            "token_type": {"type": "string", "const": "Bearer"},
        },
    },
    "OAuthError": {
        "type": "object",
        "required": ["error", "error_description"],
        "properties": {"error": {"type": "string"}, "error_description": {"type": "string"}},
    },
}


# Spec 2.6: with envelope=true an entity, a token or an error is answered as {status, content}, and a
# list gains `status`. A description cannot make an answer's schema hang on a query parameter, so each
# answer's schema is the document or its envelope (anyOf: an Entity's envelope is an Entity too).
ENVELOPED = ("ApiError", "Entity", "OAuthError", "Token")


def envelope_of(name: str) -> dict[str, Any]:
    """The envelope of the document `name` (spec 2.6): its status and the document itself."""
    return {
        "type": "object",
        "required": ["status", "content"],
        "properties": {"status": {"type": "integer"}, "content": ref("schemas", name)},
    }


def answer(name: str) -> dict[str, Any]:
    """The schema of an answer whose document is `name`: it, or (envelope=true) its envelope."""
    if name not in ENVELOPED:
        return ref("schemas", name)
    return {"anyOf": [ref("schemas", name), ref("schemas", f"Enveloped{name}")]}


ANSWERS.update({f"Enveloped{name}": envelope_of(name) for name in ENVELOPED})


def request_body(body: Body, versions: Sequence[Version], world: World) -> dict[str, Any]:
    """A write's requestBody: its schema by reference and an example the sandbox accepts as it is."""
    described: dict[str, Any] = {"required": True}
    if body.description:
        described["description"] = body.description
    described["content"] = versioned(versions, ref("schemas", body.name), example_of(body, world))
    return described


def success(write: Write, versions: Sequence[Version]) -> tuple[str, dict[str, Any]]:
    """The status and response object of a write's success, as it was declared."""
    description = write.description or REASONS[write.status]
    if write.status in (202, 204):
        return str(write.status), {"description": description, "content": versioned(versions, None)}
    listing = isinstance(write.body, Entries)  # the access list's POST answers with the list
    schema = answer("PaginatedList" if listing else "Entity")
    return str(write.status), {"description": description, "content": versioned(versions, schema)}


def refusals(write: Write) -> tuple[str, ...]:
    """The error statuses a write may answer besides those of every operation."""
    return tuple(str(status) for status in write.refusals) + (BODY_ERRORS if write.body else ())


def body_schemas(writes: Sequence[Write]) -> dict[str, dict[str, Any]]:
    """components/schemas of every body the writes take; a name given to two bodies is an error."""
    found: dict[str, dict[str, Any]] = {}
    for write in writes:
        for name, schema in (write.body.components() if write.body else {}).items():
            if found.setdefault(name, schema) != schema:
                raise ValueError(f"two request bodies are named {name}")
    return found
