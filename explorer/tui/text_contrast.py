"""Every text on the screen readable on what it is drawn on, in any theme.

Textual's widgets draw some text faint on purpose (inactive tabs, footer keys, placeholders,
`dim`, `text-opacity`), and a theme's colours decide how faint: in several of Textual's own
themes that is below 2:1. The theme variables cannot reach all of it, so the explorer measures
each piece of text as it is drawn, after Textual has blended it (alpha, `dim`, opacity), and moves
its colour toward black or white just enough for 4.5:1 (WCAG AA) on its background. A colour that
already reads is left as it is, so a theme made legible (the shipped ones) is drawn as designed.

Not text, and left alone: lines and bars (box-drawing and block characters: borders, tree guides,
scrollbars), and a character drawn in its own background's colour (nothing shows). The guides and
scrollbar thumbs get their 3:1 from the theme's variables instead (palette.py, themes/).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from rich.color import Color as RichColor
from rich.segment import Segment
from rich.style import Style
from textual.color import BLACK, WHITE, Color
from textual.filter import LineFilter

LEAST = 4.5  # WCAG AA for text
LINES_AND_BARS = range(0x2500, 0x25A0)  # box drawing and block elements
SIXTEEN = tuple(
    Color.parse(f"#{value}")
    for value in "000000 AA0000 00AA00 AA5500 0000AA AA00AA 00AAAA AAAAAA "
    "555555 FF5555 55FF55 FFFF55 5555FF FF55FF 55FFFF FFFFFF".split()
)  # the standard terminal colours, as a 16-colour terminal draws them (VGA)


def luminance(colour: Color) -> float:
    """Relative luminance, as WCAG 2 defines it."""

    def channel(value: int) -> float:
        v = value / 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(colour.r) + 0.7152 * channel(colour.g) + 0.0722 * channel(colour.b)


def contrast(a: Color, b: Color) -> float:
    """The WCAG 2 contrast ratio, from 1 (the same) to 21 (black on white)."""
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def legible(colour: Color, backgrounds: Iterable[Color], least: float = LEAST) -> Color:
    """The colour, darkened or lightened just enough to be read on each of these backgrounds."""
    grounds = list(backgrounds)
    worst = max(grounds, key=lambda ground: -contrast(colour, ground))
    target = BLACK if contrast(BLACK, worst) >= contrast(WHITE, worst) else WHITE
    for step in range(21):
        moved = colour.blend(target, step / 20)
        if all(contrast(moved, ground) >= least for ground in grounds):
            return moved
    return target


def is_text(characters: str) -> bool:
    """Whether the characters hold something read (not only spaces, lines and bars)."""
    return any(not c.isspace() and ord(c) not in LINES_AND_BARS for c in characters)


@lru_cache(4096)
def legible_style(style: Style, background: RichColor, least: float = LEAST, sixteen: bool = False) -> Style:
    """The style with its colour made readable on its background (its own, else the widget's).

    With `sixteen`, every colour is also moved to the nearest of the sixteen (the text's to the
    nearest that is readable on the background's).
    """
    if style.color is None or style.color.triplet is None:
        return style  # the terminal's own colours: whatever the terminal makes them
    ground = style.bgcolor if style.bgcolor is not None else background
    if ground.triplet is None:
        return style
    colour, under = Color.from_rich_color(style.color), Color.from_rich_color(ground)
    if style.reverse:  # the terminal swaps them: the text is drawn in the background colour
        colour, under = under, colour
    if sixteen:
        under = nearest(under, SIXTEEN)
        readable = [each for each in SIXTEEN if contrast(each, under) >= least]
        colour = nearest(colour, readable or [BLACK, WHITE])
    elif colour != under and contrast(colour, under) < least:
        colour = legible(colour, [under], least)
    else:
        return style
    if style.reverse:
        colour, under = under, colour
    return style + Style(color=colour.rich_color, bgcolor=under.rich_color if style.bgcolor or sixteen else None)


@lru_cache(4096)
def sixteen_style(style: Style) -> Style:
    """Lines, bars and blank cells: their colours the nearest of the sixteen."""

    def snapped(value: RichColor | None) -> RichColor | None:
        if value is None or value.triplet is None:
            return value
        return nearest(Color.from_rich_color(value), SIXTEEN).rich_color

    return style + Style(color=snapped(style.color), bgcolor=snapped(style.bgcolor))


def nearest(colour: Color, choices: Iterable[Color]) -> Color:
    return min(choices, key=lambda each: sum((a - b) ** 2 for a, b in zip(each.rgb, colour.rgb, strict=True)))


class LegibleText(LineFilter):
    """A line filter that gives every text at least `least` contrast against its background.

    `sixteen` (the projector theme) draws every colour as one of the sixteen standard terminal
    colours, so that a 16-colour terminal shows the same.
    """

    least = LEAST
    sixteen = False

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        ground = background.rich_color
        least, sixteen = self.least, self.sixteen
        if sixteen:
            return [
                Segment(text, legible_style(style, ground, least, sixteen), control)
                if style is not None and not control and not style.dim and is_text(text)
                else Segment(text, sixteen_style(style) if style and not control else style, control)
                for text, style, control in segments
            ]
        drawn = []
        for segment in segments:
            text, style, control = segment
            if style is not None and not control and not style.dim:
                made = legible_style(style, ground, least)
                # a style that reads already is drawn as it is, text or not: only a changed one asks
                # whether the segment is text (most segments on a legible theme never do)
                if made is not style and made != style and is_text(text):
                    segment = Segment(text, made, control)
            drawn.append(segment)
        return drawn
