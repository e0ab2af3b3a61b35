"""The sandbox's API description: OpenAPI 3.1, generated from its own route table, never by hand.

Served without credentials at `GET /openapi.json` on the origin the request came to, in the shape
of the real service's published description, which the explorer indexes (explorer/api/description.py):

- `servers` is the origin alone; `paths` are full paths, API root included
  (`/api/service/v1.0/groups/{groupId}/clusters`);
- each operation has an `operationId` (its handler's name in camelCase), a `summary` (the first
  line of its handler's docstring), one tag per family (the handler's module), its parameters,
  `x-rolesRequirements` (ROLES below) and its responses;
- a success's `content` has one media type per version the resource serves
  (`application/vnd.service.2023-01-01+json`), each with `x-xgen-version` and, for a deprecated
  version, `x-sunset`; errors are `application/json` error documents;
- a write's request body, success and refusals are its declaration's (writes.py), described by
  openapi_bodies.py: the body's schema and an example, the status it answers (201, 200, 202, 204).

Every route of ROUTES is described, so a route added there is documented by the same stroke; a
handler without a docstring, two with one name, or a write not declared, is an error here rather
than a gap there. A
route that answers only under some settings (GET …/rateLimits, with token buckets) is described
where the sandbox has them: the description says what this sandbox serves.

One generator: its parts (operations, parameters, roles, responses) are small functions that only
it uses, in one pass over ROUTES; the bodies of requests and answers are openapi_bodies.py's.
"""

from __future__ import annotations

import inspect
import json
import re
from collections.abc import Iterator, Sequence
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Mount, Route

from explorer import __version__
from explorer.sandbox import oauth
from explorer.sandbox.documents import DEFAULT_VERSION, common_headers
from explorer.sandbox.links import API_ROOT, origin
from explorer.sandbox.openapi_bodies import (
    ANSWERS,
    answer,
    body_schemas,
    ref,
    refusals,
    request_body,
    success,
    versioned,
)
from explorer.sandbox.openapi_links import link_created
from explorer.sandbox.pages import DEFAULT_ITEMS_PER_PAGE, MAX_ITEMS_PER_PAGE, PAGE_PARAMS
from explorer.sandbox.query import COMMON, LARGEST, query_names
from explorer.sandbox.resources import GROUP, ROUTES, Handler, Resource, alerts, processes
from explorer.sandbox.seed import seed_world
from explorer.sandbox.seed.metrics import METRICS
from explorer.sandbox.settings import Settings
from explorer.sandbox.shapes import ADDRESS_OR_BLOCK, Identifier
from explorer.sandbox.versions import Version
from explorer.sandbox.world import World
from explorer.sandbox.writes import Write, declared

TOKEN_PATH, REVOKE_PATH = "/api/oauth/token", "/api/oauth/revoke"
CONVERTER = re.compile(r"\{(\w+)(?::\w+)?\}")
READS = frozenset({"get"})

