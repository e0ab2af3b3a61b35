"""The request editor's body: a TextArea whose keys are done in the order they come."""

from __future__ import annotations

from textual import events
from textual.widgets import TextArea
from textual.widgets.text_area import DocumentBase, WrappedDocument

from explorer.tui.keys_in_turn import actions_by_key, run_in_turn
from explorer.tui.widgets.kept_documents import kept


class OrderedTextArea(TextArea):
    """A TextArea that does its editing and moving keys in turn with the characters typed after them.

    TextArea's cursor and editing keys (down, end, backspace, ...) are bindings, which Textual runs
    once the key has gone up to the app, after the characters that came behind it have been put in:
    down, end, backspace and `20` sent at once put `20` at the start of the line the cursor was on,
    then moved and deleted. Here the area runs them itself, when their turn comes (as OrderedInput
    does for a one-line field).
    """

    EDITING = actions_by_key(TextArea.BINDINGS)

    # The documents TextArea makes (at the start, and for each new text or language) are given their
    # keeping kinds as they are set: a body of megabytes then takes a keystroke as a small one does
    # (kept_documents.py says what Textual would work out again for every line drawn).

    @property  # TextArea's attribute, kept behind a property of the same name
    def document(self) -> DocumentBase:
        return self.kept_document

    @document.setter
    def document(self, document: DocumentBase) -> None:
        self.kept_document = kept(document)

    @property
    def wrapped_document(self) -> WrappedDocument:
        return self.kept_wrapping

    @wrapped_document.setter
    def wrapped_document(self, wrapped: WrappedDocument) -> None:
        self.kept_wrapping = kept(wrapped)

    async def on_key(self, event: events.Key) -> None:
        """An editing key's action, now: before TextArea's own handler, which only puts in characters."""
        await run_in_turn(self, self.EDITING, event)
