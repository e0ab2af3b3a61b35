"""One running sandbox: its settings, its data and the state of its tokens, limits and faults."""

from __future__ import annotations

from collections.abc import Hashable

from explorer.sandbox.access import AccessList
from explorer.sandbox.digest import DigestAuthority
from explorer.sandbox.faults import Faults
from explorer.sandbox.limits import Limits, MinuteWindows, ProjectMinutes, TokenBuckets
from explorer.sandbox.operations import Operations
from explorer.sandbox.pages import Fragments
from explorer.sandbox.seed import seed_world
from explorer.sandbox.settings import Settings
from explorer.sandbox.stuck_cluster import add_stuck_cluster
from explorer.sandbox.tokens import TokenStore


class Sandbox:
    """Held on `app.state.sandbox`; each app built by `create_app` has its own."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.clock = settings.clock
        self.world = seed_world(settings.seed)
        # Clusters' creates, changes and deletes, ended as the clock passes their time (operations.py).
        self.operations = Operations(self.world, settings.clock, settings.operation_seconds)
        self.operations.carry_on(0 if settings.stuck_operation else settings.operation_seconds)
        if settings.stuck_operation:
            add_stuck_cluster(self.world, self.operations)
        self.tokens = TokenStore(settings.token_ttl, settings.clock)
        self.digest = DigestAuthority(settings.public_key, settings.private_key, settings.clock)
        self.access = AccessList(settings.access_list)
        self.limits: Limits = (
            TokenBuckets(settings.clock)
            if settings.rate_limits == "bucket"
            else ProjectMinutes(settings.rate_limit, settings.clock)
        )
        self.token_limits = MinuteWindows(settings.token_rate_limit, settings.clock)
        self.faults = Faults(settings)
        # JSON of list items between writes (see pages.Page); emptied by the gate on every write.
        self.rendered: dict[Hashable, Fragments] = {}
        # The API description (openapi.py) by origin, made on first request: its examples name
        # identifiers of this world as seeded, which writes do not change (organizations stay).
        self.descriptions: dict[str, bytes] = {}
