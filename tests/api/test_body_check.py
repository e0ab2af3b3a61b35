"""A schema's problems are said without the value that has them: the manual promises "never the
value itself" (a password, a token pasted in the wrong field, a 3,000-character string)."""

from __future__ import annotations

import json

import pytest

from explorer.api.body_check import check_body

SECRET = "hunter2-Sup3r"  # a value no message may quote, in any spelling


@pytest.mark.parametrize(
    ("schema", "said"),
    [
        ({"type": "integer", "maximum": 10}, "must be at most 10"),
        ({"type": "integer", "minimum": 100}, "must be at least 100"),
        ({"type": "integer", "exclusiveMaximum": 10}, "must be below 10"),
        ({"type": "integer", "multipleOf": 5}, "must be a multiple of 5"),
        ({"enum": [1, 2]}, "must be one of 1, 2"),
        ({"const": 7}, "must be 7"),
        ({"not": {"type": "integer"}}, "is a value its schema rules out"),
        ({"type": "string"}, "must be a string, not a number"),
    ],
)
def test_a_number_is_never_quoted_in_a_schema_message(schema, said):
    body = {"type": "object", "properties": {"size": schema}}
    problems = check_body(json.dumps({"size": 99}), body)
    assert [problem.message for problem in problems] == [f".size: {said}"]
    assert "99" not in problems[0].message


@pytest.mark.parametrize(
    ("schema", "said"),
    [
        ({"enum": ["lab", "prod"]}, 'must be one of "lab", "prod"'),
        ({"maxLength": 4}, "13 characters: at most 4 are allowed"),
        ({"pattern": "^[a-z]+$"}, 'has a character or a form its pattern does not allow ("^[a-z]+$")'),
        (
            {"pattern": "^[a-z]+$", "description": "A name\n in lower case."},
            'has a character or a form its pattern does not allow ("^[a-z]+$"); the field: A name in lower case.',
        ),
        ({"not": {"type": "string"}}, "is a value its schema rules out"),
        ({"type": "integer"}, "must be an integer, not a string"),
        (
            {"anyOf": [{"maxLength": 3}, {"type": "integer"}]},
            "matches none of the 2 forms it may take; the closest: 13 characters: at most 3 are allowed",
        ),
    ],
)
def test_a_secret_typed_in_a_field_is_never_quoted_in_a_schema_message(schema, said):
    body = {"type": "object", "properties": {"password": schema}}
    problems = check_body(json.dumps({"password": SECRET}), body)
    assert [problem.message for problem in problems] == [f".password: {said}"]
    assert SECRET not in problems[0].message


def test_items_and_fields_a_schema_refuses_are_counted_or_named_never_quoted():
    schema = {
        "type": "object",
        "properties": {
            "tags": {"type": "array", "prefixItems": [{}], "items": False, "uniqueItems": True},
            "labels": {"type": "object", "minProperties": 2},
        },
        "unevaluatedProperties": False,
    }
    body = {"tags": ["a", SECRET], "labels": {"k": SECRET}, "token": SECRET}
    problems = check_body(json.dumps(body), schema)
    assert [problem.message for problem in problems] == [
        "the body: token is not among its fields",
        ".labels: 1 field: at least 2 are allowed",
        ".tags: has more items than its schema allows",
    ]
