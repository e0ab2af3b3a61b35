"""Adding a profile to the config file, as the login form does: the secret only where the rules allow it."""

from __future__ import annotations

import re
from pathlib import Path

from explorer.api.config import Credentials, chosen_profile
from explorer.api.config_file import editable, is_private, load_config, write_config
from explorer.api.errors import ConfigError


def check_profile_name(path: Path, name: str) -> None:
    """A name a new profile can take in this file: a TOML bare key no profile has yet."""
    if not re.fullmatch(r"[A-Za-z0-9_-]+", name):
        raise ConfigError(f"{name!r} cannot name a profile: use letters, digits, - and _")
    profiles = load_config(path).get("profiles", {})
    if isinstance(profiles, dict) and name in profiles:
        raise ConfigError(f"{path} has a profile {name!r} already", "Choose another name, or edit the file.")


def save_profile(path: Path, name: str, credentials: Credentials) -> str:
    """Add a profile to the config file, the secret only where the rules allow it; say what was saved.

    The file is written whole and moved into place (config_file.write_config), with a TOML writer:
    every character of a value is written as TOML spells it, and the comments and layout the user
    wrote stay. A new file is private (0600); an existing one keeps its mode. A profile that exists
    already is left alone. A profile that is the only one becomes the default (`default_profile`),
    so the next start uses it without a flag; one beside others is left for --profile to choose,
    and the message says so.
    """
    import tomlkit
    from tomlkit.items import InlineTable

    check_profile_name(path, name)
    document = editable(path)
    profiles = document.get("profiles")
    if profiles is not None and not isinstance(profiles, dict):
        raise ConfigError(f"In {path}, [profiles] must be a table of profiles")
    alone = not profiles
    profile = tomlkit.inline_table() if isinstance(profiles, InlineTable) else tomlkit.table()
    profile["base_url"] = credentials.base_url
    for field in ("client_id", "public_key", "ca_bundle"):
        value = getattr(credentials, field)
        if value:
            profile[field] = value
    secret_field = "client_secret" if credentials.client_id else "private_key"
    secret = getattr(credentials, secret_field)
    private = not path.exists() or is_private(path)
    if secret and private:
        profile[secret_field] = secret.reveal()
    if profiles is None:
        document["profiles"] = profiles = tomlkit.table(is_super_table=True)
    profiles[name] = profile
    if alone:
        document["default_profile"] = name
    write_config(path, document)
    saved = f"Saved profile {name!r} to {path}"
    if alone:
        saved += ", as the default profile (default_profile)"
    elif chosen_profile(load_config(path), None, {}) != name:
        saved += f" (use it with --profile {name})"
    if secret and not private:
        variable = "EXPLORER_CLIENT_SECRET" if credentials.client_id else "EXPLORER_PRIVATE_KEY"
        return (
            f"{saved}, without its secret, because others can read that file. "
            f"Set {variable}, or chmod 600 the file and add it."
        )
    return f"{saved}."
