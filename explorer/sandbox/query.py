"""Query parameters, read strictly: an unknown name or a malformed value is a 400 document."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, TypeVar

from starlette.requests import Request

from explorer.sandbox.documents import BOOLEANS, ApiProblem, Format

COMMON = frozenset({"pretty", "envelope"})
INTEGER = re.compile(r"[+-]?[0-9]{1,18}")
LARGEST = 10**18 - 1  # the largest integer a query parameter may be (INTEGER's 18 digits)
F = TypeVar("F", bound=Callable[..., Any])


def takes(names: frozenset[str]) -> Callable[[F], F]:
    """Say which query parameters a handler reads besides pretty and envelope, for the API
    description (openapi.py); the handler still checks them with Query(request, names)."""

    def mark(handler: F) -> F:
        handler.query_names = frozenset(names)  # type: ignore[attr-defined]
        return handler

    return mark


def query_names(handler: Callable[..., Any]) -> frozenset[str]:
    """The query parameters `handler` was said to take (`takes`) besides pretty and envelope."""
    return getattr(handler, "query_names", frozenset())


def invalid(name: str, value: str, expected: str) -> ApiProblem:
    return ApiProblem(
        400,
        "INVALID_QUERY_PARAMETER",
        f"Invalid value {value!r} for query parameter {name}: {expected}.",
        [name, value],
    )


class Query:
    """The query string of one request, checked against the names its resource accepts."""

    def __init__(self, request: Request, accepted: frozenset[str] = frozenset()) -> None:
        self.params = request.query_params
        allowed = COMMON | accepted
        for name in self.params:
            if name not in allowed:
                raise ApiProblem(
                    400,
                    "INVALID_QUERY_PARAMETER",
                    f"Unknown query parameter {name}. Accepted here: {', '.join(sorted(allowed))}.",
                    [name],
                )
        self.format = Format(self.boolean("pretty", False), self.boolean("envelope", False))

    def one(self, name: str) -> str | None:
        values = self.params.getlist(name)
        if len(values) > 1:
            raise ApiProblem(
                400,
                "INVALID_QUERY_PARAMETER",
                f"Query parameter {name} was given {len(values)} times; give it once.",
                [name],
            )
        return values[0] if values else None

    def many(self, name: str) -> list[str]:
        return self.params.getlist(name)

    def boolean(self, name: str, default: bool) -> bool:
        value = self.one(name)
        if value is None:
            return default
        try:
            return BOOLEANS[value.lower()]
        except KeyError:
            raise invalid(name, value, "expected true or false") from None

    def integer(self, name: str, default: int, minimum: int, maximum: int | None = None) -> int:
        value = self.one(name)
        if value is None:
            return default
        bounds = f"an integer from {minimum} to {maximum}" if maximum else f"an integer of at least {minimum}"
        if not INTEGER.fullmatch(value):
            raise invalid(name, value, f"expected {bounds}")
        number = int(value)
        if number < minimum or (maximum is not None and number > maximum):
            raise invalid(name, value, f"expected {bounds}")
        return number

    def date(self, name: str) -> datetime | None:
        """An ISO 8601 date; without a zone designator UTC is assumed (spec 2.10)."""
        value = self.one(name)
        if value is None:
            return None
        return parse_date(name, value)

    def choice(self, name: str, choices: tuple[str, ...]) -> str | None:
        value = self.one(name)
        if value is not None and value not in choices:
            raise invalid(name, value, f"expected one of {', '.join(choices)}")
        return value


def parse_date(name: str, value: str) -> datetime:
    try:
        moment = datetime.fromisoformat(value.replace("z", "Z"))
    except ValueError:
        raise invalid(name, value, "expected an ISO 8601 date such as 2026-08-10T03:00:00Z") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)
