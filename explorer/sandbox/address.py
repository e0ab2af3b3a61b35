"""The address a class types: this machine's address on its network, never 0.0.0.0.

Here, below the classroom, so that `explorer sandbox` and `explorer serve` give the same one.
"""

from __future__ import annotations

import ipaddress
import socket

# A documentation address (RFC 5737): connecting a UDP socket to it sends nothing, but makes the
# system choose the interface it would route through, whose address is the one the network sees.
PROBE = ("192.0.2.1", 9)


def lan_address(host: str) -> str:
    """The address to give for a server listening on `host`: itself when it names one; for
    0.0.0.0 or ::, the address of the interface this machine routes through (loopback if none)."""
    if not is_everywhere(host):
        return host
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(PROBE)
            address = str(probe.getsockname()[0])
    except OSError:  # no network at all: the class is this machine
        return "127.0.0.1"
    return address if not ipaddress.ip_address(address).is_unspecified else "127.0.0.1"


def is_everywhere(host: str) -> bool:
    """A host that means every address of the machine (0.0.0.0, ::), which no client can connect to."""
    return host in ("", "0.0.0.0", "::")


def is_network(host: str) -> bool:
    """A host others on the network can reach: anything but loopback (and its name, localhost)."""
    if host == "localhost":
        return False
    try:
        return not ipaddress.ip_address(host).is_loopback
    except ValueError:
        return True  # a machine name, as others call it
