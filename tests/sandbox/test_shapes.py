"""A field's check and its JSON Schema say the same: what the description allows, the sandbox takes.

Schemathesis (test_schemathesis.py) finds a disagreement by chance; these go through the two sides
of each shape with many values, the schema read as the explorer's editor reads it (body_check), and
the address grammar against Python's own `ipaddress`.
"""

from __future__ import annotations

import ipaddress
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.api.body_check import body_validator
from explorer.sandbox.shapes import ADDRESS, BESIDE_THE_PATTERN, BLOCK, Network, Text

# Text as a client sends it, the controls and invisible ones named often enough to be drawn: any
# character but the two kinds the sandbox refuses beside the pattern (BESIDE_THE_PATTERN), which the
# last test takes on.
TEXT = st.text(
    st.one_of(
        st.characters(exclude_categories=["Cs"]).filter(lambda c: not BESIDE_THE_PATTERN.match(c)),
        st.sampled_from("\x00\x1b\x7f\x85\u00a0\u00ad\u061c\u200b\u200e\u2028\u202e\u2066\u3000\ufeff\U0001f600"),
    ),
    max_size=70,
)


def described(shape: Text | Network, value: str) -> bool:
    """Whether the description allows `value`, as the explorer's editor reads the schema."""
    return bool(body_validator(shape.schema()).is_valid(value))


@settings(max_examples=400)
@given(TEXT)
def test_text_is_taken_exactly_when_its_pattern_allows_it(value):
    shape = Text(1, 64)
    assert (shape.check(value) is None) == described(shape, value)


@settings(max_examples=400)
@given(st.one_of(st.ip_addresses().map(str), st.from_regex(re.compile(ADDRESS, re.ASCII), fullmatch=True), TEXT))
def test_an_address_is_taken_exactly_when_its_pattern_allows_it_and_python_reads_it(value):
    shape = Network(block=False)
    assert (shape.check(value) is None) == described(shape, value)
    if shape.check(value) is None:
        ipaddress.ip_address(value)


@settings(max_examples=400)
@given(
    st.one_of(
        st.ip_addresses().map(lambda a: f"{a}/{a.max_prefixlen // 2}"),
        st.from_regex(re.compile(BLOCK, re.ASCII), fullmatch=True),
        TEXT,
    )
)
def test_a_block_is_taken_exactly_when_its_pattern_allows_it_and_python_reads_it(value):
    shape = Network(block=True)
    assert (shape.check(value) is None) == described(shape, value)
    if shape.check(value) is None:
        ipaddress.ip_network(value, strict=False)


def test_what_is_refused_in_a_text_and_what_is_not():
    shape = Text(1, 64)
    refused = ("a\x00b", "tab\there", "\x1b[31mred", "right\u202eto left", "zero\u200bwidth", "non\u00a0breaking")
    for value in (*refused, "soft\u00adhyphen", "wide\u3000space", "a\ud800", "tag\U000e0041ged"):
        assert shape.check(value) is not None, repr(value)
    for value in ("café", "emoji \U0001f600", "日本語", "private\ue000use"):
        assert shape.check(value) is None, repr(value)