# The roles an operation requires, as the real description's `x-rolesRequirements`: the first row
# whose path prefix and methods (None: any) match. The root requires none.
ROLES: tuple[tuple[str, frozenset[str] | None, tuple[str, ...]], ...] = (
    (GROUP, READS, ("Project Read Only",)),
    (GROUP, None, ("Project Owner",)),
    (API_ROOT + "/groups", READS, ("Project Read Only",)),
    (API_ROOT + "/groups", None, ("Organization Project Creator",)),
    (API_ROOT + "/orgs", None, ("Organization Member",)),
    (API_ROOT + "/users", None, ("Organization Member",)),
    (API_ROOT + "/rateLimits", None, ("Organization Member",)),
)
# The tag of a family (its handlers' module), where it is not the module's name in words.
TAGS = {
    "orgs": "Organizations",
    "access_list": "Project IP Access List",
    "oauth": "OAuth",
    "cluster_writes": "Clusters",
}
ERRORS = {
    "400": ("badRequest", "Bad Request: a malformed query parameter or body."),
    "401": ("unauthorized", "Unauthorized: no credentials, bad ones, or not granted this resource."),
    "403": ("forbidden", "Forbidden: the address is not on the access list."),
    "404": ("notFound", "Not Found: this resource, or the one it belongs to."),
    "406": ("notAcceptable", "Not Acceptable: the Accept header names no version this resource serves."),
    "409": ("conflict", "Conflict: a name already taken, or a state that forbids it."),
    "413": ("contentTooLarge", "Content Too Large: the body is over the sandbox's limit."),
    "415": ("unsupportedMediaType", "Unsupported Media Type: send the body as JSON (Content-Type)."),
    "429": ("tooManyRequests", "Too Many Requests: retry after Retry-After seconds."),
}
EVERY = ("400", "401", "403", "404", "406", "429")  # what any operation may answer
# The path's identifiers that the sandbox checks before it looks anything up (resources/common.py
# object_id: 400 INVALID_GROUP_ID and the like), as the real description constrains them; and the
# access list's entry (an address or a CIDR block, its / sent as %2F).
PATH_SCHEMAS: dict[str, dict[str, Any]] = {
    "groupId": Identifier().schema(),
    "orgId": Identifier().schema(),
    "userId": Identifier().schema(),
    "entry": {"type": "string", "pattern": f"^{ADDRESS_OR_BLOCK}$"},
}
QUERY_SCHEMAS: dict[str, dict[str, Any]] = {
    "envelope": {"type": "boolean", "default": False},
    "pretty": {"type": "boolean", "default": False},
    "pageNum": {"type": "integer", "minimum": 1, "maximum": LARGEST, "default": 1},
    "itemsPerPage": {"type": "integer", "minimum": 1, "maximum": MAX_ITEMS_PER_PAGE, "default": DEFAULT_ITEMS_PER_PAGE},
    "includeCount": {"type": "boolean", "default": True},
    "eventType": {"type": "array", "items": {"type": "string"}},
    "m": {"type": "array", "items": {"type": "string", "enum": [name for name, *_ in METRICS]}},
    "minDate": {"type": "string", "format": "date-time"},
    "maxDate": {"type": "string", "format": "date-time"},
    "start": {"type": "string", "format": "date-time"},
    "end": {"type": "string", "format": "date-time"},
    "status": {"type": "string", "enum": list(alerts.STATUSES)},
    "granularity": {"type": "string", "enum": list(processes.GRANULARITIES), "default": "PT1H"},
    "period": {"type": "string", "pattern": f"^{processes.DURATION.pattern}$"},
}
QUERY_TEXT = {
    "envelope": "Wrap the answer in {status, content}, for clients that cannot read the HTTP status.",
    "pretty": "Indent the JSON of the answer.",
    "pageNum": "The page of the list to return, from 1.",
    "itemsPerPage": "How many items a page holds.",
    "includeCount": "Whether the answer gives totalCount.",
}
# The token endpoints' one form field each, as oauth.py reads it.
FORM_FIELDS: dict[str, dict[str, Any]] = {
    "grant_type": {"type": "string", "enum": ["client_credentials"]},
    "token": {"type": "string", "minLength": 1},
}
SHARED = tuple(sorted(COMMON)) + tuple(sorted(PAGE_PARAMS))  # described once, under components/parameters


def describe(
    base: str, routes: Sequence[BaseRoute] = ROUTES, settings: Settings | None = None, world: World | None = None
) -> dict[str, Any]:
    """The OpenAPI 3.1 document of `routes` and the token endpoints, for the origin `base`; with
    `settings`, only the resources a sandbox so set serves (GET …/rateLimits needs buckets). The
    writes' examples name what `world` holds (by default, the world of the settings' seed)."""
    world = world or seed_world((settings or Settings()).seed)
    paths: dict[str, dict[str, Any]] = {}
    tags: dict[str, str] = {}
    seen: dict[str, str] = {}
    writes: list[Write] = []
    for template, resource in resources(routes):
        if settings is not None and not resource.served_with(settings):
            continue
        item = paths.setdefault(template, {})
        for method, handler in resource.handlers.items():
            item[method.lower()] = operation(template, method.lower(), handler, resource.versions, tags, seen, world)
            write = declared(handler)
            if write:
                writes.append(write)
    link_created(paths)
    for path, handler in ((TOKEN_PATH, oauth.token), (REVOKE_PATH, oauth.revoke)):
        paths[path] = {"post": token_operation(path, handler, tags, seen)}
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Service Sandbox API",
            "version": __version__,
            "description": "The explorer's sandbox, described from its own route table.",
        },
        "servers": [{"url": base}],
        "security": [{"ServiceAccounts": []}, {"DigestAuth": []}],
        "tags": [{"name": name, "description": text} for name, text in sorted(tags.items())],
        "paths": paths,
        "components": components(base, body_schemas(writes)),
    }


