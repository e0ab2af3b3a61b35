"""A QR code of the class address, drawn in the terminal for phones and laptops to scan.

segno makes the code; it is drawn here two modules a character (upper and lower half blocks) in
plain black and white, so it scans the same on a dark or a light terminal.
"""

from __future__ import annotations

import segno

QUIET = 2  # modules of light border around the code (scanners need some; 4 is the standard's ample)
BLACK_ON_WHITE = "\x1b[30;107m"  # dark modules as the foreground, light as the background
RESET = "\x1b[0m"


def qr_lines(text: str) -> list[str]:
    """The QR code of `text` as terminal lines, each drawing two rows of modules."""
    rows = [[bool(module) for module in row] for row in segno.make(text, error="m", boost_error=False).matrix]
    width = len(rows[0]) + 2 * QUIET
    blank = [False] * width
    padded = [blank] * QUIET + [[False] * QUIET + row + [False] * QUIET for row in rows] + [blank] * (QUIET + 1)
    lines = []
    for top, bottom in zip(padded[0::2], padded[1::2], strict=False):
        cells = "".join(
            "█" if upper and lower else "▀" if upper else "▄" if lower else " "
            for upper, lower in zip(top, bottom, strict=True)
        )
        lines.append(f"{BLACK_ON_WHITE}{cells}{RESET}")
    return lines
