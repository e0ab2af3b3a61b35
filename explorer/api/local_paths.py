"""Questions about a path a person typed, answered without raising.

`Path.exists()` and its kin raise on a name the system cannot even look up (`File name too long`,
a name with a NUL): for a path typed into a form or given as a flag that is simply no file there,
and opening it, where that is tried, says why in the system's own words.
"""

from __future__ import annotations

import os
from pathlib import Path


def exists(path: Path) -> bool:
    """Whether something is there under `path`; False for a name that cannot be looked up."""
    try:
        return path.exists()
    except (OSError, ValueError):
        return False


def is_file(path: Path) -> bool:
    """Whether `path` is a file; False for a name that cannot be looked up."""
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False


def is_dir(path: Path) -> bool:
    """Whether `path` is a folder; False for a name that cannot be looked up."""
    try:
        return path.is_dir()
    except (OSError, ValueError):
        return False


def cannot_write(target: Path, error: OSError) -> str:
    """Why a new file could not be written at `target`, in words about the path, not the system's
    (`[Errno 2] No such file or directory` named neither the folder missing nor what to do)."""
    where = target.parent
    if isinstance(error, IsADirectoryError) or (isinstance(error, FileExistsError) and is_dir(target)):
        return f"{target} is a folder: add a file name to it"
    if isinstance(error, FileExistsError):
        return f"{target} exists already: save under another name"
    if isinstance(error, FileNotFoundError):
        return f"There is no folder {where}: make it first, or save somewhere else"
    if isinstance(error, NotADirectoryError):
        return f"Part of {where} is a file, not a folder: save somewhere else"
    if isinstance(error, PermissionError):
        return f"You may not write in {where}: save somewhere else"
    return f"Cannot save to {target}: {error.strerror or error}"


def write_new(path: Path, data: bytes) -> None:
    """Write `data` as a new file at `path`, only its owner's (0600): never over a file that is there.

    What is saved (a HAR file, an answer's body) may hold what the service says of its users, so it
    is as private as the recording a HarRecorder writes, whatever the umask.

    Args:
        path: Where the file goes.
        data: Its bytes.

    Raises:
        OSError: FileExistsError when something is there; any other for the caller to say.
    """
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "wb") as out:
        out.write(data)