def resources(routes: Sequence[BaseRoute], prefix: str = "") -> Iterator[tuple[str, Resource]]:
    """(path template, Resource) of every route, Mounts walked, converters dropped."""
    for route in routes:
        if isinstance(route, Mount):
            yield from resources(route.routes, prefix + route.path)
        elif isinstance(route, Route) and isinstance(owner := getattr(route.endpoint, "__self__", None), Resource):
            yield CONVERTER.sub(r"{\1}", prefix + route.path), owner
        else:
            raise TypeError(f"{prefix}{getattr(route, 'path', route)} is not a resource() of the route table")


def operation(
    template: str,
    method: str,
    handler: Handler,
    versions: Sequence[Version],
    tags: dict[str, str],
    seen: dict[str, str],
    world: World,
) -> dict[str, Any]:
    names = query_names(handler)
    listing = method == "get" and names >= PAGE_PARAMS
    described = common(template, handler, tags, seen)
    described["parameters"] = [
        *path_parameters(template),
        *(ref("parameters", name) for name in SHARED if name in COMMON | names),
        *(query_parameter(name) for name in sorted(names - PAGE_PARAMS - COMMON)),
    ]
    write = declared(handler)
    if method != "get" and write is None:
        raise ValueError(f"{handler.__module__}.{handler.__name__} ({template}) is a write not declared with writes()")
    if write and write.body:
        described["requestBody"] = request_body(write.body, versions, world)
    if write:
        status, answered = success(write, versions)
    else:
        status = "200"
        answered = {
            "description": "OK",
            "content": versioned(versions, answer("PaginatedList" if listing else "Entity")),
        }
    deprecated = ", ".join(v.date for v in versions if v.deprecated)
    if deprecated:
        header = {"description": f"On answers in {deprecated}, which is deprecated.", "schema": {"type": "string"}}
        answered["headers"] = {"Deprecation": header, "Sunset": header}
    errors = sorted({*EVERY, *(refusals(write) if write else ())})
    described["responses"] = {status: answered, **{code: ref("responses", ERRORS[code][0]) for code in errors}}
    roles = roles_of(template, method)
    if roles:
        described["x-rolesRequirements"] = list(roles)
    return described


def token_operation(path: str, handler: Handler, tags: dict[str, str], seen: dict[str, str]) -> dict[str, Any]:
    """The token endpoints: a form in, HTTP Basic with the service account's client ID and secret."""
    described = common(path, handler, tags, seen)
    field = "grant_type" if path == TOKEN_PATH else "token"
    described["security"] = [{"ClientCredentials": []}]
    described["parameters"] = [ref("parameters", name) for name in sorted(COMMON)]
    described["requestBody"] = {
        "required": True,
        "content": {
            oauth.FORM: {
                "schema": {"type": "object", "required": [field], "properties": {field: FORM_FIELDS[field]}},
            }
        },
    }
    if path == TOKEN_PATH:
        success = {"description": "OK", "content": versioned([Version(DEFAULT_VERSION)], answer("Token"))}
    else:
        success = {"description": "OK: revoked, or not a token of this client (RFC 7009)."}
    failure = {"content": {"application/json": {"schema": answer("OAuthError")}}}
    described["responses"] = {
        "200": success,
        "400": {"description": "Bad Request: the request is not as RFC 6749 asks.", **failure},
        "401": {"description": "Unauthorized: the client ID or secret is wrong.", **failure},
        "403": {"description": "Forbidden: the address is not on the access list.", **failure},
        "429": {"description": "Too Many Requests: retry after Retry-After seconds.", **failure},
    }
    return described


