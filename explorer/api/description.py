"""The API description: what an OpenAPI document says of each path, indexed for the explorer.

The real service links sparsely (its root links only itself) but publishes an OpenAPI 3
description of every path. Given one (`Credentials.openapi`), the explorer can offer the paths
a resource's links leave out, ask each operation for its newest version, and name the roles a
refusal is about. A description is a few megabytes of JSON or YAML; what the explorer needs of
it is an index of a few hundred kilobytes, which is kept in the user's cache directory under the
document's content hash, so only the first start with a given document pays for parsing it.

Nothing here trusts the document: a field of the wrong type is passed over, never raised on.

One module for reading, indexing, caching and looking up, on purpose: the index's shape is what all
four agree on (INDEX_FORMAT), and a change to it is a change to each.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import httpx

from explorer.api.errors import ApiError
from explorer.api.json_errors import why_not_json
from explorer.api.urls import is_loopback

INDEX_FORMAT = 2  # raise when the index's shape changes: older cached indexes are then remade
MAX_BYTES = 64 * 1024 * 1024  # a description larger than this is refused, named with its size
METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
WRITES = ("post", "put", "patch", "delete")
SCHEMA_REF = re.compile(r"^#/components/schemas/([^/]+)$")
MEDIA_VERSION = re.compile(r"^application/vnd\.([A-Za-z0-9_-]+)\.(\d{4}-\d{2}-\d{2})\+json", re.IGNORECASE)
DESCRIPTION_TYPES = "application/json, application/yaml;q=0.9, application/x-yaml;q=0.9, */*;q=0.1"
VARIABLE = re.compile(r"^\{([^{}/]+)\}$")


class DescriptionError(ApiError):
    """A description that cannot be used, and why. The explorer goes on without it."""

    def __init__(self, source: str, why: str) -> None:
        super().__init__(
            "description",
            f"The API description {source} cannot be used: {why}",
            hint="The explorer goes on without it: links only, and the default version. "
            "Give a file or URL of the service's OpenAPI 3 description (JSON or YAML).",
            setting="description",
        )


@dataclass(frozen=True)
class Operation:
    """One method on one path, as the description documents it."""

    method: str
    template: str  # the full path template, e.g. /api/atlas/v2/groups/{groupId}/clusters
    operation_id: str | None = None
    summary: str | None = None
    tags: tuple[str, ...] = ()
    versions: tuple[str, ...] = ()  # dated versions it is served in, oldest first
    sunsets: Mapping[str, str] = field(default_factory=dict)  # version -> the day it stops
    deprecated: bool = False
    sunset: str | None = None  # the day the operation itself stops, when it says
    roles: tuple[str, ...] = ()  # x-rolesRequirements
    request: Mapping[str, Any] | None = None  # a write's JSON request schema, as written ($refs and all)
    example: Any = None  # a write's example request body, when the description gives one

    @property
    def newest_version(self) -> str | None:
        """The newest version with no sunset announced; the newest of all if every one has one."""
        stable = [v for v in self.versions if v not in self.sunsets]
        chosen = stable or list(self.versions)
        return chosen[-1] if chosen else None

    def to_json(self) -> dict[str, Any]:
        """The operation as the cached index keeps it (from_json reads it back)."""
        return {
            "method": self.method,
            "template": self.template,
            "operation_id": self.operation_id,
            "summary": self.summary,
            "tags": list(self.tags),
            "versions": list(self.versions),
            "sunsets": dict(self.sunsets),
            "deprecated": self.deprecated,
            "sunset": self.sunset,
            "roles": list(self.roles),
            "request": self.request,
            "example": self.example,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Operation:
        """An operation from the cached index (to_json wrote it)."""
        return cls(
            method=data["method"],
            template=data["template"],
            operation_id=data.get("operation_id"),
            summary=data.get("summary"),
            tags=tuple(data.get("tags", ())),
            versions=tuple(data.get("versions", ())),
            sunsets=dict(data.get("sunsets", {})),
            deprecated=bool(data.get("deprecated")),
            sunset=data.get("sunset"),
            roles=tuple(data.get("roles", ())),
            request=data.get("request"),
            example=data.get("example"),
        )


@dataclass(frozen=True)
class Child:
    """A documented path below a resource: `events` below a project, its variables bound."""

    name: str  # the segments below the parent, e.g. "events" or "matchers/fieldNames"
    path: str  # the parent's path and `name`, ready to fetch
    template: str


@dataclass(frozen=True)
class Match:
    """A path matched to a template, with the values of its variables."""

    template: str
    values: Mapping[str, str]


class Description:
    """The index of one API description: its operations by template, and the template tree."""

    def __init__(
        self,
        source: str,
        operations: Iterable[Operation],
        vendor: str | None,
        title: str | None,
        schemas: Mapping[str, Any] | None = None,
    ) -> None:
        self.source = source
        self.schemas: Mapping[str, Any] = schemas or {}  # components/schemas a write's request refers to
        self.vendor = vendor  # from its versioned media types: `atlas` for application/vnd.atlas.…+json
        self.title = title
        self.operations: dict[tuple[str, str], Operation] = {}
        self.templates: dict[str, tuple[str, ...]] = {}  # template -> its segments
        self.tree: dict[str, Any] = {}  # segment (a variable is "{}") -> subtree; "" marks a template's end
        for operation in operations:
            self.operations[(operation.template, operation.method)] = operation
            if operation.template not in self.templates:
                segments = split(operation.template)
                self.templates[operation.template] = segments
                node = self.tree
                for segment in segments:
                    node = node.setdefault("{}" if VARIABLE.match(segment) else segment, {})
                node[""] = operation.template

    def __len__(self) -> int:
        return len(self.templates)

    def __repr__(self) -> str:
        return f"<Description {self.source}: {len(self.templates)} paths, {len(self.operations)} operations>"

    # Matching --------------------------------------------------------------------------------

    def match(self, path: str) -> Match | None:
        """The template `path` is an instance of (literal segments before variables), or None."""
        segments = split(path)
        template = find(self.tree, segments, 0)
        if template is None:
            return None
        values = {
            name.group(1): value
            for pattern, value in zip(self.templates[template], segments, strict=True)
            if (name := VARIABLE.match(pattern))
        }
        return Match(template, values)

    def knows(self, path: str) -> bool:
        """Whether the description documents `path` (a template matches it)."""
        return self.match(path) is not None

    def operation(self, path: str, method: str = "GET") -> Operation | None:
        """What the description says of `method` on `path` (a URL's path, or a template)."""
        found = self.match(path)
        return None if found is None else self.operations.get((found.template, method.lower()))

    def writes(self, path: str) -> list[Operation]:
        """The writes documented on `path` (POST, PUT, PATCH, DELETE), in that order."""
        found = self.match(path)
        if found is None:
            return []
        return [op for method in WRITES if (op := self.operations.get((found.template, method))) is not None]

    def request_schema(self, operation: Operation) -> dict[str, Any] | None:
        """A write's request schema whole, for a JSON Schema validator: its $refs resolve within it."""
        if not isinstance(operation.request, Mapping):
            return None
        return {**operation.request, "components": {"schemas": dict(self.schemas)}}

    # What lies below ---------------------------------------------------------------------------

    def below(self, path: str) -> Mapping[str, Any] | None:
        """The subtree of templates under `path`: by its template where one matches, else by its
        segments (a literal before a variable), for a path that is not itself documented."""
        found = self.match(path)
        segments = self.templates[found.template] if found else split(path)
        node: Mapping[str, Any] = self.tree
        for segment in segments:
            key = "{}" if found and VARIABLE.match(segment) else segment
            below = node.get(key) if key in node else node.get("{}")
            if below is None:
                return None
            node = below
        return node

    def children(self, path: str) -> list[Child]:
        """The documented GET paths right below `path` that need no value `path` does not give.

        Right below: the first documented path on each branch of literal segments, so a project
        shows `clusters`, and `clusters` shows `provider/regions`. A branch that needs a variable
        (`{clusterName}`) is reached through the list that names its values, not from here.
        """
        node = self.below(path)
        if node is None:
            return []
        base = path.split("?", 1)[0].rstrip("/")
        found = [
            Child("/".join(names), f"{base}/{'/'.join(names)}", template)
            for names, template in literal_ends(node, ())
            if (template, "get") in self.operations
        ]
        return sorted(found, key=lambda child: child.name.lower())

    def item_template(self, path: str) -> str | None:
        """The template of one item of the list at `path` (`…/clusters/{clusterName}`), if documented."""
        node = self.below(path)
        item = node.get("{}") if node else None
        template = item.get("") if item else None
        return template if (template, "get") in self.operations else None

    def completions(self, text: str) -> list[str]:
        """Documented paths that continue `text` by one segment, a variable written `{name}`.

        A literal segment that is only a step towards documented paths (`…/backup`, below which
        are `restoreJobs` and `snapshots`) ends with `/`, so that what lies below it is offered
        next; a documented path stays as it is, whatever is below it.
        """
        head, _, partial = text.rpartition("/")
        node = self.below(head)
        if node is None:
            return []
        depth = len(split(head))
        names: set[str] = set()
        for key, below in node.items():
            if key == "{}":
                key = variable_names(below, self.templates, depth) or ""
            elif key and "" not in below:
                key += "/"
            if key and key.startswith(partial):
                names.add(key)
        return [f"{head}/{name}" for name in sorted(names, key=str.lower)]

    # Caching -----------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The index as the description cache keeps it (from_json reads it back)."""
        return {
            "format": INDEX_FORMAT,
            "vendor": self.vendor,
            "title": self.title,
            "operations": [operation.to_json() for operation in self.operations.values()],
            "schemas": dict(self.schemas),
        }

    @classmethod
    def from_json(cls, source: str, data: Mapping[str, Any]) -> Description:
        """An index from the description cache (to_json wrote it)."""
        if data.get("format") != INDEX_FORMAT:
            raise ValueError("an index of another format")
        operations = [Operation.from_json(item) for item in data["operations"]]
        schemas = data.get("schemas")
        return cls(
            source, operations, data.get("vendor"), data.get("title"), schemas if isinstance(schemas, dict) else {}
        )


def split(path: str) -> tuple[str, ...]:
    """A path's segments, percent-decoded, without the empty ones a trailing slash makes."""
    return tuple(unquote(segment) for segment in path.split("?", 1)[0].split("/") if segment)


def find(node: Mapping[str, Any], segments: tuple[str, ...], at: int) -> str | None:
    """Walk the template tree, trying a literal segment before a variable (backtracking)."""
    if at == len(segments):
        return node.get("")
    for key in (segments[at], "{}"):
        below = node.get(key)
        if below is not None and (found := find(below, segments, at + 1)) is not None:
            return found
    return None


def literal_ends(node: Mapping[str, Any], names: tuple[str, ...]) -> Iterator[tuple[tuple[str, ...], str]]:
    """The first template end along each branch of literal segments below `node`."""
    for key, below in node.items():
        if not key or key == "{}":
            continue
        here = (*names, key)
        if "" in below:
            yield here, below[""]
        else:
            yield from literal_ends(below, here)


def variable_names(node: Mapping[str, Any], templates: Mapping[str, tuple[str, ...]], at: int) -> str | None:
    """The `{name}` a variable segment is written as, from any template through it."""
    stack = [node]
    while stack:
        here = stack.pop()
        if "" in here:
            return templates[here[""]][at]
        stack.extend(value for key, value in here.items() if key)
    return None


# Indexing a document ---------------------------------------------------------------------------


def index(source: str, document: Any) -> Description:
    """The Description of a parsed OpenAPI document; DescriptionError if it is not one."""
    if not isinstance(document, dict):
        raise DescriptionError(source, "it is not an OpenAPI document (no object at its top)")
    version = document.get("openapi")
    if not isinstance(version, str) or not version.startswith("3."):
        found = "no openapi field" if version is None else f"openapi is {str(version)[:20]!r}"
        raise DescriptionError(source, f"it is not an OpenAPI 3 document ({found})")
    paths = document.get("paths")
    if not isinstance(paths, dict) or not paths:
        raise DescriptionError(source, "it documents no paths")
    prefix = server_path(document.get("servers"))
    operations: list[Operation] = []
    vendors: dict[str, int] = {}
    for path, item in paths.items():
        if not isinstance(path, str) or not path.startswith("/") or not isinstance(item, dict):
            continue
        template = prefix + path.rstrip("/") if path != "/" else prefix or "/"
        for method in METHODS:
            operation = item.get(method)
            if isinstance(operation, dict):
                operations.append(operation_of(method, template, operation, vendors))
    if not operations:
        raise DescriptionError(source, "it documents no operations")
    info = document.get("info")
    title = info.get("title") if isinstance(info, dict) and isinstance(info.get("title"), str) else None
    vendor = max(vendors, key=vendors.__getitem__) if vendors else None
    components = document.get("components")
    schemas = components.get("schemas") if isinstance(components, dict) else None
    used = referred(
        [operation.request for operation in operations if operation.request is not None],
        schemas if isinstance(schemas, dict) else {},
    )
    return Description(source, operations, vendor, title, used)


def referred(roots: list[Any], schemas: Mapping[str, Any]) -> dict[str, Any]:
    """The component schemas `roots` refer to, directly or through each other: what a write's
    request needs to be checked, and no more of a description that holds thousands."""
    found: dict[str, Any] = {}
    waiting = list(roots)
    while waiting:
        value = waiting.pop()
        if isinstance(value, dict):
            target = value.get("$ref")
            name = SCHEMA_REF.match(target) if isinstance(target, str) else None
            if name and name.group(1) not in found and name.group(1) in schemas:
                found[name.group(1)] = schemas[name.group(1)]
                waiting.append(schemas[name.group(1)])
            waiting.extend(value.values())
        elif isinstance(value, list):
            waiting.extend(value)
    return found


def request_of(operation: Mapping[str, Any]) -> tuple[Mapping[str, Any] | None, Any]:
    """A write's JSON request schema and example: from its first JSON media type (plain or vendor)."""
    body = operation.get("requestBody")
    content = body.get("content") if isinstance(body, dict) else None
    for media_type, described in content.items() if isinstance(content, dict) else ():
        if isinstance(described, dict) and "json" in str(media_type).lower():
            schema = described.get("schema")
            example = described.get("example")
            examples = described.get("examples")
            if example is None and isinstance(examples, dict):
                first = next(iter(examples.values()), None)
                example = first.get("value") if isinstance(first, dict) else None
            return (schema if isinstance(schema, dict) else None), example
    return None, None


def server_path(servers: Any) -> str:
    """The path of the first server's URL (`/api/v2` of https://host/api/v2): paths sit below it."""
    if isinstance(servers, list) and servers and isinstance(servers[0], dict):
        url = servers[0].get("url")
        if isinstance(url, str) and "{" not in url:
            return urlsplit(url).path.rstrip("/")
    return ""


def operation_of(method: str, template: str, operation: Mapping[str, Any], vendors: dict[str, int]) -> Operation:
    """What one operation of the document says: versions and sunsets, deprecation, roles, summary."""
    versions: set[str] = set()
    sunsets: dict[str, str] = {}
    responses = operation.get("responses")
    for status, response in responses.items() if isinstance(responses, dict) else ():
        if not str(status).startswith("2") or not isinstance(response, dict):
            continue
        content = response.get("content")
        for media_type, described in content.items() if isinstance(content, dict) else ():
            found = MEDIA_VERSION.match(str(media_type))
            if not found:
                continue
            vendors[found.group(1)] = vendors.get(found.group(1), 0) + 1
            versions.add(found.group(2))
            sunset = described.get("x-sunset") if isinstance(described, dict) else None
            if sunset is not None:
                sunsets[found.group(2)] = str(sunset)[:10]
    sunset = operation.get("x-sunset")
    roles = operation.get("x-rolesRequirements")
    tags = operation.get("tags")
    request, example = request_of(operation) if method in WRITES else (None, None)
    return Operation(
        method=method,
        template=template,
        operation_id=text_or_none(operation.get("operationId")),
        summary=text_or_none(operation.get("summary")),
        tags=tuple(t for t in tags if isinstance(t, str)) if isinstance(tags, list) else (),
        versions=tuple(sorted(versions)),
        sunsets=sunsets,
        deprecated=operation.get("deprecated") is True,
        sunset=None if sunset is None else str(sunset)[:10],
        roles=tuple(r for r in roles if isinstance(r, str)) if isinstance(roles, list) else (),
        request=request,
        example=example,
    )


def text_or_none(value: Any) -> str | None:
    """A non-blank string, or None: descriptions leave fields empty as often as out."""
    return value if isinstance(value, str) and value.strip() else None


# Reading a document ----------------------------------------------------------------------------


def parse(source: str, data: bytes) -> Any:
    """JSON or YAML (with libyaml's C loader where PyYAML has it), by its first character."""
    stripped = data.lstrip()
    if stripped.startswith((b"{", b"[")):
        try:
            return json.loads(data)
        except ValueError as error:
            raise DescriptionError(source, f"it is not valid JSON ({why_not_json(error)})") from None
        except RecursionError:
            raise DescriptionError(source, "it is not valid JSON (nested too deeply)") from None
    import yaml  # only a YAML description pays for importing it

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        return yaml.load(data, Loader=loader)
    except (yaml.YAMLError, RecursionError, ValueError) as error:
        problem = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise DescriptionError(source, f"it is neither JSON nor valid YAML ({problem})") from None


def from_bytes(source: str, data: bytes, cache: Path | None) -> Description:
    """The index of the document `data`: from the cache when this content was indexed before."""
    if len(data) > MAX_BYTES:
        raise DescriptionError(source, f"it is {len(data):,} bytes, more than the {MAX_BYTES:,} the explorer reads")
    digest = hashlib.sha256(data).hexdigest()
    cached = cache / f"{digest}.json" if cache is not None else None
    if cached is not None:
        try:
            return Description.from_json(source, json.loads(cached.read_bytes()))
        except (OSError, ValueError, KeyError, TypeError):
            pass  # not there yet, or unreadable: index it again
    description = index(source, parse(source, data))
    if cached is not None:
        keep(cached, json.dumps(description.to_json(), separators=(",", ":")).encode())
    return description


def keep(path: Path, data: bytes) -> None:
    """Write the index beside others, whole or not at all; a cache that cannot be written is skipped."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(f".{os.getpid()}.part")
        partial.write_bytes(data)
        partial.replace(path)
    except OSError:
        pass


def read_file(source: str) -> bytes:
    """A description file's bytes, within MAX_BYTES; DescriptionError saying why it cannot be read."""
    path = Path(source).expanduser()
    try:
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise DescriptionError(source, f"it is {size:,} bytes, more than the {MAX_BYTES:,} the explorer reads")
        return path.read_bytes()
    except FileNotFoundError:
        raise DescriptionError(source, "there is no such file") from None
    except IsADirectoryError:
        raise DescriptionError(source, "it is a directory") from None
    except OSError as error:
        raise DescriptionError(source, error.strerror or str(error)) from None


async def load(
    source: str, client: httpx.AsyncClient, cache: Path | None, headers: Mapping[str, str] | None = None
) -> Description:
    """Read, parse and index a description off the event loop; a URL is fetched without credentials,
    with `headers` beside its own Accept (the user's, on the API's origin: DescriptionLoader).

    DescriptionError says why it cannot be used: not there, not JSON or YAML, not OpenAPI 3.
    """
    if source.startswith(("https://", "http://")):
        data = await download(source, client, headers)
    else:
        data = await asyncio.to_thread(read_file, source)
    return await asyncio.to_thread(from_bytes, source, data, cache)


async def download(source: str, client: httpx.AsyncClient, headers: Mapping[str, str] | None = None) -> bytes:
    """A description's bytes from a URL, within MAX_BYTES; DescriptionError saying why not. Sent its
    own Accept, the client's User-Agent and `headers`: no credentials."""
    try:
        url = httpx.URL(source)
    except httpx.InvalidURL as error:
        raise DescriptionError(source, f"it is not a valid URL ({error})") from None
    if url.scheme == "http" and not is_loopback(url.host):
        raise DescriptionError(source, "plain http:// is read from loopback addresses only; use https://")
    try:
        # httpx.Auth() sends no credentials: a description is public, and may be on another host.
        response = await client.get(url, auth=httpx.Auth(), headers={**(headers or {}), "Accept": DESCRIPTION_TYPES})
    except httpx.HTTPError as error:
        raise DescriptionError(source, f"it could not be fetched ({type(error).__name__}: {error})") from None
    if response.status_code != 200:
        raise DescriptionError(source, f"it answered {response.status_code} {response.reason_phrase}")
    return response.content
