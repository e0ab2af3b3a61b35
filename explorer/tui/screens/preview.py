"""The preview of a write: exactly what will go, what it changes, and the person's yes.

Nothing is sent without this screen's yes: Enter on a session that may write, and, for a DELETE,
the resource's name or id typed out first. Esc goes back to the editor, the draft as it was and
the cursor where it was.
"""

from __future__ import annotations

from collections.abc import Collection

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Static

from explorer.api.changes import Change
from explorer.api.counts import counted
from explorer.api.writes import Outgoing
from explorer.tui.safe_text import lines, visible
from explorer.tui.screens.dialogs import DIALOG_CSS
from explorer.tui.typeahead import Question, TypedAhead
from explorer.tui.widgets.key_footer import KeyFooter
from explorer.tui.widgets.ordered_input import OrderedInput

MOST_CHANGES = 200  # difference lines shown; the rest are counted


class PreviewScreen(Question, ModalScreen[bool]):
    """`True` when the person says send; `False` (Esc) goes back to the editor."""

    DEFAULT_CSS = (
        DIALOG_CSS.format(name="PreviewScreen")
        + """
    PreviewScreen > Vertical { max-width: 140; width: 90%; height: 90%; max-height: 90%; }
    PreviewScreen VerticalScroll { height: 1fr; }  /* what goes scrolls; the question below always shows */
    PreviewScreen .warning { color: $text-warning; }
    PreviewScreen .refused { color: $text-error; }
    PreviewScreen #answer { margin-top: 1; }
    PreviewScreen #mistyped { height: auto; }
    """
    )
    BINDINGS = [
        Binding("enter", "send", "Send", id="preview.send", priority=True),
        # A read-only session's Enter: said not sent. Not in the footer: nothing here can be sent.
        Binding("enter", "not_sent", "Not sent", id="preview.not-sent", show=False, priority=True),
        # Taken as it comes (priority), not once it has gone up to the app: the keys typed after it
        # are then the editor's, held for it until it is there (typeahead.py), not this screen's.
        Binding("escape", "back", "Back to the editor", id="preview.back", priority=True),
    ]

    def __init__(
        self,
        outgoing: Outgoing,
        *,
        differences: list[Change] | None,
        moved: list[Change],
        identity: str | None,
        accepted: Collection[str] = (),
        unfetched: str | None = None,
        problems: int = 0,
        writes_on: bool,
        because: str,
        ahead: TypedAhead | None = None,
        caveat: str | None = None,
    ) -> None:
        super().__init__()
        self.outgoing = outgoing
        self.differences = differences
        self.moved = moved  # what changed on the service since the editor opened
        self.identity = identity  # what a DELETE asks to have typed
        taken = {*accepted, *([identity] if identity else [])}  # the name, the id, the path's end
        self.accepted = taken | {visible(answer) for answer in taken}  # and each as it is shown
        self.unfetched = unfetched  # why the entity could not be fetched just now, if it could not
        self.problems = problems  # what the description's schema finds wrong with the body
        self.writes_on = writes_on
        self.because = because
        self.ahead = ahead  # where the keys typed after Esc wait for the editor
        self.caveat = caveat  # what the write cannot do that the person might expect (an undo's limits)

    def compose(self) -> ComposeResult:
        out = self.outgoing
        yield KeyFooter()
        with Vertical():
            yield Label(Text(f"{out.method} {visible(out.url)}", style="bold"))
            with VerticalScroll():  # what it changes first: at 24 rows the headers would hide it
                if self.unfetched is not None:
                    yield Static(
                        Text(
                            f"⚠ It could not be fetched just now ({visible(self.unfetched)}): no difference to show.\n"
                        ),
                        classes="warning",
                        id="unfetched",
                    )
                if self.differences is not None:
                    yield Static(self.difference_text(), id="differences")
                if self.moved:
                    moved = "\n".join(visible(change.line()) for change in self.moved[:20])
                    yield Static(
                        Text(f"⚠ It changed on the service since the editor opened:\n{moved}\n"), classes="warning"
                    )
                if self.caveat:
                    yield Static(Text(f"⚠ {visible(self.caveat)}\n"), classes="warning", id="caveat")
                if self.problems:
                    yield Static(
                        Text(
                            f"⚠ The API description's schema finds {counted(self.problems, 'problem')} in the body "
                            "(under the editor); the service has the last word.\n"
                        ),
                        classes="warning",
                        id="schema-problems",
                    )
                yield Static(Text("\n".join(f"{visible(name)}: {visible(value)}" for name, value in out.headers)))
                if out.body:
                    yield Static(Text("\n" + "\n".join(lines(out.body_text))), id="body")
                else:
                    yield Static(Text("\n(no body)"))
            if not self.writes_on:
                yield Label(
                    Text(f"Not sent: read-only ({self.because}). Esc goes back; copy it from the editor."),
                    classes="refused",
                    id="answer",
                )
            elif self.identity is not None:
                yield Label(Text(f"To delete it, type {visible(self.identity)} and press Enter. Esc goes back."))
                yield OrderedInput(placeholder=visible(self.identity), id="confirm")
                yield Static(id="mistyped", classes="refused")  # in the dialog: a notice took the field's lines
            else:
                yield Label(Text("Enter sends it, once. Esc goes back to the editor."), id="answer")

    def difference_text(self) -> Text:
        changes = self.differences or []
        if not changes:
            return Text("No field changes against the entity as fetched just now.\n")
        shown = [visible(change.line()) for change in changes[:MOST_CHANGES]]
        if len(changes) > MOST_CHANGES:
            shown.append(f"… and {len(changes) - MOST_CHANGES} more")
        return Text("Against the entity as fetched just now:\n" + "\n".join(shown) + "\n")

    def on_mount(self, event: events.Mount) -> None:
        self.asked_at = event.time  # a key typed before this is no answer to it (typeahead.py)
        for box in self.query("#confirm"):
            box.focus()
        if self.ahead is not None:
            self.ahead.came()  # the keys typed since ctrl+s go in: typed before the question, dropped

    def action_back(self) -> None:
        if self.ahead is not None:
            self.ahead.expect()
        self.dismiss(False)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Enter sends only where the session may write; a read-only session's preview offers no Send
        (its footer does not show it), and its Enter says why nothing is sent."""
        if action == "send":
            return self.writes_on
        if action == "not_sent":
            return not self.writes_on
        return True

    def action_not_sent(self) -> None:
        self.notify(f"Not sent: this session is read-only ({self.because}).", severity="error", markup=False)

    def action_send(self) -> None:
        """Enter: sent, once confirmed. The name typed to confirm a DELETE is read once its field has
        taken the keys typed before Enter (`orders-prod⏎` in one breath was refused as not typed)."""
        if not self.writes_on:  # never bound then (check_action): a second lock on the same door
            self.action_not_sent()
            return
        if self.identity is None:
            self.dismiss(True)
            return
        field = self.query_one("#confirm", Input)
        field.call_later(self.send_if_confirmed, field)

    def send_if_confirmed(self, field: Input) -> None:
        if field.value.strip() not in self.accepted:
            message = f"Not sent: that is not {visible(self.identity)}. Type it exactly to delete it."
            self.query_one("#mistyped", Static).update(Text(message))
            return
        self.dismiss(True)
