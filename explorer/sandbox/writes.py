"""Writes: reading the JSON a client sends, checked field by field (spec 2.10), and each write's
declaration, which both the sandbox and its API description read.

Invalid fields are rejected, not ignored: an unknown name, a read-only field changed, a missing
required field or a value of the wrong shape is a 400 naming the field. A body that is not JSON,
or not sent as JSON, never reaches a check.

A write handler is declared with `@writes(status, body)`: the body it takes (`Fields` for an
object, `Entries` for an array of them, each field a shape of shapes.py) and the status of its
success. The route table hands the declaration to the request before the handler runs
(resources/__init__.py); the handler reads its body through it (`read_fields`) and answers with its
status (`write_status`), and the API description (openapi.py) documents the same declaration: the
body's schema and example, the success, the refusals. One declaration, so they cannot drift.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from starlette.requests import Request

from explorer.sandbox.bodies import BodyTooLarge, media_type_of, read_body
from explorer.sandbox.documents import ApiProblem
from explorer.sandbox.shapes import Shape
from explorer.sandbox.world import World

JSON_TYPES = ("application/json",)
WRITE_KEY = "explorer.write"  # where a request's Write waits for its handler
F = TypeVar("F", bound=Callable[..., Any])
Example = Any  # a body, or a function of the seeded world making one (when it names an identifier)


def reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


async def read_json(request: Request) -> Any:
    """The JSON of the request's body: sent as JSON (else 415), within the size limit (else 413)."""
    media = media_type_of(request)
    if media not in JSON_TYPES and not (media.startswith("application/vnd.service.") and media.endswith("+json")):
        shown = media or "none"
        raise ApiProblem(
            415,
            "UNSUPPORTED_MEDIA_TYPE",
            f"Send the body as JSON with the header Content-Type: application/json (got {shown}).",
            [shown],
        )
    limit = request.app.state.sandbox.settings.max_body_bytes
    try:
        body = await read_body(request, limit)
    except BodyTooLarge:
        raise ApiProblem(413, "REQUEST_TOO_LARGE", f"The request body is larger than {limit} bytes.", [limit]) from None
    try:
        return json.loads(body.decode("utf-8"), parse_constant=reject_constant)
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        raise ApiProblem(400, "INVALID_JSON", f"Received JSON is malformed: {error_text(error)}.", []) from None


def error_text(error: Exception) -> str:
    if isinstance(error, UnicodeDecodeError):
        return "the body is not UTF-8"
    if isinstance(error, RecursionError):
        return "it is nested too deeply"
    return str(error).rstrip(".")


def invalid(code: str, detail: str, where: str, *names: str) -> ApiProblem:
    return ApiProblem(400, code, f"{detail}{where}.", names)


@dataclass(frozen=True)
class Fields:
    """An object a write takes: the fields a client may set, those it must, and those it only reads.

    `read_only` fields may repeat their current value (a PATCH of what was fetched) but not change
    it, nor be set on create; `one_of` names fields of which exactly one is given.
    """

    name: str  # its schema's name in the API description
    writable: dict[str, Shape]
    required: tuple[str, ...] = ()
    read_only: dict[str, Shape] = field(default_factory=dict)
    one_of: tuple[str, ...] = ()
    example: Example = None
    description: str = ""

    def check(self, body: Any, current: dict[str, Any] | None = None, where: str = "") -> dict[str, Any]:
        """The writable fields of `body`, each checked; `where` says which entry of a list it is."""
        if not isinstance(body, dict):
            raise ApiProblem(400, "INVALID_JSON", f"The request body must be a JSON object{where}.", [])
        for name, value in body.items():
            if name in self.writable:
                continue
            if name in self.read_only:
                if current is not None and current.get(name) == value:
                    continue
                raise invalid(
                    "ATTRIBUTE_READ_ONLY", f"Attribute {name} is read-only and cannot be changed", where, name
                )
            raise invalid("INVALID_ATTRIBUTE", f"Invalid attribute {name} specified", where, name)
        for name in self.required:
            if name not in body:
                raise invalid("MISSING_ATTRIBUTE", f"The required attribute {name} was not specified", where, name)
        given = [name for name in self.one_of if name in body]
        if self.one_of and not given:
            either = " attribute or the ".join(self.one_of)
            raise invalid(
                "MISSING_ONE_OF_ATTRIBUTES", f"Either the {either} attribute must be specified", where, *self.one_of
            )
        if len(given) > 1:
            raise invalid("INVALID_ATTRIBUTE", f"Give only one of {' and '.join(given)}", where, given[1])
        for name, shape in self.writable.items():
            if name in body:
                expected = shape.check(body[name])
                if expected:
                    detail = f"Invalid value for attribute {name}: expected {expected}"
                    raise invalid("INVALID_ATTRIBUTE", detail, where, name)
        return {name: body[name] for name in self.writable if name in body}

    def schema(self) -> dict[str, Any]:
        properties = {name: shape.schema() for name, shape in self.writable.items()}
        properties |= {name: {**shape.schema(), "readOnly": True} for name, shape in self.read_only.items()}
        described: dict[str, Any] = {"type": "object", "properties": properties}
        if self.description:
            described["description"] = self.description
        if self.required:
            described["required"] = list(self.required)
        if self.one_of:
            described["oneOf"] = [{"required": [name]} for name in self.one_of]
        described["additionalProperties"] = False
        return described

    def components(self) -> dict[str, dict[str, Any]]:
        return {self.name: self.schema()}


