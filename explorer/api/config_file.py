"""The config file: where it and the caches are, reading it, and writing it back as the user wrote it.

Profiles are read by config.py and added by profiles.py; the screen keeps its theme here (remember).
The file is read with tomllib and changed with tomlkit, a TOML writer that keeps comments and layout.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tomllib
from pathlib import Path
from typing import TYPE_CHECKING, Any

from platformdirs import user_cache_path, user_config_path, user_state_path

from explorer.api.errors import ConfigError

if TYPE_CHECKING:
    from tomlkit.toml_document import TOMLDocument

APP = "explorer"


def config_path() -> Path:
    """The config file (profiles, keys, theme): config.toml in the user's config folder."""
    return user_config_path(APP) / "config.toml"


def token_cache_dir() -> Path:
    """Where `explorer get` keeps its encrypted tokens between runs."""
    return user_cache_path(APP) / "tokens"


HISTORY_FILE = "history.sqlite3"  # in the state folder: every exchange, across sessions
JOURNAL_FILE = "journal.sqlite3"  # beside it: every write attempted, never rewritten
BASELINES_FILE = "baselines.sqlite3"  # and the baselines saved
DRAFTS_FILE = "drafts.sqlite3"  # and the write editor's drafts, set aside


def state_dir() -> Path:
    """Where what outlives a session is kept: the history, the journal, the baselines, the screen's state."""
    return user_state_path(APP)


def state_file(name: str) -> Path:
    """A file in the user's state folder (HISTORY_FILE, …), the folder made (or made again) private: 0700.

    A folder that cannot be made, or made private, is left as it is: the file's first use (each
    is opened then, and made 0600 itself) fails with the reason, which its user says (the journal
    sends no write it cannot note), rather than the start.
    """
    folder = state_dir()
    with contextlib.suppress(OSError):
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        folder.chmod(0o700)  # explorer's own folder: screen.json may have made it with the umask's mode
    return folder / name


def description_cache_dir() -> Path:
    """Where API descriptions' indexes are kept, each under its document's content hash."""
    return user_cache_path(APP) / "descriptions"


def is_private(path: Path) -> bool:
    """Readable and writable by its owner only (on systems with such modes)."""
    return os.name == "nt" or stat.S_IMODE(path.stat().st_mode) & 0o077 == 0


def config_text(path: Path) -> str | None:
    """The config file's text (None when there is none); ConfigError when it cannot be read as UTF-8 text,
    which TOML files are, whatever the system's locale says."""
    try:
        with path.open(encoding="utf-8", newline="") as handle:  # newline="": a CRLF file is written back CRLF
            return handle.read()
    except FileNotFoundError:
        return None
    except UnicodeDecodeError as error:
        raise ConfigError(
            f"The config file {path} is not UTF-8 text (byte {error.start + 1})",
            "TOML files are UTF-8: save it as UTF-8 in your editor, or move it away to start without it.",
        ) from None
    except OSError as error:
        raise ConfigError(f"Cannot read the config file {path}: {error.strerror}") from None


def load_config(path: Path) -> dict[str, Any]:
    """The config file as a dict ({} when there is none); ConfigError when it cannot be read as TOML."""
    text = config_text(path)
    if text is None:
        return {}
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise not_toml(path, error) from None


def not_toml(path: Path, error: Exception) -> ConfigError:
    """The one message for a file that does not parse, whichever reader found it (tomllib or tomlkit)."""
    return ConfigError(
        f"The config file {path} is not valid TOML: {error}",
        "Mend it where the line and column say, or move it away to start without it.",
    )


def editable(path: Path) -> TOMLDocument:
    """The config file as a document to change and write back with `write_config`: tomlkit keeps the
    user's comments, order and layout where a dict would lose them. An empty one when there is none."""
    import tomlkit  # 50 ms: only when the file is written, not at every start
    from tomlkit.exceptions import TOMLKitError

    text = config_text(path)
    if text is None:
        return tomlkit.document()
    try:
        tomllib.loads(text)  # what the explorer reads the file with decides what is broken
        return tomlkit.parse(text)
    except (tomllib.TOMLDecodeError, TOMLKitError) as error:
        raise not_toml(path, error) from None


def write_config(path: Path, document: TOMLDocument) -> None:
    """Write the whole config file, so that it is never half-written: a temporary file in the same
    folder, moved into place. It keeps its mode (one others could read stays readable, a private one
    private); a new one is private. A symbolic link (a dotfiles checkout) stays one: its target is written.

    What is written is read back first with the reader the explorer starts with: a file it could not
    read again is not written.
    """
    text = document.as_string()
    try:
        tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"Not saved: {path} would not read back as TOML ({error})") from None
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError:
        raise ConfigError(
            f"Not saved to {path}: a value holds characters that are not text (a name in bytes that are not UTF-8)"
        ) from None
    target = Path(os.path.realpath(path))
    temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        try:
            mode = stat.S_IMODE(target.stat().st_mode)
        except FileNotFoundError:
            mode = 0o600
        target.parent.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, mode)  # the file's own mode, whatever the umask made of the new one
        os.replace(temporary, target)
    except OSError as error:
        temporary.unlink(missing_ok=True)
        raise ConfigError(f"Cannot write the config file {path}: {error.strerror}") from None


def remember(path: Path, key: str, value: str) -> None:
    """Set a top-level string setting (`theme = "projector"`), keeping the rest of the file as it is:
    replaced where it is (its comment kept), or added among the top-level keys, before the tables."""
    document = editable(path)
    if key in document and not isinstance(document[key], str):
        raise ConfigError(f"Cannot set {key} in {path}: the file defines it in a way this cannot change")
    document[key] = value
    write_config(path, document)
