"""Adding a profile to the config file: the secret in the system keyring, never in the file."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from explorer.api.config import Credentials, chosen_profile
from explorer.api.config_file import editable, load_config, write_config
from explorer.api.errors import ConfigError
from explorer.api.profile_origins import read_only_profile
from explorer.api.system_keyring import store
from explorer.api.urls import check_base_url, origin_text


def check_profile_name(path: Path, name: str) -> None:
    """A name a new profile can take in this file: a TOML bare key no profile has yet."""
    if not re.fullmatch(r"[A-Za-z0-9_-]+", name):
        raise ConfigError(f"{name!r} cannot name a profile: use letters, digits, - and _")
    profiles = load_config(path).get("profiles", {})
    if isinstance(profiles, dict) and name in profiles:
        raise ConfigError(f"{path} has a profile {name!r} already", "Choose another name, or edit the file.")


@dataclass(frozen=True)
class SavedProfile:
    """What `save_profile` saved where, for the caller to say.

    Args:
        path: The config file.
        name: The profile's name.
        default: Whether it became the file's `default_profile` (it is the only profile).
        chosen: Whether the file chooses it when nothing else does (its `default_profile`).
        secret: Whether there was a secret to keep.
        entry: The system keyring's entry the secret went to; None when it went to none.
        variable: The environment variable the profile reads its secret from, there being no keyring.
        forbidding: The profile whose `writes = false` of the same origin this one repeats, if one.
        read_only: Whether the profile says `writes = false`.
    """

    path: Path
    name: str
    default: bool
    chosen: bool
    secret: bool
    entry: str | None
    variable: str | None
    forbidding: str | None
    read_only: bool


def save_profile(
    path: Path, name: str, credentials: Credentials, variables: Mapping[str, str] | None = None
) -> SavedProfile:
    """Add a profile to the config file, its secret never in plain text; return what was saved where.

    The secret goes to the system keyring (system_keyring.store), and the profile names its entry
    (`client_secret = { keyring = "ENTRY" }`). Where there is no keyring to trust it to (a headless
    machine), it is stored nowhere: the profile names the environment variable to set instead
    (`{ env = "VARIABLE" }`, the one `variables` names for the secret's field). A profile saved for an
    origin that a `writes = false` profile names (or from credentials that say writes = false) says
    `writes = false` too: saving never makes a profile that writes where another only reads.

    The file is written whole and moved into place (config_file.write_config), with a TOML writer:
    every character of a value is written as TOML spells it, and the comments and layout the user
    wrote stay. A new file is private (0600); an existing one keeps its mode. A profile that exists
    already is left alone. A profile that is the only one becomes the default (`default_profile`),
    so the next start uses it without being named; one beside others is left to be chosen by name.

    Args:
        path: The config file.
        name: The profile's name: letters, digits, - and _, and not one the file has.
        credentials: What to save: the base URL, the client ID or public key, the CA bundle, the secret.
        variables: The environment variable of each field, as `Credentials.resolve` takes them: the one for
            `client_secret` or `private_key` is what the profile names where there is no keyring; None names none.

    Returns:
        What was saved where: the file, the secret's place (an entry, a variable to set), whether it is the default.

    Raises:
        ConfigError: When the name cannot be used, or the file cannot be read or written.
    """
    import tomlkit
    from tomlkit.items import InlineTable

    check_profile_name(path, name)
    document = editable(path)
    profiles = document.get("profiles")
    if profiles is not None and not isinstance(profiles, dict):
        raise ConfigError(f"In {path}, [profiles] must be a table of profiles")
    alone = not profiles
    existing = load_config(path).get("profiles")
    forbidding = credentials.writes_from if credentials.writes is False else None
    forbidding = forbidding or read_only_profile(existing if isinstance(existing, dict) else {}, credentials.base_url)
    profile = tomlkit.inline_table() if isinstance(profiles, InlineTable) else tomlkit.table()
    profile["base_url"] = credentials.base_url
    for field in ("client_id", "public_key", "ca_bundle"):
        value = getattr(credentials, field)
        if value:
            profile[field] = value
    secret_field = "client_secret" if credentials.client_id else "private_key"
    secret = getattr(credentials, secret_field)
    entry = f"{credentials.who}@{origin_text(check_base_url(credentials.base_url))}"
    variable = (variables or {}).get(secret_field)
    in_keyring = bool(secret) and store(entry, secret)
    if secret and (in_keyring or variable):
        reference = tomlkit.inline_table()
        reference.update({"keyring": entry} if in_keyring else {"env": variable})
        profile[secret_field] = reference
    if forbidding or credentials.writes is False:
        profile["writes"] = False
    if profiles is None:
        document["profiles"] = profiles = tomlkit.table(is_super_table=True)
    profiles[name] = profile
    if alone:
        document["default_profile"] = name
    write_config(path, document)
    return SavedProfile(
        path=path,
        name=name,
        default=alone,
        chosen=chosen_profile(load_config(path), None) == name,
        secret=bool(secret),
        entry=entry if in_keyring else None,
        variable=None if in_keyring else variable,
        forbidding=forbidding,
        read_only=bool(forbidding) or credentials.writes is False,
    )
