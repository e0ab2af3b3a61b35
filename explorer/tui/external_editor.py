"""A write's body edited in the person's own editor ($VISUAL, else $EDITOR), and read back.

The body goes to a file only its owner can read (0600: a body may hold a password), in the system's
temporary directory; the editor runs on it, and the file is read back and removed, whatever happens.
Nothing here touches the screen: the request editor (screens/editor.py) suspends the app around
`edit_text` and says what came of it.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import subprocess
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

Run = Callable[[Sequence[str]], int]  # runs a command, waits for it, and gives its exit status


@dataclass(frozen=True)
class Edited:
    """What came back from the editor: the text it left, or, where none is taken, why not (`problem`,
    a sentence that ends by saying the body is as it was)."""

    text: str | None
    problem: str = ""


def editor_command(environ: Mapping[str, str]) -> list[str] | None:
    """The person's editor as a command to run a file with: $VISUAL, else $EDITOR (with its own
    arguments, such as `code --wait`); None when neither is set.

    Args:
        environ: The environment to read (os.environ).

    Returns:
        The command's words, the file's path to go after them; None when no editor is set.
    """
    for name in ("VISUAL", "EDITOR"):
        words = split_command(environ.get(name, ""))
        if words:
            return words
    return None


def split_command(value: str) -> list[str]:
    """An editor setting as words, as a shell would split it; [] when it cannot be split."""
    try:
        return shlex.split(value)
    except ValueError:
        return [value.strip()] if value.strip() else []


def run_waiting(command: Sequence[str]) -> int:
    """Run `command` on the terminal and wait for it to end.

    Args:
        command: The words of the command.

    Returns:
        Its exit status.
    """
    return subprocess.run(list(command), check=False).returncode


def edit_text(text: str, command: Sequence[str], run: Run = run_waiting) -> Edited:
    """`text` edited by `command` (the editor and its arguments), through a private temporary file.

    Args:
        text: The body as it is in the request editor.
        command: The editor's words; the file's path is added after them.
        run: Runs the editor and waits for it (run_waiting: on the terminal).

    Returns:
        The text the editor left in the file (its added last line break taken off, where the body
        had none), or why none is taken: the editor could not be started, ended with a failure, or
        left a file that is not UTF-8 text. The file is removed in every case.
    """
    editor = command[0]
    handle, path = tempfile.mkstemp(prefix="explorer-body-", suffix=".json")  # 0600: the owner's alone
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as file:
            file.write(text)
        try:
            status = run([*command, path])
        except OSError as error:
            reason = "it is not found" if isinstance(error, FileNotFoundError) else error.strerror or str(error)
            return Edited(None, f"The editor {editor!r} could not be started ({reason}): the body is as it was")
        if status != 0:
            return Edited(None, f"The editor {editor!r} ended with status {status}: the body is as it was")
        try:
            with open(path, encoding="utf-8", newline="") as file:
                edited = file.read()
        except UnicodeDecodeError:
            return Edited(None, "The editor left text that is not UTF-8: the body is as it was")
        except OSError as error:
            return Edited(None, f"The edited file could not be read ({error.strerror}): the body is as it was")
    finally:
        with contextlib.suppress(OSError):
            os.unlink(path)
    if edited.endswith("\n") and not text.endswith("\n"):
        edited = edited[:-1]  # the last line's end, which editors add on saving
    return Edited(edited)
