"""JSON decoded a piece at a time (explorer/api/json_decoder.py) is json.loads's JSON, and its refusals."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from explorer.api import json_decoder

values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=10)),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=5), inner, max_size=4)),
    max_leaves=30,
)
spacing = st.sampled_from([None, 0, 2])


@pytest.mark.slow
@given(value=values, indent=spacing)
def test_any_json_decodes_as_json_loads_decodes_it(value, indent):
    text = json.dumps(value, indent=indent, ensure_ascii=False)
    assert json_decoder.loads(text) == json.loads(text)
    assert json_decoder.loads(f" \n{text}\t ") == json.loads(f" \n{text}\t ")


@pytest.mark.slow
@given(text=st.text(alphabet='[]{},:" \n0123456789.-etruanlfsx\\', max_size=30))
def test_any_text_is_refused_or_taken_as_json_loads_does(text):
    try:
        expected = json.loads(text)
    except ValueError as error:
        with pytest.raises(type(error)) as refused:
            json_decoder.loads(text)
        assert str(refused.value) == str(error)
    else:
        assert json_decoder.loads(text) == expected


def test_a_duplicate_name_keeps_the_last_value_and_nan_is_read_as_json_reads_it():
    assert json_decoder.loads('{"a": 1, "a": [2]}') == {"a": [2]}
    assert str(json_decoder.loads('{"x": [NaN, Infinity]}')) == str(json.loads('{"x": [NaN, Infinity]}'))


@pytest.mark.slow
@given(value=values, indent=spacing, levels=st.integers(min_value=0, max_value=6))
def test_given_its_levels_it_refuses_what_nests_deeper_and_reads_the_rest(value, indent, levels):
    """Each piece is measured as it comes (only one whose brackets could nest that deep is walked):
    the refusals are the whole document's, brackets inside strings included."""
    text = json.dumps(value, indent=indent, ensure_ascii=False)
    if json_decoder.deeper_than(value, levels):
        with pytest.raises(json_decoder.Deeper):
            json_decoder.loads(text, levels)
    else:
        assert json_decoder.loads(text, levels) == value


def test_brackets_in_strings_are_not_nesting():
    text = json.dumps({"results": [{"name": "[[[{{{", "links": [{"rel": "self"}]}]})  # 5 deep
    assert json_decoder.loads(text, 5) == json.loads(text)
    with pytest.raises(json_decoder.Deeper):
        json_decoder.loads(text, 4)
