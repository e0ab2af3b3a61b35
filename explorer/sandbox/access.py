"""The IP access list (spec 1 and 5.5): which client addresses may use the credentials."""

from __future__ import annotations

import ipaddress
from collections.abc import MutableMapping
from typing import Any

from explorer.sandbox.settings import IPNetwork


class AccessList:
    def __init__(self, networks: tuple[IPNetwork, ...]) -> None:
        self.networks = networks

    def allows(self, address: str | None) -> bool:
        if not self.networks:
            return True
        if address is None:
            return False
        try:
            ip = ipaddress.ip_address(address.split("%", 1)[0])
        except ValueError:
            return False
        if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped:
            ip = ip.ipv4_mapped
        return any(ip in network for network in self.networks)


def client_address(scope: MutableMapping[str, Any]) -> str | None:
    """The peer's address as the server saw it; never a forwarded header."""
    client = scope.get("client")
    return client[0] if client else None
