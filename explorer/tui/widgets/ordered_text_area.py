"""The request editor's body: a TextArea whose keys are done in the order they come, and that keeps
JSON's indentation as it is typed (indenting.py)."""

from __future__ import annotations

from typing import Any

from textual import events
from textual.binding import Binding, BindingType
from textual.widget import Widget
from textual.widgets import TextArea
from textual.widgets.text_area import DocumentBase, WrappedDocument

from explorer.tui.indenting import CLOSING, INDENT, dedented, line_break
from explorer.tui.ordered_bindings import actions_by_key, run_in_turn
from explorer.tui.widgets.cached_documents import with_cache

TAKEN = frozenset({"ctrl+a", "ctrl+e"})  # TextArea's line start and end: the request editor's select all and $EDITOR


def bindings_but(kind: type[Widget], taken: frozenset[str]) -> list[BindingType]:
    """A widget class's bindings as Textual merges them (a class's key over its bases'), but `taken`.

    Args:
        kind: The widget class.
        taken: The keys left out, for the screen above to bind.

    Returns:
        The bindings, one key each.
    """
    keys: dict[str, list[Binding]] = {}
    for klass in reversed(kind.__mro__):
        own: dict[str, list[Binding]] = {}
        for binding in Binding.make_bindings(vars(klass).get("BINDINGS", ())):
            own.setdefault(binding.key, []).append(binding)
        keys.update(own)
    return [binding for key, bindings in keys.items() if key not in taken for binding in bindings]


class OrderedTextArea(TextArea, inherit_bindings=False):
    """A TextArea that does its editing and moving keys in turn with the characters typed after them.

    TextArea's cursor and editing keys (down, end, backspace, ...) are bindings, which Textual runs
    once the key has gone up to the app, after the characters that came behind it have been put in:
    down, end, backspace and `20` sent at once put `20` at the start of the line the cursor was on,
    then moved and deleted. Here the area runs them itself, when their turn comes (as OrderedInput
    does for a one-line field).

    ctrl+a and ctrl+e, TextArea's (Emacs's) line start and end, are left to the request editor, whose
    select all and $EDITOR they are (screens/editor.py): with them here, the footer named them first.
    """

    BINDINGS = bindings_but(TextArea, TAKEN)  # home and end still go to the line's start and end
    EDITING = actions_by_key(BINDINGS)

    # The documents TextArea makes (at the start, and for each new text or language) are given their
    # caching classes as they are set: a body of megabytes then takes a keystroke as a small one does
    # (cached_documents.py says what Textual would work out again for every line drawn).

    @property  # TextArea's attribute, kept behind a property of the same name
    def document(self) -> DocumentBase:
        return self.cached_document

    @document.setter
    def document(self, document: DocumentBase) -> None:
        self.cached_document = with_cache(document)

    @property
    def wrapped_document(self) -> WrappedDocument:
        return self.cached_wrapping

    @wrapped_document.setter
    def wrapped_document(self, wrapped: WrappedDocument) -> None:
        self.cached_wrapping = with_cache(wrapped)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.indent_width = INDENT  # the house's JSON indentation, a level for Enter and tab alike

    async def on_key(self, event: events.Key) -> None:
        """An editing key's action, now: before TextArea's own handler, which only puts in characters.
        Enter and a closing bracket are put in here, indented (indenting.py)."""
        if self.read_only or not (event.key == "enter" or event.character in CLOSING):
            await run_in_turn(self, self.EDITING, event)
            return
        event.prevent_default()
        event.stop()
        if event.key == "enter":
            self.break_line()
        elif event.character is not None:
            self.put_closing(event.character)

    def break_line(self) -> None:
        """Enter: a new line (over the selection, if any) indented as the one it breaks, one level
        more after a `{` or `[`."""
        start, end = sorted(self.selection)
        after = self.document[end[0]][end[1] :]
        cut = line_break(self.document[start[0]][: start[1]], after, self.indent_width)
        self.replace(cut.text, start, (end[0], end[1] + cut.swallowed), maintain_selection_offset=False)
        self.cursor_location = (start[0] + 1, cut.column)

    def put_closing(self, character: str) -> None:
        """A `}` or `]`: a level further left where only blanks stand before the cursor on its line."""
        start, end = sorted(self.selection)
        row, column = start
        taken = dedented(self.document[row][:column], character, self.indent_width) if start == end else None
        self.replace(character, (row, column - (taken or 0)), end, maintain_selection_offset=False)
