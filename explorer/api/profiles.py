"""Adding a profile to the config file, as the login form does: the secret only where the rules allow it."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from explorer.api.config import Credentials, chosen_profile
from explorer.api.config_file import is_private, load_config, remember
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

    The file is created private (0600). An existing file is appended to, never rewritten, so its
    comments and layout stay; a profile that exists already is left alone. A profile that is the
    only one becomes the default (`default_profile`), so the next start uses it without a flag;
    one beside others is left for --profile to choose, and the message says so.
    """
    check_profile_name(path, name)
    profiles = load_config(path).get("profiles")
    alone = not profiles
    rows = [f"\n[profiles.{name}]", f"base_url = {json.dumps(credentials.base_url)}"]
    for field in ("client_id", "public_key", "ca_bundle"):
        value = getattr(credentials, field)
        if value:
            rows.append(f"{field} = {json.dumps(value)}")
    secret_field = "client_secret" if credentials.client_id else "private_key"
    secret = getattr(credentials, secret_field)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists():
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))
        private = is_private(path)
        if secret and private:
            rows.append(f"{secret_field} = {json.dumps(secret.reveal())}")
        with path.open("a") as handle:
            handle.write("\n".join(rows) + "\n")
    except OSError as error:
        raise ConfigError(f"Cannot write the config file {path}: {error.strerror}") from None
    saved = f"Saved profile {name!r} to {path}"
    if alone:
        remember(path, "default_profile", name)
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
