"""A secret that does not show itself: not in reprs, f-strings, logs or tracebacks."""

from __future__ import annotations

REDACTED = "***"


class Secret:
    """Holds a credential. `str()` and `repr()` give ***; only `reveal()` gives the value."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    def reveal(self) -> str:
        """The secret itself: only where it is sent (a header, a form), never shown."""
        return self._value

    def __bool__(self) -> bool:
        return bool(self._value)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Secret) and other._value == self._value

    def __hash__(self) -> int:
        return hash(self._value)

    def __str__(self) -> str:
        return REDACTED

    def __repr__(self) -> str:
        return f"Secret('{REDACTED}')"

    def __reduce__(self) -> tuple[object, ...]:
        raise TypeError("a Secret is not pickled")


def redact_header(name: str, value: str) -> str:
    """A header value fit to show: credentials keep their scheme and lose the rest."""
    if name.lower() in ("authorization", "proxy-authorization"):
        scheme, _, _ = value.partition(" ")
        return f"{scheme} {REDACTED}" if scheme else REDACTED
    if name.lower() in ("cookie", "set-cookie"):
        return REDACTED
    return value
