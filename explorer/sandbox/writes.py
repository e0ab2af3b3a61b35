"""Reading what a client writes: a JSON object, checked field by field (spec 2.10).

Invalid fields are rejected, not ignored: an unknown name, a read-only field changed, a missing
required field or a value of the wrong shape is a 400 naming the field. A body that is not JSON,
or not sent as JSON, never reaches a handler.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from starlette.requests import Request

from explorer.sandbox.bodies import BodyTooLarge, media_type_of, read_body
from explorer.sandbox.documents import ApiProblem
from explorer.sandbox.world import OBJECT_ID

JSON_TYPES = ("application/json",)
Check = Callable[[Any], str | None]  # None when the value is good, else what was expected


def reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


async def read_json(request: Request) -> dict[str, Any]:
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
        document = json.loads(body.decode("utf-8"), parse_constant=reject_constant)
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        raise ApiProblem(400, "INVALID_JSON", f"Received JSON is malformed: {error_text(error)}.", []) from None
    if not isinstance(document, dict):
        raise ApiProblem(400, "INVALID_JSON", "The request body must be a JSON object.", [])
    return document


def error_text(error: Exception) -> str:
    if isinstance(error, UnicodeDecodeError):
        return "the body is not UTF-8"
    if isinstance(error, RecursionError):
        return "it is nested too deeply"
    return str(error).rstrip(".")


@dataclass
class Fields:
    """The fields a resource accepts on create or update, and those it only reports."""

    writable: dict[str, Check]
    required: tuple[str, ...] = ()
    read_only: frozenset[str] = field(default_factory=frozenset)

    def check(self, body: dict[str, Any], current: dict[str, Any] | None = None) -> dict[str, Any]:
        """The writable fields of `body`; read-only ones may only repeat their current value."""
        for name, value in body.items():
            if name in self.writable:
                continue
            if name in self.read_only:
                if current is not None and current.get(name) == value:
                    continue
                raise ApiProblem(
                    400, "ATTRIBUTE_READ_ONLY", f"Attribute {name} is read-only and cannot be changed.", [name]
                )
            raise ApiProblem(400, "INVALID_ATTRIBUTE", f"Invalid attribute {name} specified.", [name])
        for name in self.required:
            if name not in body:
                raise ApiProblem(400, "MISSING_ATTRIBUTE", f"The required attribute {name} was not specified.", [name])
        for name, check in self.writable.items():
            if name in body:
                expected = check(body[name])
                if expected:
                    raise ApiProblem(
                        400, "INVALID_ATTRIBUTE", f"Invalid value for attribute {name}: expected {expected}.", [name]
                    )
        return {name: body[name] for name in self.writable if name in body}


def text(minimum: int = 1, maximum: int = 64) -> Check:
    def check(value: Any) -> str | None:
        if isinstance(value, str) and minimum <= len(value) <= maximum and value.isprintable():
            return None
        return f"a string of {minimum} to {maximum} printable characters"

    return check


def boolean(value: Any) -> str | None:
    return None if isinstance(value, bool) else "true or false"


def list_of(item: Check, description: str, minimum: int = 0, maximum: int = 100) -> Check:
    def check(value: Any) -> str | None:
        if isinstance(value, list) and minimum <= len(value) <= maximum and all(item(v) is None for v in value):
            return None
        return f"a list of {minimum} to {maximum} {description}"

    return check


def obj(shape: dict[str, Check], optional: tuple[str, ...] = ()) -> Check:
    def check(value: Any) -> str | None:
        if not isinstance(value, dict):
            return "an object"
        required = set(shape) - set(optional)
        if not required <= value.keys() <= shape.keys():
            return "an object"
        return None if all(shape[k](v) is None for k, v in value.items()) else "an object"

    return check


def identifier(value: Any) -> str | None:
    return None if isinstance(value, str) and OBJECT_ID.fullmatch(value) else "an ID of 24 hexadecimal characters"


TAG = obj({"key": text(1, 255), "value": text(1, 255)})
TAGS = list_of(TAG, "objects with key and value")
