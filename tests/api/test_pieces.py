"""JSON decoded a piece at a time (explorer/api/pieces.py) is json.loads's JSON, and its refusals."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.api import pieces

values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=10)),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=5), inner, max_size=4)),
    max_leaves=30,
)
spacing = st.sampled_from([None, 0, 2])


@settings(max_examples=2000, deadline=None)
@given(value=values, indent=spacing)
def test_any_json_decodes_as_json_loads_decodes_it(value, indent):
    text = json.dumps(value, indent=indent, ensure_ascii=False)
    assert pieces.loads(text) == json.loads(text)
    assert pieces.loads(f" \n{text}\t ") == json.loads(f" \n{text}\t ")


@settings(max_examples=2000, deadline=None)
@given(text=st.text(alphabet='[]{},:" \n0123456789.-etruanlfsx\\', max_size=30))
def test_any_text_is_refused_or_taken_as_json_loads_does(text):
    try:
        expected = json.loads(text)
    except ValueError as error:
        with pytest.raises(type(error)) as refused:
            pieces.loads(text)
        assert str(refused.value) == str(error)
    else:
        assert pieces.loads(text) == expected


def test_a_duplicate_name_keeps_the_last_value_and_nan_is_read_as_json_reads_it():
    assert pieces.loads('{"a": 1, "a": [2]}') == {"a": [2]}
    assert str(pieces.loads('{"x": [NaN, Infinity]}')) == str(json.loads('{"x": [NaN, Infinity]}'))
