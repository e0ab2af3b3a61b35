"""The config file: where it and the caches are, reading it, and setting one of its top-level keys.

Profiles are read by config.py and added by profiles.py; the screen keeps its theme here (remember).
"""

from __future__ import annotations

import json
import os
import re
import stat
import tomllib
from pathlib import Path
from typing import Any

from platformdirs import user_cache_path, user_config_path

from explorer.api.errors import ConfigError

APP = "explorer"


def config_path() -> Path:
    """The config file (profiles, keys, theme): config.toml in the user's config folder."""
    return user_config_path(APP) / "config.toml"


def token_cache_dir() -> Path:
    """Where `explorer get` keeps its encrypted tokens between runs."""
    return user_cache_path(APP) / "tokens"


def description_cache_dir() -> Path:
    """Where API descriptions' indexes are kept, each under its document's content hash."""
    return user_cache_path(APP) / "descriptions"


def is_private(path: Path) -> bool:
    """Readable and writable by its owner only (on systems with such modes)."""
    return os.name == "nt" or stat.S_IMODE(path.stat().st_mode) & 0o077 == 0


def load_config(path: Path) -> dict[str, Any]:
    """The config file as a dict ({} when there is none); ConfigError when it cannot be read as TOML."""
    try:
        text = path.read_text()
    except FileNotFoundError:
        return {}
    except OSError as error:
        raise ConfigError(f"Cannot read the config file {path}: {error.strerror}") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(
            f"The config file {path} is not valid TOML: {error}",
            "Mend it where the line and column say (the README's Configuration shows the shape), or move it "
            "away to start without it.",
        ) from None


def remember(path: Path, key: str, value: str) -> None:
    """Set a top-level string setting (`theme = "projector"`), keeping the rest of the file as it is.

    The line is replaced where it is, or added at the top, where top-level keys belong; the file
    is written whole to a temporary file and moved into place, so it is never half-written. The
    file keeps its mode (one others could read stays readable, a private one private); a new one
    is private.
    """
    try:
        text = path.read_text()
        mode = stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        text, mode = "", 0o600
    except OSError as error:
        raise ConfigError(f"Cannot read the config file {path}: {error.strerror}") from None
    line = f"{key} = {json.dumps(value)}"
    rows = text.splitlines()
    for number, row in enumerate(rows):
        if row.lstrip().startswith("["):
            rows.insert(0, line)
            break
        if re.match(rf"\s*{re.escape(key)}\s*=", row):
            rows[number] = line
            break
    else:
        rows.insert(0, line)
    updated = "\n".join(rows) + "\n"
    try:
        if tomllib.loads(updated).get(key) != value:
            raise ConfigError(f"Cannot set {key} in {path}: the file defines it in a way this cannot change")
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"The config file {path} is not valid TOML: {error}") from None
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w") as handle:
            handle.write(updated)
        os.chmod(temporary, mode)  # the file's own mode, whatever the umask made of the new one
        os.replace(temporary, path)
    except OSError as error:
        temporary.unlink(missing_ok=True)
        raise ConfigError(f"Cannot write the config file {path}: {error.strerror}") from None
