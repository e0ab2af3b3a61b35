"""A system keyring in the test's memory: what a desktop's would hold, and the user's never touched.

The suite starts every test with keyring's `fail` backend (tests/conftest.py: no keyring, as on a headless
machine); a test that needs one calls `use_memory_keyring()`, and reads what was stored in `entries`.
"""

from __future__ import annotations

import keyring
from keyring.backend import KeyringBackend
from keyring.errors import PasswordDeleteError


class MemoryKeyring(KeyringBackend):
    """A recommended keyring (priority 1, as a desktop's Secret Service) that keeps its entries in a dict."""

    priority = 1  # type: ignore[assignment]

    def __init__(self) -> None:
        super().__init__()
        self.entries: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.entries.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.entries[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        if self.entries.pop((service, username), None) is None:
            raise PasswordDeleteError(username)


class PlainFileKeyring(MemoryKeyring):
    """A keyring the library does not recommend (priority 0.5, as keyrings.alt's plain-text file): never used."""

    priority = 0.5  # type: ignore[assignment]


def use_memory_keyring(kind: type[MemoryKeyring] = MemoryKeyring) -> MemoryKeyring:
    """Make a keyring of this kind the system's for this test (tests/conftest.py puts `fail` back after)."""
    backend = kind()
    keyring.set_keyring(backend)
    return backend
