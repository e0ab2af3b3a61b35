"""Token buckets, as the real service limits now: one per set of endpoints and scope.

A bucket holds a burst of `capacity` requests and is refilled by `refill_rate` every
`refill_seconds`. The sandbox's figures are small enough for a class to see them move. No
Starlette here: the command line reads these figures for its banner and its drills.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class EndpointSet:
    """Requests that share a bucket per scope: per project, per organization or per user."""

    id: str
    name: str
    scope: str  # PROJECT, ORGANIZATION or USER
    requests: str  # which requests, in words
    capacity: int
    refill_rate: int
    refill_seconds: int


ENDPOINT_SETS = (
    EndpointSet("projectReads", "Project reads", "PROJECT", "GET and HEAD of a project and below it", 20, 5, 10),
    EndpointSet(
        "organizationReads",
        "Organization reads",
        "ORGANIZATION",
        "GET and HEAD of an organization and below it",
        10,
        2,
        10,
    ),
    EndpointSet("otherRequests", "Other requests", "USER", "every other request, writes included", 30, 5, 10),
)


class Bucket:
    """Tokens that refill in steps: `refill_rate` every `refill_seconds`, counted from the first
    token taken from a full bucket, never above `capacity`."""

    __slots__ = ("tokens", "since")

    def __init__(self, capacity: int, now: float) -> None:
        self.tokens = capacity
        self.since = now  # when the current refill step began

    def refill(self, spec: EndpointSet, now: float) -> None:
        steps = int((now - self.since) // spec.refill_seconds)
        self.tokens = min(spec.capacity, self.tokens + steps * spec.refill_rate)
        self.since = now if self.tokens == spec.capacity else self.since + steps * spec.refill_seconds
