"""Textual's TextArea documents, each caching what it was last asked for until the text changes.

Textual's TextArea asks its documents two questions for every line it draws: the whole text (to
see whether its placeholder is due) and the wrapped height (to see whether the line is past the
end). Both are worked out afresh each time, a join of every line and a sum over every line, about
forty times a frame. With a 1 MB body (68,000 lines) that made each keystroke take half a second.
Here each answer is cached until the document changes, which it does only through `replace_range`
(the text) or `wrap` and `wrap_range` (the wrapping): every other question goes to Textual's own.

`with_cache` gives a document of Textual's its caching class, in place: the TextArea keeps the same object
and everything it holds (a syntax tree, the wrapping done so far).
"""

from __future__ import annotations

from typing import Any, TypeVar

from textual.widgets.text_area import Document, EditResult, Location, SyntaxAwareDocument, WrappedDocument

DocumentT = TypeVar("DocumentT")


class CachedTextDocument(Document):
    """Textual's plain Document, its whole text joined once per change."""

    joined: str | None = None

    @property
    def text(self) -> str:
        if self.joined is None:
            self.joined = super().text
        return self.joined

    def replace_range(self, start: Location, end: Location, text: str) -> EditResult:
        self.joined = None
        return super().replace_range(start, end, text)


class CachedTextSyntaxAwareDocument(SyntaxAwareDocument, CachedTextDocument):
    """Textual's highlighted document, its text cached: its own `replace_range` edits the syntax tree,
    then comes to CachedTextDocument's, then to Document's."""


class CachedHeightWrappedDocument(WrappedDocument):
    """A wrapped document whose height is summed once per wrapping."""

    summed: int | None = None

    @property
    def height(self) -> int:
        if self.summed is None:
            self.summed = super().height
        return self.summed

    def wrap(self, width: int, tab_width: int | None = None) -> None:
        self.summed = None
        super().wrap(width, tab_width)

    def wrap_range(self, start: Location, old_end: Location, new_end: Location) -> None:
        self.summed = None
        super().wrap_range(start, old_end, new_end)


CACHING: dict[type, type] = {
    Document: CachedTextDocument,
    SyntaxAwareDocument: CachedTextSyntaxAwareDocument,
    WrappedDocument: CachedHeightWrappedDocument,
}


def with_cache(document: DocumentT) -> DocumentT:
    """`document`, of its caching class if Textual's class has one (another kind is left as it is).

    Its class is changed rather than the document made anew: a caching class adds only methods and a
    class attribute, so the object and everything Textual put in it stay as they are."""
    caching = CACHING.get(type(document))
    if caching is not None:
        document.__class__ = caching
    return document


def is_cached(document: Any) -> bool:
    """Whether `document` is of a caching class (for tests: a Textual that makes documents of a new
    kind would quietly go back to slow keystrokes)."""
    return isinstance(document, CachedTextDocument | CachedHeightWrappedDocument)
