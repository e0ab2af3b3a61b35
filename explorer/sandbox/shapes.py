"""The shape of one field of a request body: how a value is checked, and how it is described.

Each shape answers both questions from the same numbers (a string's bounds, a list's size, an
object's fields), so that what the sandbox refuses (writes.py) and what its API description's
JSON Schema says (openapi.py) cannot drift apart. `check` answers None for a good value, else
what was expected, in words a refusal can quote.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any

from explorer.sandbox.documents import ApiProblem
from explorer.sandbox.query import parse_date
from explorer.sandbox.world import OBJECT_ID

# What a text field refuses, as a character class that JSON Schema (ECMA-262) and Python read alike,
# so that the check and the description's pattern are one: C0 and C1 controls; the characters that
# are not drawn or that reorder what is (the soft hyphen, bidi controls, zero-width ones, Arabic and
# Syriac format marks, the interlinear annotation marks, the byte-order mark); and every space but
# the space itself, line and paragraph separators included. All of these `str.isprintable`, the
# check before, refused too; it also refused unassigned and private-use characters, which no pattern
# can follow across Unicode versions, and which are taken now. Two more are refused beside the
# pattern, since no class of one expression names them in both languages: a lone surrogate (JSON's
# "\ud800" alone: no character of a JSON Schema string) and the tag characters (U+E0000–U+E007F,
# invisible letters that can smuggle text past a reader).
UNPRINTABLE = (
    "\\u0000-\\u001f\\u007f-\\u00a0\\u00ad\\u0600-\\u0605\\u061c\\u06dd\\u070f\\u08e2\\u1680\\u180e"
    "\\u2000-\\u200f\\u2028-\\u202f\\u205f-\\u206f\\u3000\\ufeff\\ufff9-\\ufffb"
)
PRINTABLE = f"^[^{UNPRINTABLE}]*$"
VISIBLE = "characters, none a control or an invisible one"  # what a text field is said to take
BESIDE_THE_PATTERN = re.compile("[\ud800-\udfff\U000e0000-\U000e007f]")


def ipv6(h16: str, ls32: str) -> str:
    """RFC 3986's IPv6address, a regular expression: eight 16-bit groups, or fewer around one `::`."""
    forms = [f"(?:{h16}:){{6}}{ls32}", f"::(?:{h16}:){{5}}{ls32}"]
    for before, after in ((0, 4), (1, 3), (2, 2), (3, 1)):
        ahead = f"(?:(?:{h16}:){{0,{before}}}{h16})?" if before else f"(?:{h16})?"
        forms.append(f"{ahead}::(?:{h16}:){{{after}}}{ls32}")
    forms.append(f"(?:(?:{h16}:){{0,4}}{h16})?::{ls32}")
    forms.append(f"(?:(?:{h16}:){{0,5}}{h16})?::{h16}")
    forms.append(f"(?:(?:{h16}:){{0,6}}{h16})?::")
    return "(?:" + "|".join(forms) + ")"


# IP addresses and CIDR blocks, in regular expressions that JSON Schema (ECMA-262) and Python read
# alike: the sandbox's check and its description's pattern (Network). No leading zeros in a dotted
# quad or a prefix length, no IPv6 zone (%eth0): what `ipaddress` takes of these, it takes whole.
OCTET = "(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])"
IPV4 = f"{OCTET}(?:\\.{OCTET}){{3}}"
H16 = "[0-9A-Fa-f]{1,4}"
IPV6 = ipv6(H16, f"(?:{H16}:{H16}|{IPV4})")
ADDRESS = f"(?:{IPV4}|{IPV6})"
BLOCK = f"(?:{IPV4}/(?:3[0-2]|[12]?[0-9])|{IPV6}/(?:12[0-8]|1[01][0-9]|[1-9]?[0-9]))"
ADDRESS_OR_BLOCK = f"(?:{BLOCK}|{ADDRESS})"


class Shape(ABC):
    """A field's shape: what a good value is (`check`), and its JSON Schema (`schema`)."""

    @abstractmethod
    def check(self, value: Any) -> str | None: ...

    @abstractmethod
    def schema(self) -> dict[str, Any]: ...


@dataclass(frozen=True)
class Text(Shape):
    """A string within bounds, none of its characters a control or an invisible one (UNPRINTABLE); with
    `pattern`, also matching it whole."""

    minimum: int = 1
    maximum: int = 64
    pattern: str | None = None
    expected: str | None = None  # what is expected, when the pattern needs saying

    def check(self, value: Any) -> str | None:
        good = (
            isinstance(value, str)
            and self.minimum <= len(value) <= self.maximum
            and re.fullmatch(PRINTABLE, value) is not None
            and BESIDE_THE_PATTERN.search(value) is None
            and (self.pattern is None or re.fullmatch(self.pattern, value) is not None)
        )
        return None if good else self.said()

    def said(self) -> str:
        """What a good value is, in words: a refusal's, and the description's."""
        return self.expected or f"a string of {self.minimum} to {self.maximum} {VISIBLE}"

    def schema(self) -> dict[str, Any]:
        pattern = f"^{self.pattern}$" if self.pattern else PRINTABLE
        return {
            "type": "string",
            "description": self.said(),
            "minLength": self.minimum,
            "maxLength": self.maximum,
            "pattern": pattern,
        }


