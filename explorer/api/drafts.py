"""Drafts that outlive a session: a write's body being written, kept by method and URL, redacted.

A body set aside (the editor closed, the explorer quit) is there in the next session, for the
same method and URL. What a secret-named field holds (a database user's `password`) is kept as
`[redacted by explorer]`, as a HAR file keeps it: typed again before it is sent. A draft is often
not JSON yet (`"password": "half-typ`): what follows a secret-named key there, to the end of its
line, is taken out too, where the redaction of bodies (which reads JSON) would not see it.
"""

from __future__ import annotations

import re
from pathlib import Path

from explorer.api.history import as_os_errors
from explorer.api.known_secrets import REDACTED, KnownSecrets
from explorer.api.private_file import PrivateFile
from explorer.api.redaction import Redaction, is_secret, unescaped
from explorer.api.url_redaction import kept_url

# A key and its colon, on one line, as a body not yet JSON may have it: in double quotes, in single
# quotes (`{'password': 'x'`), or bare (`password: x`).
KEY = re.compile(r'(?:"((?:[^"\\\n]|\\.)*)"|\'((?:[^\'\\\n]|\\.)*)\'|\b([A-Za-z_][\w-]*))\s*:\s*')

SCHEMA = """
CREATE TABLE IF NOT EXISTS drafts (
    method TEXT NOT NULL,
    url TEXT NOT NULL,
    body TEXT NOT NULL,             -- as typed, redacted
    saved REAL NOT NULL,
    PRIMARY KEY (method, url)
);
"""


class DraftFile(PrivateFile):
    """The drafts file: a body each method and URL, kept, read back, dropped once sent.

    Args:
        path: The SQLite file (made private, in a private folder, when new), opened when first used.
    """

    def __init__(self, path: Path) -> None:
        super().__init__(path, SCHEMA, durable=True)

    def put(self, method: str, url: str, body: str, saved: float, known: KnownSecrets | None = None) -> None:
        """Keep a draft, redacted, in place of the one of that method and URL.

        Args:
            method: The write's method.
            url: Where it goes.
            body: The body as typed (JSON or not yet).
            saved: The wall clock now.
            known: The session's credentials, masked wherever they appear.

        Raises:
            OSError: When the file cannot be written.
        """
        redaction = Redaction(known=known if known is not None else KnownSecrets())
        (kept,) = redaction.bodies((body.encode("utf-8", "surrogatepass"), "draft"))
        text = without_secret_lines(kept.decode("utf-8", "replace"))
        with as_os_errors(self.path), self.lock, self.connection as connection:
            connection.execute(
                "INSERT OR REPLACE INTO drafts (method, url, body, saved) VALUES (?, ?, ?, ?)",
                (method, kept_url(url), text, saved),
            )

    def get(self, method: str, url: str) -> str | None:
        """Read a draft back.

        Args:
            method: The write's method.
            url: Where it goes.

        Returns:
            The body kept, or None when there is none.

        Raises:
            OSError: When the file cannot be read.
        """
        with as_os_errors(self.path), self.lock:
            row = self.connection.execute(
                "SELECT body FROM drafts WHERE method = ? AND url = ?", (method, kept_url(url))
            ).fetchone()
        return str(row["body"]) if row is not None else None

    def drop(self, method: str, url: str) -> None:
        """Forget a draft (it was sent).

        Args:
            method: The write's method.
            url: Where it went.

        Raises:
            OSError: When the file cannot be written.
        """
        with as_os_errors(self.path), self.lock, self.connection as connection:
            connection.execute("DELETE FROM drafts WHERE method = ? AND url = ?", (method, kept_url(url)))


def without_secret_lines(text: str) -> str:
    """A draft with what follows each secret-named key (to its line's end) taken out, unless it is
    taken out already: a body not yet JSON keeps no half-typed password."""
    for match in KEY.finditer(text):
        name = next(group for group in match.groups() if group is not None)
        if not is_secret(unescaped(name)) or text.startswith(f'"{REDACTED}"', match.end()):
            continue
        end = text.find("\n", match.end())
        end = len(text) if end < 0 else end
        return without_secret_lines(f'{text[: match.end()]}"{REDACTED}"{text[end:]}')
    return text
