"""What a sandbox is started with: credentials, lifetimes, limits, the access list, the seed."""

from __future__ import annotations

import ipaddress
import time
from collections.abc import Callable
from dataclasses import dataclass, field

IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network

DEFAULT_CLIENT_ID = "mdb_sa_id_sandbox"
DEFAULT_CLIENT_SECRET = "mdb_sa_sk_sandbox-secret"
DEFAULT_PUBLIC_KEY = "sandboxpub"
DEFAULT_PRIVATE_KEY = "sandbox-private-key-0000"
LINKS = ("full", "sparse")
RATE_LIMITS = ("minute", "bucket")
VERSIONS = ("lenient", "strict")


@dataclass(frozen=True)
class Settings:
    """Everything that makes one sandbox differ from another.

    The defaults are the documented demo credentials: the sandbox is a teaching and testing
    server, so its secrets are meant to be printed and shared.
    """

    client_id: str = DEFAULT_CLIENT_ID
    client_secret: str = DEFAULT_CLIENT_SECRET
    public_key: str = DEFAULT_PUBLIC_KEY
    private_key: str = DEFAULT_PRIVATE_KEY
    token_ttl: int = 3600
    rate_limit: int = 100
    token_rate_limit: int = 10
    access_list: tuple[IPNetwork, ...] = ()
    seed: int = 1
    control: bool = False
    latency_ms: int = 0
    unavailable: int = 0
    retry_after: int = 5
    outage: tuple[int, int] = (0, 0)  # (every, for): 503s for the last `for` seconds of every `every`
    token_errors: tuple[str, ...] = ()
    max_body_bytes: int = 64 * 1024
    links: str = "full"  # full: every relation; sparse: as few as the real service links (see links.py)
    rate_limits: str = "minute"  # minute: the spec's windows per project; bucket: token buckets (limits.py)
    versions: str = "lenient"  # lenient: plain JSON gets the first version; strict: name one or 406 (versions.py)
    operation_seconds: int = 20  # a cluster CREATING, UPDATING, DELETING: this long; 0: until the next request
    stuck_operation: bool = False  # the drill stuck-operation: a cluster CREATING for ever (stuck_cluster.py)
    clock: Callable[[], float] = field(default=time.time, compare=False, repr=False)

    def __post_init__(self) -> None:
        problems = []
        if not self.client_id or ":" in self.client_id:
            problems.append("the client ID must be non-empty and must not contain ':'")
        if not self.client_secret:
            problems.append("the client secret must not be empty")
        if not self.public_key or ":" in self.public_key:
            problems.append("the public key must be non-empty and must not contain ':'")
        if not self.private_key:
            problems.append("the private key must not be empty")
        for name in ("token_ttl", "rate_limit", "token_rate_limit", "retry_after", "max_body_bytes"):
            if getattr(self, name) < 1:
                problems.append(f"{name.replace('_', '-')} must be at least 1")
        for name in ("latency_ms", "unavailable", "operation_seconds"):
            if getattr(self, name) < 0:
                problems.append(f"{name.replace('_', '-')} must not be negative")
        for name, choices in (("links", LINKS), ("rate_limits", RATE_LIMITS), ("versions", VERSIONS)):
            if getattr(self, name) not in choices:
                problems.append(f"{name.replace('_', '-')} must be one of {', '.join(choices)}")
        every, lasting = self.outage
        if every and not 0 < lasting < every:
            problems.append("an outage must last less than the period it repeats in")
        if problems:
            raise ValueError("; ".join(problems))

    def __repr__(self) -> str:
        # Secrets stay out of reprs, tracebacks and logs even in the sandbox.
        return (
            f"Settings(client_id={self.client_id!r}, client_secret='***', "
            f"public_key={self.public_key!r}, private_key='***', token_ttl={self.token_ttl}, "
            f"rate_limit={self.rate_limit}, token_rate_limit={self.token_rate_limit}, "
            f"access_list={[str(n) for n in self.access_list]}, seed={self.seed})"
        )


def parse_network(text: str) -> IPNetwork:
    """Read an address or CIDR block, as the access-list flag takes it."""
    try:
        return ipaddress.ip_network(text.strip(), strict=False)
    except ValueError:
        raise ValueError(f"{text!r} is not an IP address or CIDR block (for example 10.0.0.0/8)") from None
