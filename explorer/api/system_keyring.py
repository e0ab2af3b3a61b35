"""The system keyring (through the `keyring` library): where a profile saved from the login form keeps its
secret, so that it is never written into the config file in plain text.

A profile names its entry by reference, `client_secret = { keyring = "ENTRY" }`: the password of ENTRY under
the service `explorer`. The keyring is used only where it is one the library recommends (a desktop's
Secret Service, the macOS Keychain, the Windows Credential Locker: priority 1 or more); a headless machine
has none (keyring's `fail` backend), and a backend that keeps passwords in a plain file (keyrings.alt's) is
not one. Then nothing is stored, and the caller saves a reference to an environment variable instead.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from explorer.api.errors import ConfigError
from explorer.api.secret import Secret

if TYPE_CHECKING:
    from keyring.backend import KeyringBackend

SERVICE = "explorer"  # the service name every entry is kept under


def recommended(backend: KeyringBackend) -> bool:
    """Whether a backend is a keyring to trust a secret to: one the library recommends (priority 1 or more),
    and, for a chain of backends, every one in it (a chain falls back to the next when one fails)."""
    from keyring.backends.chainer import ChainerBackend

    if isinstance(backend, ChainerBackend):
        return bool(backend.backends) and all(recommended(each) for each in backend.backends)
    return float(backend.priority) >= 1


def store(entry: str, secret: Secret) -> bool:
    """Keep a secret in the system keyring as ENTRY under the service `explorer`.

    Args:
        entry: The entry's name (its user name, in keyring's words): a profile names it to read it back.
        secret: The secret to keep.

    Returns:
        True when the keyring holds it now; False when there is no keyring to trust it to here, or the one
        there refused it (locked, or no session bus): then nothing was stored anywhere.
    """
    import keyring  # the backends load on first use: only when a profile is saved or read
    from keyring.errors import KeyringError

    backend = keyring.get_keyring()
    if not recommended(backend):
        return False
    try:
        backend.set_password(SERVICE, entry, secret.reveal())
    except KeyringError:
        return False
    return True


def fetch(entry: str, where: str) -> Secret:
    """The secret the system keyring keeps as ENTRY under the service `explorer`.

    Args:
        entry: The entry's name, as the profile's `{ keyring = "ENTRY" }` gives it.
        where: Which field of which profile names it, for the messages (`In FILE, profile 'lab', client_secret`).

    Returns:
        The secret.

    Raises:
        ConfigError: When no keyring can be read here, or it holds no such entry.
    """
    import keyring
    from keyring.errors import KeyringError

    instead = 'Name the secret another way in the profile: { env = "VARIABLE" } or { file = "PATH" }.'
    try:
        value = keyring.get_keyring().get_password(SERVICE, entry)
    except KeyringError:
        raise ConfigError(
            f"{where} names the keyring entry {entry!r}, and no system keyring can be read here",
            instead,
            setting="secret",
        ) from None
    if not value:
        raise ConfigError(
            f"{where} names the keyring entry {entry!r}, which the system keyring does not hold (service {SERVICE!r})",
            instead,
            setting="secret",
        )
    return Secret(value)
