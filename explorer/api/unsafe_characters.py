"""Server text made safe for a terminal: every character shows, none is interpreted.

A server may send escape sequences (set the terminal's title, clear it, write the clipboard with
OSC 52, plant OSC 8 hyperlinks), bidirectional overrides that reorder what follows, and lone
surrogates that a terminal draws at another width than a layout counted. The screen and the
command line both pass server text through `visible()`, which replaces each such character
with a visible stand-in (`␛`, `<U+202E>`). The one exception is the body `explorer get` prints
to stdout: as received.
"""

from __future__ import annotations

import re

# C0 and C1 controls, DEL, the invisible format characters that reorder or hide text, and lone surrogates.
UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\ud800-\udfff]")


def stand_in(match: re.Match[str]) -> str:
    """The visible stand-in of an unsafe character: a control picture (␛), or <U+XXXX>."""
    char = match.group(0)
    code = ord(char)
    if code < 0x20:
        return chr(0x2400 + code)  # ␀ … ␟ (so a newline shows as ␊, an escape as ␛)
    if code == 0x7F:
        return "␡"
    return f"<U+{code:04X}>"


def visible(value: object) -> str:
    """The value as one line of plain text in which every character shows."""
    return UNSAFE.sub(stand_in, value if isinstance(value, str) else str(value))


def lines(value: str) -> list[str]:
    """Multi-line text (a body, an error detail) as lines, each with its controls visible."""
    return [visible(line.replace("\t", "    ")) for line in value.split("\n")]
