"""A write's body checked as it is typed: JSON first, then the API description's schema for it.

    problems = check_body(text, description.request_schema(operation))
    for problem in problems: print(problem.line, problem.message)

Each problem names the line it is on, so an editor can mark it. The schema is checked by jsonschema
(the library that defines what a JSON Schema means), as OpenAPI 3.1 asks: JSON Schema 2020-12.
A schema that is itself broken is no reason to refuse a body: it is said once, as a problem of the
description, and the body is held only to JSON.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from explorer.api.changes import jq_path, truncate
from explorer.api.counts import counted
from explorer.api.json_errors import line_and_column, plain_words

MAX_PROBLEMS = 5  # problems listed at most: the first ones are what a person fixes first


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
        line, column = line_and_column(error)
        return [Problem(line, f"not JSON: {plain_words(error)} (column {column})")]
    except RecursionError:
        return [Problem(1, "not JSON this explorer can read: nested too deeply")]
    if schema is None:
        return []
    return schema_problems(text, document, schema)


def body_validator(schema: Mapping[str, Any]) -> Any:
    r"""jsonschema's 2020-12 validator of `schema`, its `pattern`'s `$` read as JSON Schema's (ECMA-262)
    end of the text: Python's also matches before a final newline, so that a name ending in one would
    pass a pattern the service holds it to. Python's `re` reads the rest (`\d` takes any digit)."""
    return validator_class()(dict(schema))


@functools.cache
def validator_class() -> Any:
    """Draft 2020-12 with `pattern` as body_validator reads it: made once, not at each check."""
    from jsonschema import Draft202012Validator, ValidationError, validators

    def pattern(validator: Any, expected: str, instance: Any, schema: Any) -> Iterator[ValidationError]:
        if isinstance(instance, str) and re.search(ecma_end(expected), instance) is None:
            yield ValidationError(f"{instance!r} does not match {expected!r}")

    return validators.extend(Draft202012Validator, {"pattern": pattern})  # type: ignore[no-untyped-call]


def ecma_end(pattern: str) -> str:
    r"""`pattern` with each `$` outside a character class and not escaped written `\Z`: the end."""
    out, escaped, in_class = [], False, False
    for character in pattern:
        if escaped:
            escaped = False
        elif character == "\\":
            escaped = True
        elif character == "[":
            in_class = True
        elif character == "]":
            in_class = False
        elif character == "$" and not in_class:
            character = "\\Z"
        out.append(character)
    return "".join(out)


def schema_problems(text: str, document: Any, schema: Mapping[str, Any]) -> list[Problem]:
    """What `schema` finds wrong with `document` (the JSON of `text`), each on its line, MAX_PROBLEMS at most."""
    try:
        validator = body_validator(schema)
        found = sorted(validator.iter_errors(document), key=lambda error: list(map(str, error.absolute_path)))
    except Exception as error:  # a broken schema, a $ref it cannot follow: the body is held to JSON only
        reason = str(getattr(error, "message", error)).splitlines()[0][:120] if str(error) else type(error).__name__
        return [Problem(1, f"the API description's schema for this body cannot be used ({reason}); JSON only")]
    problems = []
    for each in found[:MAX_PROBLEMS]:
        path = list(each.absolute_path)
        field = str(path[0]) if path and isinstance(path[0], str) else None
        at = path
        if each.validator == "required" and not path:
            missing = re.match(r"'([^']+)' is a required property", each.message)
            field = missing.group(1) if missing else None
        if each.validator == "additionalProperties":
            extra = re.findall(r"'([^']+)'", each.message)
            at = path + extra[:1]  # on the unexpected field's own line
            field = field or (extra[0] if extra else None)
        where = jq_path(path) if path else "the body"
        problems.append(Problem(line_of(text, at), f"{where}: {describe_violation(each)}", field))
    if len(found) > MAX_PROBLEMS:
        problems.append(Problem(problems[-1].line, f"and {len(found) - MAX_PROBLEMS} more"))
    return problems


BOUNDS = {"maximum": "at most", "minimum": "at least", "exclusiveMaximum": "below", "exclusiveMinimum": "above"}
TYPE_NAMES = {"object": "an object", "array": "an array", "integer": "an integer", "null": "null"}
SIZES = {  # rule: (what is counted, the bound's words)
    "maxLength": ("character", "at most"),
    "minLength": ("character", "at least"),
    "maxItems": ("item", "at most"),
    "minItems": ("item", "at least"),
    "maxProperties": ("field", "at most"),
    "minProperties": ("field", "at least"),
}
RULES = {  # rules said in words of their own: what the rule asks, never the value that breaks it
    "multipleOf": "must be a multiple of {value}",
    "uniqueItems": "has an item more than once",
    "contains": "has no item of the kind its schema asks for",
    "minContains": "has fewer than {value} items of the kind its schema asks for",
    "maxContains": "has more than {value} items of the kind its schema asks for",
    "not": "is a value its schema rules out",
    "items": "has more items than its schema allows",
    "unevaluatedItems": "has more items than its schema allows",
    "propertyNames": "has a field name its schema does not allow",
}
NAMING = ("required", "additionalProperties", "unevaluatedProperties", "dependentRequired")  # say field names