@dataclass(frozen=True)
class Choice(Shape):
    """One of a few strings."""

    values: tuple[str, ...]
    expected: str | None = None

    def check(self, value: Any) -> str | None:
        return None if value in self.values else self.expected or "one of " + ", ".join(self.values)

    def schema(self) -> dict[str, Any]:
        return {"type": "string", "enum": list(self.values)}


@dataclass(frozen=True)
class Boolean(Shape):
    def check(self, value: Any) -> str | None:
        return None if isinstance(value, bool) else "true or false"

    def schema(self) -> dict[str, Any]:
        return {"type": "boolean"}


@dataclass(frozen=True)
class Number(Shape):
    """A number within bounds; `whole` for an integer. JSON's true and false are not numbers here."""

    minimum: float
    maximum: float
    whole: bool = False

    def check(self, value: Any) -> str | None:
        number = isinstance(value, int | float) and not isinstance(value, bool)
        if number and (isinstance(value, int) or not self.whole) and self.minimum <= value <= self.maximum:
            return None
        return f"{'an integer' if self.whole else 'a number'} from {self.minimum:g} to {self.maximum:g}"

    def schema(self) -> dict[str, Any]:
        return {"type": "integer" if self.whole else "number", "minimum": self.minimum, "maximum": self.maximum}


@dataclass(frozen=True)
class Identifier(Shape):
    """A service identifier: 24 hexadecimal characters."""

    def check(self, value: Any) -> str | None:
        good = isinstance(value, str) and OBJECT_ID.fullmatch(value)
        return None if good else "an ID of 24 hexadecimal characters"

    def schema(self) -> dict[str, Any]:
        return {"type": "string", "pattern": f"^{OBJECT_ID.pattern}$"}


@dataclass(frozen=True)
class Date(Shape):
    """An ISO 8601 date; without a zone designator, UTC (spec 2.10)."""

    def check(self, value: Any) -> str | None:
        if isinstance(value, str):
            try:
                parse_date("date", value)
                return None
            except ApiProblem:
                pass
        return "an ISO 8601 date such as 2026-08-10T03:00:00Z"

    def schema(self) -> dict[str, Any]:
        return {"type": "string", "format": "date-time"}


@dataclass(frozen=True)
class Network(Shape):
    """An IP address (`block=False`) or a CIDR block (`block=True`), IPv4 or IPv6, as ADDRESS and
    BLOCK write them: the pattern the description gives is the check. A block with host bits set
    (10.0.0.1/8) is kept as its network (10.0.0.0/8), as `ipaddress.ip_network(strict=False)` has it."""

    block: bool

    def check(self, value: Any) -> str | None:
        grammar = BLOCK if self.block else ADDRESS
        good = isinstance(value, str) and re.fullmatch(grammar, value, re.ASCII) is not None
        return None if good else self.expected()

    def expected(self) -> str:
        return "a CIDR block such as 10.0.0.0/16" if self.block else "an IP address such as 192.0.2.15"

    def schema(self) -> dict[str, Any]:
        return {"type": "string", "description": self.expected(), "pattern": f"^{BLOCK if self.block else ADDRESS}$"}


@dataclass(frozen=True)
class ListOf(Shape):
    item: Shape
    items_expected: str  # what the items are, in a refusal: "objects with key and value"
    minimum: int = 0
    maximum: int = 100

    def check(self, value: Any) -> str | None:
        if (
            isinstance(value, list)
            and self.minimum <= len(value) <= self.maximum
            and all(self.item.check(v) is None for v in value)
        ):
            return None
        return f"a list of {self.minimum} to {self.maximum} {self.items_expected}"

    def schema(self) -> dict[str, Any]:
        return {"type": "array", "items": self.item.schema(), "minItems": self.minimum, "maxItems": self.maximum}


@dataclass(frozen=True)
class Object(Shape):
    """An object of known fields, those not `optional` required; any other field refused."""

    fields: dict[str, Shape]
    optional: frozenset[str] = field(default_factory=frozenset)
    expected: str = "an object"

    def check(self, value: Any) -> str | None:
        if not isinstance(value, dict):
            return self.expected
        if not set(self.fields) - self.optional <= value.keys() <= self.fields.keys():
            return self.expected
        return None if all(self.fields[k].check(v) is None for k, v in value.items()) else self.expected

    def schema(self) -> dict[str, Any]:
        return {
            "type": "object",
            "properties": {name: shape.schema() for name, shape in self.fields.items()},
            "required": [name for name in self.fields if name not in self.optional],
            "additionalProperties": False,
        }


@dataclass(frozen=True)
class Reported(Shape):
    """A field the service reports and a client never sets: only its JSON type is described."""

    kind: str | None = None  # a JSON Schema type, or None for any

    def check(self, value: Any) -> str | None:
        return None  # never checked: a read-only field may only repeat its value (writes.Fields)

    def schema(self) -> dict[str, Any]:
        return {"type": self.kind} if self.kind else {}


TAG = Object({"key": Text(1, 255), "value": Text(1, 255)}, expected="an object with key and value")
TAGS = ListOf(TAG, "objects with key and value")
LINKS = Reported("array")
