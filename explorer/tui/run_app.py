"""Running the app so that a bug ends it with one line on stderr and a crash report, never Textual's
traceback.

Textual prints an unhandled exception as a traceback with each frame's local variables: a token, a
client secret or a response body can be among them, and a terminal is no place for those (nor for a
page of frames an operator cannot act on). Textual has no public hook for its handling, so instead
of overriding its private method the app runs with stderr caught: after a bug, the one line said is
the exception's own (its type and message, made visible), its traceback is written without locals
to a crash report (crash.py) and the caught one is dropped; after a normal exit, whatever was caught
(a warning, say) is passed on as it was.
"""

from __future__ import annotations

import io
import sys
from contextlib import redirect_stderr
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.text import Text

from explorer.api.unsafe_characters import visible
from explorer.crash import report_crash

if TYPE_CHECKING:
    from textual.app import App


def run_app(app: App[Any], crash_folder: Path | None = None, **options: Any) -> int:
    """`app.run(**options)`; its return code, with a bug said in one line on stderr and written to a
    crash report (in `crash_folder`, the user's state folder unless a test says)."""
    with redirect_stderr(io.StringIO()) as caught:
        app.run(**options)
    code = app.return_code or 0
    captured = caught.getvalue()
    # Textual keeps the exception that ended the app (for its test runner) and offers no public way to it.
    error = getattr(app, "_exception", None)
    if code and isinstance(error, BaseException):
        report_crash("explorer stopped:", error, "the explorer screen", crash_folder)
    elif code and captured.strip():  # a Textual without that attribute: its last line, without its colours
        last = Text.from_ansi(captured.strip().splitlines()[-1]).plain  # Rich's traceback ends with "Type: message"
        print(f"explorer stopped: {visible(last)} (a bug; please report it)", file=sys.stderr)
    else:
        sys.stderr.write(captured)
    return code
