"""The editor's TextArea keeps its text and height between changes, and they are always Textual's own."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult
from textual.widgets.text_area import WrappedDocument

from explorer.tui.widgets.cached_documents import is_cached
from explorer.tui.widgets.ordered_text_area import OrderedTextArea

BODY = "{\n" + ",\n".join(f'  "field{i}": "{"x" * (i % 150)}"' for i in range(400)) + "\n}"


class Editing(App[None]):
    def __init__(self, language: str | None) -> None:
        super().__init__()
        self.language = language

    def compose(self) -> ComposeResult:
        yield OrderedTextArea(BODY, language=self.language, show_line_numbers=True)


def as_textual_says(area: OrderedTextArea) -> None:
    """The cached text and height are what Textual works out afresh."""
    assert is_cached(area.document) and is_cached(area.wrapped_document)
    assert area.text == "\n".join(area.document.lines)
    assert area.wrapped_document.height == WrappedDocument.height.fget(area.wrapped_document)  # type: ignore[attr-defined]


@pytest.mark.screen
@pytest.mark.parametrize("language", ["json", None])
async def test_the_kept_text_and_height_follow_every_kind_of_change(language):
    app = Editing(language)
    async with app.run_test(size=(60, 20)) as pilot:
        area = app.query_one(OrderedTextArea)
        area.focus()
        before = (area.text, area.wrapped_document.height)
        as_textual_says(area)
        area.move_cursor((3, 5))
        # typed, a line made (indented as the line it breaks: two spaces) and taken away
        await pilot.press("Q", "enter", "W", *["backspace"] * 4)
        assert area.text.splitlines()[3] == '  "fiQeld2": "xx",'
        as_textual_says(area)
        area.replace("a\nb\nc", (10, 0), (40, 0))  # thirty lines become three
        as_textual_says(area)
        assert area.wrapped_document.height < before[1]
        area.undo()
        area.undo()
        as_textual_says(area)
        area.redo()
        as_textual_says(area)
        await pilot.resize_terminal(30, 20)  # wrapped anew: long lines take more rows
        await pilot.pause()
        as_textual_says(area)
        area.text = BODY  # a new document
        as_textual_says(area)
        assert (area.text, area.language) == (before[0], language)
        area.language = "json" if language is None else None  # and another, of the other kind
        as_textual_says(area)