def describe_violation(error: Any) -> str:
    """A jsonschema error in a few words: the rule and the value's size or kind, never the value
    itself (a password, a 3,000-character string, a 5,000-item list) nor Python's spelling of it:
    jsonschema's own message quotes the value, so it is never shown. A field's name, and what the
    schema itself says (its bounds, its choices, its pattern), are said."""
    rule, value, instance = error.validator, error.validator_value, error.instance
    if rule == "type":
        kinds = value if isinstance(value, list) else [value]
        wanted = " or ".join(TYPE_NAMES.get(kind, f"a {kind}") for kind in kinds)
        return f"must be {wanted}, not {json_kind(instance)}"
    if rule in SIZES and isinstance(instance, str | list | dict):
        unit, bound = SIZES[rule]
        return f"{counted(len(instance), unit)}: {bound} {value} are allowed"
    if rule in BOUNDS:
        return f"must be {BOUNDS[rule]} {value}"
    if rule == "enum" and isinstance(value, list):
        shown = ", ".join(shortened(choice) for choice in value[:8]) + (", …" if len(value) > 8 else "")
        return f"must be one of {shown}"
    if rule == "const":
        return f"must be {shortened(value)}"
    if rule == "pattern":
        refused = f"has a character or a form its pattern does not allow ({shortened(value)})"
        said = error.schema.get("description") if isinstance(error.schema, Mapping) else None
        if isinstance(said, str) and said.strip():  # the field in words, beside its expression cut short
            return f"{refused}; the field: {truncate(' '.join(said.split()), 80)}"
        return refused
    if rule == "format":
        return f"is not a valid {value}"
    if rule in ("oneOf", "anyOf") and isinstance(value, list):
        if not error.context:
            return f"matches more than one of the {len(value)} forms it may take"
        from jsonschema.exceptions import best_match

        closest = best_match(error.context)
        return f"matches none of the {len(value)} forms it may take; the closest: {describe_violation(closest)}"
    if rule in NAMING:
        return describe_fields(rule, str(error.message))
    if rule in RULES:
        return RULES[rule].format(value=value)
    if rule is None:  # a `false` schema: nothing is allowed here
        return "is not allowed here by its schema"
    return f"is not what its schema's {rule} rule allows"


def describe_fields(rule: str, message: str) -> str:
    """The fields a required, additionalProperties or dependentRequired error names, in plain words
    (jsonschema says `'name' is a required property`, `Additional properties are not allowed ('bogus'
    was unexpected)`); a few words of the rule's own when it is not of the form known (never
    jsonschema's message: an unknown form might quote a value)."""
    message = message.split(" does not match any of the regexes")[0]  # the names, not the schema's patterns
    names = re.findall(r"'((?:[^'\\]|\\.)*)'", message)
    if not names:
        return f"is not what its schema's {rule} rule allows"
    if rule == "required":
        return f"{names[0]} is missing, and it is required"
    if rule == "dependentRequired" and len(names) == 2:
        return f"{names[1]} needs {names[0]} beside it"
    listed = ", ".join(names)
    return f"{listed} {'is' if len(names) == 1 else 'are'} not among its fields"


def json_kind(value: Any) -> str:
    """What a JSON value is, as a person says it: a string, a number, an object, and so on."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    return "an array" if isinstance(value, list) else "an object"


def shortened(value: Any, limit: int = 40) -> str:
    """A value as JSON, cut to `limit` characters."""
    return truncate(json.dumps(value, ensure_ascii=False), limit)


def line_of(text: str, path: list[str | int] | list[str]) -> int:
    """The line (1-based) where the value at `path` (object keys and array indexes) is in `text`.

    Followed through the JSON itself, so an index finds its item; a path it cannot follow there (a
    field named anywhere in an array of entries) is looked for by its keys, in order; 1 if neither."""
    at = offset_of(text, path)
    if at is None:
        at, start = 0, 0
        for key in (part for part in path if isinstance(part, str)):
            found = re.compile(re.escape(json.dumps(key)) + r"\s*:").search(text, start)
            if found is None:
                break
            at = start = found.start()
    return text.count("\n", 0, at) + 1


SPACE = re.compile(r"\s*")


def offset_of(text: str, path: list[str | int] | list[str]) -> int | None:
    """Where in `text` the value at `path` starts (its key's place, for an object's field); None
    when the path is not in it."""
    decoder = json.JSONDecoder()

    def skip(at: int) -> int:
        return SPACE.match(text, at).end()  # type: ignore[union-attr]

    at = skip(0)
    try:
        for depth, part in enumerate(path, 1):
            if isinstance(part, str) and text.startswith("{", at):
                at = skip(at + 1)
                while not text.startswith("}", at):
                    key_at = at
                    key, at = decoder.raw_decode(text, at)
                    at = skip(skip(at) + 1)  # past the colon
                    if key == part:
                        break
                    _, at = decoder.raw_decode(text, at)
                    at = skip(at)
                    at = skip(at + 1) if text.startswith(",", at) else at
                else:
                    return None
                if depth == len(path):
                    return key_at
            elif isinstance(part, int) and text.startswith("[", at):
                at = skip(at + 1)
                for _ in range(part):
                    _, at = decoder.raw_decode(text, at)
                    at = skip(at)
                    at = skip(at + 1) if text.startswith(",", at) else at
            else:
                return None
    except (ValueError, RecursionError):
        return None
    return at


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
