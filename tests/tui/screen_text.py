"""What a person sees: the screen's text, line by line, read from Textual's own screenshot."""

from __future__ import annotations

import html
import re
from typing import Any

from rich.cells import cell_len

CELL = 12.2  # the width of a cell in Rich's SVG export (0.61 of its 20 px font)
TEXT = re.compile(  # a run of text: its x, its line, what it says
    r'<text class="[^"]*" x="([\d.]+)" y="[\d.]+" textLength="[\d.]+" '
    r'clip-path="url\(#[\w-]+-line-(\d+)\)">(.*?)</text>',
    re.S,
)


def screen_lines(app: Any) -> list[str]:
    """Each line of the screen as drawn (dialogs over what they cover), trailing spaces dropped."""
    width, height = app.size
    grid = [[" "] * width for _ in range(height)]
    for x, line, text in TEXT.findall(app.export_screenshot()):
        row, column = int(line), round(float(x) / CELL)
        if row >= height:
            continue
        for char in html.unescape(text).replace("\xa0", " ").rstrip("\n"):
            if column < width:
                grid[row][column] = char
            column += max(1, cell_len(char))
            if cell_len(char) == 2 and column - 1 < width:
                grid[row][column - 1] = ""  # the second half of a wide character
    return ["".join(cells).rstrip() for cells in grid]


def screen_text(app: Any) -> str:
    return "\n".join(screen_lines(app))


def region_text(app: Any, widget: Any, lines: list[str] | None = None) -> str:
    """The lines of the screen (or of `lines`, read from it before) inside a widget's region."""
    region = widget.region
    lines = (lines if lines is not None else screen_lines(app))[region.y : region.bottom]
    return "\n".join(cut(line, region.x, region.right).rstrip() for line in lines)


def cut(line: str, start: int, end: int) -> str:
    """The cells start..end of a line (wide characters count two)."""
    out, column = [], 0
    for char in line:
        if start <= column < end:
            out.append(char)
        column += max(1, cell_len(char))
    return "".join(out)


def rows_of(document: str) -> list[str]:
    """A document laid out as names and values, each value wrapping under itself (an error's
    fields), read as its rows: a line indented past the names goes on the row above it."""
    drawn = [line for line in document.splitlines() if line.strip()]
    margin = len(drawn[0]) - len(drawn[0].lstrip())
    rows: list[str] = []
    for line in drawn:
        if len(line) - len(line.lstrip()) > margin:
            rows[-1] += " " + line.strip()
        else:
            rows.append(line.strip())
    return rows