def common(path: str, handler: Handler, tags: dict[str, str], seen: dict[str, str]) -> dict[str, Any]:
    """operationId, summary, description and tag, from the handler's name, docstring and module."""
    doc = inspect.getdoc(handler)
    if not doc:
        raise ValueError(f"{handler.__module__}.{handler.__name__} ({path}) has no docstring to describe it with")
    operation_id = camel(handler.__name__)
    if operation_id in seen:
        raise ValueError(f"two handlers are named {handler.__name__}: of {seen[operation_id]} and of {path}")
    seen[operation_id] = path
    family = handler.__module__.rsplit(".", 1)[-1]
    tag = TAGS.get(family, family.replace("_", " ").title())
    module_doc = inspect.getdoc(inspect.getmodule(handler)) or tag
    tags.setdefault(tag, module_doc.split("\n\n", 1)[0].replace("\n", " "))
    summary, _, rest = doc.partition("\n\n")
    described: dict[str, Any] = {
        "operationId": operation_id,
        "summary": " ".join(summary.split()),
        "tags": [tag],
    }
    if rest.strip():
        described["description"] = rest.strip()
    return described


def camel(name: str) -> str:
    """list_clusters -> listClusters."""
    first, *rest = name.split("_")
    return first + "".join(word[:1].upper() + word[1:] for word in rest)


def path_parameters(template: str) -> list[dict[str, Any]]:
    return [
        {"name": name, "in": "path", "required": True, "schema": PATH_SCHEMAS.get(name, {"type": "string"})}
        for name in CONVERTER.findall(template)
    ]


def query_parameter(name: str) -> dict[str, Any]:
    described: dict[str, Any] = {"name": name, "in": "query", "schema": QUERY_SCHEMAS.get(name, {"type": "string"})}
    if name in QUERY_TEXT:
        described["description"] = QUERY_TEXT[name]
    return described


def roles_of(template: str, method: str) -> tuple[str, ...]:
    for prefix, methods, roles in ROLES:
        if (template == prefix or template.startswith(prefix + "/")) and (methods is None or method in methods):
            return roles
    return ()


def components(base: str, bodies: dict[str, dict[str, Any]]) -> dict[str, Any]:
    error = {"application/json": {"schema": answer("ApiError")}}
    error_code = {"description": "The errorCode of the document.", "schema": {"type": "string"}}
    responses: dict[str, dict[str, Any]] = {
        name: {"description": text, "content": error} for name, text in ERRORS.values()
    }
    for response in responses.values():
        response["headers"] = {"X-Error-Code": error_code}
    responses["tooManyRequests"]["headers"]["Retry-After"] = {
        "description": "Seconds to wait before asking again.",
        "schema": {"type": "integer"},
    }
    return {
        "parameters": {name: query_parameter(name) for name in SHARED},
        "responses": responses,
        "schemas": {**ANSWERS, **bodies},
        "securitySchemes": {
            "ServiceAccounts": {
                "type": "oauth2",
                "description": "A service account's Bearer token, from the token endpoint.",
                "flows": {"clientCredentials": {"tokenUrl": base + TOKEN_PATH, "scopes": {}}},
            },
            "DigestAuth": {"type": "http", "scheme": "digest", "description": "An API key: public and private key."},
            "ClientCredentials": {
                "type": "http",
                "scheme": "basic",
                "description": "The service account's client ID and secret, at the token endpoints only.",
            },
        },
    }


async def description(request: Request) -> Response:
    """The API description, OpenAPI 3.1 JSON, for the origin this request came to; no credentials.

    Made once per origin for each sandbox (its settings and its world's examples are its own)."""
    sandbox = request.app.state.sandbox
    base = origin(request.scope)
    body = sandbox.descriptions.get(base)
    if body is None:
        if len(sandbox.descriptions) >= 16:
            sandbox.descriptions.clear()
        document = describe(base, ROUTES, sandbox.settings, sandbox.world)
        body = sandbox.descriptions[base] = json.dumps(document, separators=(",", ":")).encode("utf-8")
    return Response(body, headers=common_headers(sandbox.clock()), media_type="application/json")
