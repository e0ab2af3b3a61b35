"""What the screen remembers between runs (the tree's width): a small JSON file of its own.

Kept apart from the config file, which is the user's to write: this one the explorer rewrites
whenever it likes. A file that cannot be read is as good as none; one that cannot be written
means only that the next run does not remember.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from platformdirs import user_state_path

from explorer.api.config_file import APP


def state_path() -> Path:
    return user_state_path(APP) / "screen.json"


def load_state(path: Path | None = None) -> dict[str, Any]:
    try:
        data = json.loads((path or state_path()).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def save_state(values: dict[str, Any], path: Path | None = None) -> bool:
    """Merge `values` into the file, written whole and moved into place. Whether it was written."""
    path = path or state_path()
    data = {**load_state(path), **values}
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        os.replace(temporary, path)
    except OSError:
        temporary.unlink(missing_ok=True)
        return False
    return True
