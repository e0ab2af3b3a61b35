"""JSON nested past --max-depth, wherever it comes from (a file to compare, a HAR file, a recorded
body with a secret in it), and dates and charsets past what Python holds: said, never raised."""

from __future__ import annotations

import io

import httpx
import pytest

from explorer.api.har import REDACTED, Redaction
from explorer.api.json_files import parse
from explorer.api.recording import RecordingError, read_recording
from explorer.api.resource import Resource
from explorer.api.values import CHUNKED_DECODE_THRESHOLD, TooDeep, as_date, json_within, local_time

DEPTHS = [101, 400, 950, 100_000]  # past the limit; 950 and 100,000 past json's own RecursionError too


@pytest.mark.parametrize("depth", DEPTHS)
def test_json_within_says_the_limit_at_any_depth_past_it(depth):
    with pytest.raises(TooDeep) as raised:
        json_within("[" * depth + "]" * depth)
    assert str(raised.value) == "JSON nested deeper than 100 levels (the depth limit)"
    assert raised.value.hint == "A higher depth limit reads it (up to 500 levels)."
    assert json_within("[" * 100 + "]" * 100, 100) is not None


@pytest.mark.slow
@pytest.mark.parametrize("depth", DEPTHS)
def test_a_body_over_a_megabyte_says_the_limit_as_a_small_one_does(depth):
    """Over CHUNKED_DECODE_THRESHOLD a body is decoded and measured a piece at a time: the same limit, the
    same words."""
    filler = ", ".join(['{"name": "[not nesting]", "links": [{"rel": "self"}]}'] * 30_000)
    deep = "[" * (depth - 2) + "]" * (depth - 2)  # inside a result inside the document: depth in all
    body = '{"results": [' + filler + ", " + deep + "]}"
    assert len(body) > CHUNKED_DECODE_THRESHOLD
    with pytest.raises(TooDeep) as raised:
        json_within(body)
    assert str(raised.value) == "JSON nested deeper than 100 levels (the depth limit)"
    at_limit = '{"results": [' + filler + ", " + "[" * 98 + "]" * 98 + "]}"
    assert len(json_within(at_limit)["results"]) == 30_001


@pytest.mark.parametrize("depth", [400, 950, 100_000])
def test_a_file_to_compare_nested_too_deeply_is_said_in_a_line(depth):
    data = ('{"a": ' * depth + "1" + "}" * depth).encode()
    with pytest.raises(ValueError) as raised:
        parse(io.BytesIO(data), "file deep.json")
    assert str(raised.value) == (
        "file deep.json is JSON nested deeper than 100 levels (the depth limit). "
        "A higher depth limit reads it (up to 500 levels)."
    )


@pytest.mark.parametrize("depth", [950, 100_000])
def test_a_har_file_nested_too_deeply_is_not_a_recording(tmp_path, depth):
    path = tmp_path / "deep.har"
    path.write_text('{"log": {"entries": ' + "[" * depth + "]" * depth + "}}")
    with pytest.raises(RecordingError) as raised:
        read_recording(path)
    assert str(raised.value) == f"{path} is not a HAR file: its JSON nests more than 500 levels"


@pytest.mark.parametrize("depth", [950, 100_000])
def test_a_recorded_body_with_a_secret_too_deep_to_find_is_not_written(depth):
    text = '{"password": "hunter2", "a": ' + "[" * depth + "]" * depth + "}"
    redaction = Redaction()
    assert redaction.body(text, "application/json", "response/content") == REDACTED
    assert redaction.places == ["response/content"]


@pytest.mark.parametrize("value", ["9999-12-31T23:59:59-14:00", "0001-01-01T00:00:00+14:00"])
def test_a_date_past_pythons_years_has_no_local_time(value):
    """The screen then shows it as sent (tests/tui/test_hostile.py)."""
    moment = as_date(value)
    assert moment is not None and local_time(moment) is None


def answer(body: bytes, charset: str) -> Resource:
    return Resource(
        method="GET",
        url="https://api.example/x",
        status=200,
        headers=httpx.Headers({"content-type": f"application/json; charset={charset}"}),
        request_headers=[],
        body=body,
        elapsed=0.0,
        received_at=0.0,
    )


@pytest.mark.parametrize("charset", ["x-unknown", "undefined"])  # no codec; a codec that always fails
def test_a_charset_no_codec_reads_is_said_and_the_body_shown_as_utf8(charset):
    blank = answer(b" \n", charset)
    assert (blank.json, blank.json_error, blank.text) == (None, None, " \n")
    resource = answer('{"a": "é"}'.encode(), charset)
    assert resource.json is None and resource.json_error.startswith(f"not {charset} text: ")
    assert resource.text == '{"a": "é"}'
