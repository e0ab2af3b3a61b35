"""Resource versions (spec 9): which dates each resource serves, and which version a request gets.

The one table of versions: the route table names, per resource, the versions it serves
(resources/__init__.py), the API description documents them (openapi.py), and `negotiate` picks
the one a request gets. A request names a version in its Accept header
(`application/vnd.service.2024-08-05+json`); the answer's Content-Type says the version served,
and a deprecated version's answers carry `Deprecation` and `Sunset` as the real service's do.

In lenient mode (the default) plain JSON, `*/*` or no Accept gets the first version; in strict
mode (`versions="strict"`), as on the real service's current API, a request must name a version
the resource serves, or it is 406 `INVALID_VERSION_DATE`.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from functools import cached_property

from explorer.sandbox.documents import VENDOR, ApiProblem, http_date

SCOPE_KEY = "explorer.version"  # where a request's negotiated Version waits for its handler
NAMED = re.compile(rf"application/vnd\.{VENDOR}\.([0-9]{{4}}-[0-9]{{2}}-[0-9]{{2}})\+json")
GENERIC = frozenset({"", "*/*", "application/*", "application/json"})


@dataclass(frozen=True)
class Version:
    """A version a resource serves; a deprecated one names the day it was deprecated and its sunset."""

    date: str
    deprecated: str | None = None  # the day a newer version replaced it
    sunset: str | None = None  # the day it stops being served

    @cached_property
    def headers(self) -> dict[str, str]:
        """`Deprecation` and `Sunset` as HTTP dates for a deprecated version; none otherwise."""
        if self.deprecated is None:
            return {}
        headers = {"Deprecation": midnight(self.deprecated)}
        if self.sunset:
            headers["Sunset"] = midnight(self.sunset)
        return headers


def midnight(day: str) -> str:
    """`2027-07-01` as the HTTP date of its first second: `Thu, 01 Jul 2027 00:00:00 GMT`."""
    return http_date(calendar.timegm(date.fromisoformat(day).timetuple()))


FIRST = Version("2023-01-01")
STABLE = (FIRST,)  # what every resource serves
CLUSTERS = (Version("2023-01-01", deprecated="2024-08-05", sunset="2027-07-01"), Version("2024-08-05"))


def invalid_version() -> ApiProblem:
    """The real service's answer to a request that names no version the resource serves."""
    return ApiProblem(406, "INVALID_VERSION_DATE", "Invalid accept header or version date.", [])


def negotiate(accept: str, served: Sequence[Version], strict: bool) -> Version:
    """The version of `served` that an Accept header selects: the first one it names, else (when
    lenient and it accepts plain JSON or anything) the first served; else 406."""
    named, generic = [], False
    for part in accept.split(","):
        media = part.split(";", 1)[0].strip().lower()
        match = NAMED.fullmatch(media)
        if match:
            named.append(match.group(1))
        elif media in GENERIC:
            generic = True
    for day in named:
        for version in served:
            if version.date == day:
                return version
    if strict or (named and not generic):
        raise invalid_version()
    return served[0]
