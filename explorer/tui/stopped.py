"""Running the app so that a bug ends it with one line on stderr, never Textual's traceback.

Textual prints an unhandled exception as a traceback with each frame's local variables: a token, a
client secret or a response body can be among them, and a terminal is no place for those (nor for a
page of frames an operator cannot act on). Textual has no public hook for its handling, so instead
of overriding its private method the app runs with stderr caught: after a bug, the one line said is
the exception's own (its type and message, made visible) and the caught traceback is dropped;
after a normal exit, whatever was caught (a warning, say) is passed on as it was.
"""

from __future__ import annotations

import io
import sys
from contextlib import redirect_stderr
from typing import TYPE_CHECKING, Any

from explorer.api.visible import visible

if TYPE_CHECKING:
    from textual.app import App


def run_app(app: App[Any], **options: Any) -> int:
    """`app.run(**options)`; its return code, with a bug said in one line on stderr."""
    with redirect_stderr(io.StringIO()) as caught:
        app.run(**options)
    code = app.return_code or 0
    said = caught.getvalue()
    if code and said.strip():
        last = said.strip().splitlines()[-1]  # Rich's traceback ends with "Type: message"
        print(f"explorer stopped: {visible(last)} (a bug; please report it)", file=sys.stderr)
    else:
        sys.stderr.write(said)
    return code
