"""A secret that does not show itself: not in reprs, f-strings, logs or tracebacks."""

from __future__ import annotations

REDACTED = "***"


class Secret:
    """A credential that does not show itself: `str()` and `repr()` give `***`, `reveal()` the value.

    So a secret can be passed around, logged, formatted into an f-string or shown in a traceback
    without showing itself. Two secrets are equal when their values are, and an empty one is false.
    It is never pickled, so it is never written out by accident: pickling raises TypeError, and so
    do `copy.copy` and `copy.deepcopy`, which go through the same hook, and `dataclasses.asdict` of
    Credentials that hold one, which deep-copies each value.

    Args:
        value: The credential itself: a client secret, a private key or a token.
    """

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    def reveal(self) -> str:
        """Return the credential itself, to send it (in a header, a form), never to show it.

        Returns:
            The credential as given, in plain text.
        """
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
    """Return a header's value fit to show: credentials keep their scheme and lose the rest."""
    if name.lower() in ("authorization", "proxy-authorization"):
        scheme, _, _ = value.partition(" ")
        return f"{scheme} {REDACTED}" if scheme else REDACTED
    if name.lower() in ("cookie", "set-cookie"):
        return REDACTED
    return value
