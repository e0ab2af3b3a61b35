"""Drills for a class: each sets the sandbox (and the demo explorer) up to show one thing going on.

`explorer --demo --scenario NAME` runs one in process; `explorer sandbox --scenario NAME` serves
the server's part of it to a classroom.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from explorer.sandbox import stuck_cluster
from explorer.sandbox.buckets import ENDPOINT_SETS
from explorer.sandbox.settings import Settings

READS = ENDPOINT_SETS[0]


@dataclass(frozen=True)
class Scenario:
    name: str
    lesson: str  # what to watch, in a line
    server: Mapping[str, Any] = field(default_factory=dict)  # Settings fields
    client: Mapping[str, Any] = field(default_factory=dict)  # what the demo explorer does otherwise

    def settings(self, base: Settings | None = None) -> Settings:
        return replace(base or Settings(), **self.server)


SCENARIOS = {
    scenario.name: scenario
    for scenario in (
        Scenario(
            "expiry",
            "Tokens live 60 s: watch the countdown in the status bar, then the refresh just before the end.",
            server={"token_ttl": 60},
        ),
        Scenario(
            "rate-limit",
            "5 requests a minute per project: watch the meter empty, the 429, and the Retry-After countdown.",
            server={"rate_limit": 5},
            # The explorer would otherwise wait before the 429, and nobody would see it.
            client={"client_side_throttling": False},
        ),
        Scenario(
            "access-list",
            "The access list admits 203.0.113.0/24 only: read the error document and its hint.",
            server={"access_list": (ipaddress.ip_network("203.0.113.0/24"),)},
        ),
        Scenario(
            "outage",
            "45 s of service, then 15 s of 503s with Retry-After, over and over: watch the explorer wait them out.",
            server={"outage": (60, 15)},
        ),
        Scenario(
            "bad-credentials",
            "The explorer has the wrong client secret: read the 401 from the token endpoint and its hint.",
            client={"client_secret": "mdb_sa_sk_not-the-secret"},
        ),
        Scenario(
            "sparse-links",
            "Entities link as sparsely as on the real service (the root only to itself): what the tree shows "
            "beyond the links comes from the API description.",
            server={"links": "sparse"},
        ),
        Scenario(
            "token-bucket",
            f"Token buckets as on the real service: project reads burst to {READS.capacity}, refilled "
            f"{READS.refill_rate} every {READS.refill_seconds} s; watch RateLimit-Remaining fall, the 429 with "
            "its figures, and GET …/rateLimits.",
            server={"rate_limits": "bucket"},
            # The explorer would otherwise wait before the 429, and nobody would see it.
            client={"client_side_throttling": False},
        ),
        Scenario(
            "strict-versions",
            "Every request must name a version (Accept: application/vnd.service.DATE+json) or it is "
            "406 INVALID_VERSION_DATE; the older cluster version answers with Deprecation and Sunset.",
            server={"versions": "strict"},
        ),
        Scenario(
            "stuck-operation",
            f"Cluster {stuck_cluster.NAME} in project {stuck_cluster.PROJECT} stays CREATING however long you "
            f"watch it; the project's events say why ({stuck_cluster.STUCK_EVENT}: no capacity in "
            f"{stuck_cluster.REGION} for {stuck_cluster.SIZE}).",
            server={"stuck_operation": True},
        ),
    )
}


def scenario_named(name: str) -> Scenario:
    try:
        return SCENARIOS[name]
    except KeyError:
        raise ValueError(f"there is no scenario {name!r}; choose from {', '.join(SCENARIOS)}") from None
