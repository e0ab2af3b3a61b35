"""Why a text is not JSON, said the same plain way by every reader: the body editor, a file to
compare, a body on the command line."""

from __future__ import annotations

import pytest

from explorer.api.body_check import check_body
from explorer.api.json_files import read_document

TAB = "a tab inside a string: write it as \\t"
UNCLOSED = 'a string not closed on its line: it needs its closing " (a line break in a string is \\n)'
COMMA = "a comma before the } or ] that closes: JSON takes none there"
VALUE = "expected a value (a string, number, object, array, true, false or null)"


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ('{\n  "name": "a\tb"\n}', f"line 2: not JSON: {TAB} (column 13)"),
        ('{\n  "name": "x\n}', f"line 2: not JSON: {UNCLOSED} (column 13)"),  # the quote left off, at the end
        ('"a\x01b"', "line 1: not JSON: a control character (U+0001) inside a string: write it as \\u0001 (column 3)"),
        ('{"tags": [1, 2,]}', f"line 1: not JSON: {COMMA} (column 16)"),
        ('{"a": 1,\n}', f"line 2: not JSON: {COMMA} (column 1)"),
        ('{"a" 1}', "line 1: not JSON: expected : between a name and its value (column 6)"),
        ('"abc', 'line 1: not JSON: a string that is not closed: it needs its closing " (column 1)'),
        ('"a\\x"', "line 1: not JSON: a backslash that starts no escape: write \\\\ for a backslash itself (column 3)"),
        ('"\\u12"', "line 1: not JSON: \\u needs four hexadecimal digits, such as \\u00e9 (column 3)"),
        ("1 2", "line 1: not JSON: more text after the end of the document: JSON is one value (column 3)"),
    ],
)  # fmt: skip
def test_the_body_editor_says_why_in_plain_words(text, said):
    assert check_body(text)[0].text() == said


@pytest.mark.parametrize(
    ("content", "said"),
    [
        ("", "is not JSON: it is empty"),
        ("  \n", "is not JSON: it is empty"),
        ('{"a": tru}', f"is not JSON: {VALUE}, at line 1, column 7"),
    ],
)
def test_a_file_to_compare_says_why_with_line_and_column(tmp_path, content, said):
    bad = tmp_path / "bad.json"
    bad.write_text(content)
    with pytest.raises(ValueError) as caught:
        read_document(bad)
    assert str(caught.value) == f"file {bad} {said}"
