"""Rate limits as the gate applies them: the spec's fixed one-minute windows per project
(spec 8, the default), or the real service's token buckets (`rate_limits="bucket"`, buckets.py)."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Hashable
from dataclasses import dataclass

from starlette.requests import Request

from explorer.sandbox.buckets import ENDPOINT_SETS, Bucket, EndpointSet
from explorer.sandbox.documents import ApiProblem
from explorer.sandbox.links import API_ROOT

WINDOW = 60.0
PROJECT_PATH = re.compile(re.escape(API_ROOT) + r"/groups/([^/]+)(?:/|$)")
ORG_PATH = re.compile(re.escape(API_ROOT) + r"/orgs/([^/]+)(?:/|$)")
RATE_LIMITS_PATH = API_ROOT + "/rateLimits"
READS = frozenset({"GET", "HEAD"})


@dataclass(frozen=True)
class Verdict:
    allowed: bool
    limit: int
    remaining: int
    retry_after: int

    def headers(self) -> dict[str, str]:
        return {"RateLimit-Limit": str(self.limit), "RateLimit-Remaining": str(self.remaining)}


class MinuteWindows:
    """Counts requests per key in the current clock minute."""

    def __init__(self, limit: int, clock: Callable[[], float]) -> None:
        self.limit = limit
        self.clock = clock
        self.window = -1
        self.counts: dict[Hashable, int] = {}

    def hit(self, key: Hashable) -> Verdict:
        now = self.clock()
        window = int(now // WINDOW)
        if window != self.window:
            self.window, self.counts = window, {}
        used = self.counts.get(key, 0) + 1
        self.counts[key] = used
        retry_after = max(1, math.ceil((window + 1) * WINDOW - now))
        return Verdict(used <= self.limit, self.limit, max(0, self.limit - used), retry_after)


class ProjectMinutes:
    """The spec's limit: N requests a minute per project, on every path under /groups/{id}."""

    def __init__(self, limit: int, clock: Callable[[], float]) -> None:
        self.windows = MinuteWindows(limit, clock)

    def admit(self, request: Request, user: str) -> dict[str, str]:
        """The rate-limit headers of this request's answer; the 429 when it is refused."""
        project = PROJECT_PATH.match(request.scope["path"])
        if not project:
            return {}
        verdict = self.windows.hit(project.group(1))
        headers = verdict.headers()
        if not verdict.allowed:
            raise ApiProblem(
                429,
                "RATE_LIMITED",
                # the service's words, but "every 1 minutes" said as a person would
                f"Resource {request.url.replace(query='')} is limited to {verdict.limit} requests every minute.",
                [project.group(1)],
                {"Retry-After": str(verdict.retry_after), **headers},
            )
        return headers


class TokenBuckets:
    """The real service's limits: a bucket per endpoint set and scope (project, organization, user)."""

    def __init__(self, clock: Callable[[], float], sets: tuple[EndpointSet, ...] = ENDPOINT_SETS) -> None:
        self.clock = clock
        self.sets = {spec.id: spec for spec in sets}
        self.buckets: dict[tuple[str, str], Bucket] = {}

    def classify(self, method: str, path: str, user: str) -> tuple[EndpointSet, str] | None:
        """The endpoint set of a request and the key of its bucket; None for one not limited."""
        if path == RATE_LIMITS_PATH or path.startswith(RATE_LIMITS_PATH + "/"):
            return None  # looking at the buckets spends none of them
        project, org = PROJECT_PATH.match(path), ORG_PATH.match(path)
        if method in READS and project:
            return self.sets["projectReads"], project.group(1)
        if method in READS and org:
            return self.sets["organizationReads"], org.group(1)
        return self.sets["otherRequests"], user

    def bucket(self, spec: EndpointSet, key: str) -> Bucket:
        now = self.clock()
        bucket = self.buckets.get((spec.id, key))
        if bucket is None:
            bucket = self.buckets[spec.id, key] = Bucket(spec.capacity, now)
        bucket.refill(spec, now)
        return bucket

    def remaining(self, spec: EndpointSet, key: str) -> int:
        """Tokens left in a bucket now, taking none."""
        return self.bucket(spec, key).tokens

    def admit(self, request: Request, user: str) -> dict[str, str]:
        """The rate-limit headers of this request's answer; the 429 when its bucket is empty."""
        path = request.scope["path"]
        found = self.classify(request.method, path, user)
        if found is None:
            return {}
        spec, key = found
        bucket = self.bucket(spec, key)
        if bucket.tokens > 0:
            bucket.tokens -= 1
            return {"RateLimit-Limit": str(spec.capacity), "RateLimit-Remaining": str(bucket.tokens)}
        retry_after = max(1, math.ceil(bucket.since + spec.refill_seconds - self.clock()))
        raise ApiProblem(
            429,
            "RATE_LIMITED_TOKEN_BUCKET",
            f"You have exceeded the rate limit of {path}: a burst of {spec.capacity} requests, refilled at "
            f"{spec.refill_rate} every {spec.refill_seconds} seconds. Retry after {retry_after} seconds.",
            [path, retry_after, spec.capacity, spec.refill_rate, spec.refill_seconds],
            {"Retry-After": str(retry_after), "RateLimit-Limit": str(spec.capacity), "RateLimit-Remaining": "0"},
        )


Limits = ProjectMinutes | TokenBuckets