@dataclass(frozen=True)
class Entries:
    """An array of objects a write takes at once (the access list's entries), each one `item`."""

    name: str
    item: Fields
    minimum: int = 1
    maximum: int = 100
    example: Example = None
    description: str = ""

    def check(self, body: Any, current: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        if not isinstance(body, list) or not self.minimum <= len(body) <= self.maximum:
            detail = f"The request body must be a JSON array of {self.minimum} to {self.maximum} entries."
            raise ApiProblem(400, "INVALID_JSON", detail, [])
        return [self.item.check(entry, None, f" in entry {index}") for index, entry in enumerate(body, 1)]

    def schema(self) -> dict[str, Any]:
        described: dict[str, Any] = {"type": "array"}
        if self.description:
            described["description"] = self.description
        described["items"] = {"$ref": f"#/components/schemas/{self.item.name}"}
        return described | {"minItems": self.minimum, "maxItems": self.maximum}

    def components(self) -> dict[str, dict[str, Any]]:
        return {self.name: self.schema(), **self.item.components()}


Body = Fields | Entries


def example_of(body: Body, world: World) -> Any:
    """The body's example: one the sandbox accepts as it is, on the world as seeded."""
    return body.example(world) if callable(body.example) else body.example


@dataclass(frozen=True)
class Write:
    """What a write handler takes and answers: its body (None: it takes none), the status of its
    success, and the refusals it may give besides those every operation may (409)."""

    status: int
    body: Body | None = None
    refusals: tuple[int, ...] = ()
    description: str = ""  # the success, in words (the description's response)


def writes(
    status: int, body: Body | None = None, refusals: tuple[int, ...] = (), description: str = ""
) -> Callable[[F], F]:
    """Declare a write handler (see the module's docstring)."""

    def mark(handler: F) -> F:
        handler.write = Write(status, body, refusals, description)  # type: ignore[attr-defined]
        return handler

    return mark


def declared(handler: Callable[..., Any]) -> Write | None:
    """The declaration `writes` gave `handler`; None for a read."""
    found = getattr(handler, "write", None)
    return found if isinstance(found, Write) else None


def write_of(request: Request) -> Write:
    found = request.scope.get(WRITE_KEY)
    if not isinstance(found, Write):
        raise RuntimeError(f"{request.method} {request.url.path}: its handler was not declared with writes()")
    return found


async def read_fields(request: Request, current: dict[str, Any] | None = None) -> Any:
    """The request's body, checked by its handler's declaration; read-only fields of `current` (the
    entity as its client fetched it) may be repeated."""
    body = write_of(request).body
    if body is None:
        raise RuntimeError(f"{request.method} {request.url.path} was declared with no body to read")
    document = await read_json(request)
    return body.check(document, current)


def write_status(request: Request) -> int:
    """The status of the request's success, as its handler was declared (and described)."""
    return write_of(request).status
