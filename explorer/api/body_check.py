"""A write's body checked as it is typed: JSON first, then the API description's schema for it.

    problems = check_body(text, description.request_schema(operation))
    for problem in problems: print(problem.line, problem.message)

Each problem names the line it is on, so an editor can mark it. The schema is checked by jsonschema
(the library that defines what a JSON Schema means), as OpenAPI 3.1 asks: JSON Schema 2020-12.
A schema that is itself broken is no reason to refuse a body: it is said once, as a problem of the
description, and the body is held only to JSON.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

MOST = 5  # problems listed at most: the first ones are what a person fixes first


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a body: the line it is on (1-based; 0 when it is on none), what is wrong,
    and the field it names."""

    line: int
    message: str
    field: str | None = None  # the top-level field, when the problem is about one

    def text(self) -> str:
        """`line 3: 'name' is a required property`, or the message alone when it is on no line."""
        return f"line {self.line}: {self.message}" if self.line else self.message


def check_body(text: str, schema: Mapping[str, Any] | None = None) -> list[Problem]:
    """What is wrong with `text` as a request body: not JSON, or not what `schema` asks. Empty: fine."""
    if not text.strip():
        return []
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        return [Problem(error.lineno, f"not JSON: {error.msg} (column {error.colno})")]
    except RecursionError:
        return [Problem(1, "not JSON this explorer can read: nested too deeply")]
    if schema is None:
        return []
    return schema_problems(text, document, schema)


def schema_problems(text: str, document: Any, schema: Mapping[str, Any]) -> list[Problem]:
    """What `schema` finds wrong with `document` (the JSON of `text`), each on its line, MOST at most."""
    from jsonschema import Draft202012Validator

    try:
        validator = Draft202012Validator(dict(schema))
        found = sorted(validator.iter_errors(document), key=lambda error: list(map(str, error.absolute_path)))
    except Exception as error:  # a broken schema, a $ref it cannot follow: the body is held to JSON only
        said = str(getattr(error, "message", error)).splitlines()[0][:120] if str(error) else type(error).__name__
        return [Problem(1, f"the API description's schema for this body cannot be used ({said}); JSON only")]
    problems = []
    for each in found[:MOST]:
        path = list(each.absolute_path)
        named = [part for part in path if isinstance(part, str)]
        field = str(path[0]) if path and isinstance(path[0], str) else None
        if each.validator == "required" and not named:
            missing = re.match(r"'([^']+)' is a required property", each.message)
            field = missing.group(1) if missing else None
        if each.validator == "additionalProperties":
            extra = re.findall(r"'([^']+)'", each.message)
            field = extra[0] if extra and not named else field
            named = named + extra[:1]
        where = "." + ".".join(map(str, path)) if path else "the body"
        problems.append(Problem(line_of(text, named), f"{where}: {each.message}", field))
    if len(found) > MOST:
        problems.append(Problem(problems[-1].line, f"and {len(found) - MOST} more"))
    return problems


def line_of(text: str, keys: list[str]) -> int:
    """The line of the deepest of `keys` (object keys on the path to a value), found in order; 1 if none."""
    line, start = 1, 0
    for key in keys:
        found = re.compile(re.escape(json.dumps(key)) + r"\s*:").search(text, start)
        if found is None:
            break
        start = found.start()
        line = text.count("\n", 0, start) + 1
    return line


def top_schema(schema: Mapping[str, Any] | None) -> Mapping[str, Any] | None:
    """A request schema's own object schema: its $ref followed within it, an allOf's parts merged."""
    seen = 0
    while isinstance(schema, Mapping) and isinstance(schema.get("$ref"), str) and seen < 10:
        target = str(schema["$ref"])
        parts = target.removeprefix("#/").split("/") if target.startswith("#/") else []
        node: Any = schema
        for part in parts:
            node = node.get(part) if isinstance(node, Mapping) else None
        components = schema.get("components")
        schema = {**node, "components": components} if isinstance(node, Mapping) else None
        seen += 1
    if isinstance(schema, Mapping) and isinstance(schema.get("allOf"), list):
        properties: dict[str, Any] = dict(schema.get("properties") or {})
        for part in schema["allOf"]:
            resolved = (
                top_schema({**part, "components": schema.get("components")}) if isinstance(part, Mapping) else None
            )
            if resolved and isinstance(resolved.get("properties"), Mapping):
                properties.update(resolved["properties"])
        return {**schema, "properties": properties}
    return schema
