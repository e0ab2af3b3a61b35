"""Contrast (WCAG 2) and colour-blindness simulation (Machado et al. 2009, full severity), to check themes."""

from __future__ import annotations

from textual.color import Color

MACHADO = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900)),
}


def linear(colour: str) -> tuple[float, float, float]:
    c = Color.parse(colour)

    def channel(value: int) -> float:
        v = value / 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    return channel(c.r), channel(c.g), channel(c.b)


def luminance(colour: str) -> float:
    r, g, b = linear(colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def lab(rgb: tuple[float, float, float]) -> tuple[float, float, float]:
    r, g, b = (min(1.0, max(0.0, v)) for v in rgb)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def seen_as(colour: str, deficiency: str) -> tuple[float, float, float]:
    r, g, b = linear(colour)
    return tuple(m[0] * r + m[1] * g + m[2] * b for m in MACHADO[deficiency])  # type: ignore[return-value]


def difference(a: str, b: str, deficiency: str | None = None) -> float:
    """CIE76 ΔE between two colours, as seen with the deficiency (or with full colour vision)."""
    la = lab(seen_as(a, deficiency) if deficiency else linear(a))
    lb = lab(seen_as(b, deficiency) if deficiency else linear(b))
    return sum((p - q) ** 2 for p, q in zip(la, lb, strict=True)) ** 0.5
