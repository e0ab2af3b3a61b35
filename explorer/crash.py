"""A crash report: the traceback of an unexpected fault (a bug), kept in a file to attach to a report.

The terminal gets one line (`explorer: unexpected ValueError: … (a bug; please report it)`) and
where the report is; the traceback goes to a file in the user's state folder, beside the screen's
own state. Without local variables, which is where a token, a client secret or a body would be
(Python's traceback module never prints them), and with what looks like a credential in an
exception's message (an Authorization header, a URL's password, a token in a query or a JSON
field) replaced with ***. Every character is made visible, as on the terminal.
"""

from __future__ import annotations

import os
import platform
import re
import sys
import time
import traceback
from pathlib import Path

from platformdirs import user_state_path

from explorer import __version__
from explorer.api.config_file import APP
from explorer.api.unsafe_characters import visible

SECRET_NAMES = r"access_token|refresh_token|client_secret|private_key|privateKey|api_?key|apiKey|password|secret|token"
CREDENTIALS = [  # (what looks like a credential, what replaces it)
    (re.compile(r"(?i)\b((?:proxy-)?authorization|cookie|set-cookie)(['\"]?\s*[:=,]\s*)(['\"]?)[^'\"\n]*"),
     r"\1\2\3***"),
    (re.compile(r"(?i)\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+"), r"\1 ***"),
    (re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://)[^/@\s'\"]+@"), r"\1***@"),
    (re.compile(rf"(?i)\b({SECRET_NAMES})=[^&\s'\"]+"), r"\1=***"),
    (re.compile(rf"(?i)(['\"](?:{SECRET_NAMES})['\"]\s*:\s*['\"])[^'\"]*"), r"\1***"),
]  # fmt: skip


def crash_folder() -> Path:
    """Where crash reports are written: `crashes` in the user's state folder."""
    return user_state_path(APP) / "crashes"


def scrubbed(text: str) -> str:
    """`text` with what looks like a credential replaced with ***."""
    for pattern, replacement in CREDENTIALS:
        text = pattern.sub(replacement, text)
    return text


def report_text(error: BaseException, where: str) -> str:
    """The report: what ran and where, then the traceback (causes included), without local variables."""
    head = [
        f"explorer {__version__} crash report: {where}",
        f"at {time.strftime('%Y-%m-%d %H:%M:%S %z')}",
        f"Python {platform.python_version()} on {platform.platform()}",
        "",
    ]
    frames = "".join(traceback.format_exception(error))
    return "\n".join([*head, *(visible(line) for line in scrubbed(frames).splitlines())]) + "\n"


def write_crash_report(error: BaseException, where: str, folder: Path | None = None) -> Path | None:
    """Write the report of `error` (`where` says what ran: `explorer get`, the screen); its path, or
    None when it cannot be written (the fault is said all the same)."""
    folder = folder or crash_folder()
    path = folder / f"crash-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}.txt"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)  # the user's alone
        with os.fdopen(descriptor, "w", encoding="utf-8") as file:
            file.write(report_text(error, where))
    except OSError:
        return None
    return path


def describe_error(error: BaseException) -> str:
    """The fault in a line: its type and message, made visible and scrubbed as the report is."""
    message = str(error)
    return f"{type(error).__name__}: {visible(scrubbed(message))}" if message else type(error).__name__


def report_crash(lead: str, error: BaseException, where: str, folder: Path | None = None) -> None:
    """On stderr: `{lead} {fault} (a bug; please report it)`, then where its crash report is."""
    path = write_crash_report(error, where, folder)
    print(f"{lead} {describe_error(error)} (a bug; please report it)", file=sys.stderr)
    if path is not None:
        print(f"crash report written to {visible(str(path))} (attach it to the report)", file=sys.stderr)
    else:
        print(f"no crash report: {visible(str(folder or crash_folder()))} cannot be written to", file=sys.stderr)
