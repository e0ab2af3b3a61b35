"""The request editor: a write's method and URL, its body as JSON, checked as it is typed.

The body is checked on every change: JSON first, then the API description's schema for it
(body_check.py), each problem with its line under the editor; a body over CHECKED_AT_ONCE
characters is checked in a thread, the newest text's check replacing one under way, so that typing
never waits for it (ctrl+s waits for the text as it is). The body is highlighted up to HIGHLIGHTED
characters: Textual's highlighting works through the whole body on every keystroke, about a
millisecond a kilobyte. The draft goes to its keeper on every change, so Esc, a refusal or a crash
of the flow never loses it. Nothing is sent from here:
ctrl+s asks for the preview, which alone can send. The editor hands back where the person was in the
body (its Place), so the editor that follows a cancelled preview opens there, not at line 1.
"""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

from rich.text import Text
from textual import work
from textual.app import ComposeResult, SuspendNotSupported
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.geometry import Offset
from textual.screen import Screen
from textual.widgets import Label, Static, TextArea
from textual.widgets.text_area import Selection

from explorer.api.body_check import Problem, check_body, line_of
from explorer.api.writes import Outgoing, WriteChoice
from explorer.display.shell_forms import (
    as_command,
    as_curl,
    credentials_note,
    in_variables,
    left_out,
    reads_secret,
    secret_variable,
    secrets_in,
    withheld,
)
from explorer.tui.external_editor import edit_text, editor_command
from explorer.tui.safe_text import visible
from explorer.tui.typeahead import TypedAhead
from explorer.tui.widgets.key_footer import KeyFooter
from explorer.tui.widgets.ordered_text_area import OrderedTextArea

Prepare = Callable[[str], Awaitable[Outgoing]]

HIGHLIGHTED = 10_000  # characters: above, the body is plain text (the about line says so)
CHECKED_AT_ONCE = 64_000  # characters: above, the body is checked in a thread (json alone: ~10 ms a MB)
NOT_HIGHLIGHTED = f"not highlighted: over {HIGHLIGHTED:,} characters"


@dataclass(frozen=True)
class Place:
    """Where the person was in the body: the cursor and selection, and how far it was scrolled. Each
    step back from the preview opens a new editor, which starts here so typing goes where it did."""

    selection: Selection = Selection()
    scroll: Offset | None = None  # None: just so far that the cursor shows

    @classmethod
    def on_line(cls, line: int) -> Place:
        """The start of a line (counted from 1): where a refusal sends the cursor, to the field it names."""
        return cls(Selection.cursor((line - 1, 0)))


class EditorScreen(Screen[tuple[str, Place] | Place]):
    """A write being prepared. Dismissed with the body to preview and the place in it (ctrl+s), or
    None (Esc: the draft is kept). With writes off it still prepares: ctrl+o and ctrl+g copy it as
    curl or as a command."""

    DEFAULT_CSS = """
    EditorScreen > Vertical { padding: 0 1; }
    EditorScreen #request { width: 1fr; height: auto; text-style: bold; }
    EditorScreen #about { width: 1fr; height: auto; color: $text-muted; }
    EditorScreen TextArea { height: 1fr; }
    EditorScreen #problem-box { height: auto; max-height: 7; }  /* scrolls: never pushes the editor away */
    EditorScreen #problems { height: auto; }
    EditorScreen #problems.bad { color: $text-error; }
    EditorScreen #problems.good { color: $text-success; }
    EditorScreen ToastRack { layer: default; }  /* notices take their lines from the editor, above its footer */
    """
    BINDINGS = [
        Binding("ctrl+s", "preview", "Preview", id="editor.preview"),
        Binding("ctrl+o", "copy_curl", "Copy as curl", id="editor.copy_curl"),
        Binding("ctrl+g", "copy_command", "Copy as command", id="editor.copy_command"),
        # ctrl+a and ctrl+e are TextArea's (Emacs's) line start and end; here, as in most editors,
        # select all and the person's own editor (home and end still go to the line's start and end).
        # Priority: before the body's own bindings; each done in the body's turn (in_turn).
        Binding("ctrl+a", "select_all", "Select all", id="editor.select_all", priority=True),
        Binding("ctrl+l", "clear", "Clear", id="editor.clear", priority=True),
        Binding("ctrl+e", "open_in_editor", "$EDITOR", id="editor.open_in_editor", priority=True),
        Binding("escape", "close", "Back", id="editor.close"),
    ]

    def __init__(
        self,
        choice: WriteChoice,
        text: str,
        *,
        schema: Mapping[str, Any] | None,
        keep: Callable[[str], None],
        prepare: Prepare,
        base_url: str,
        reached_by: tuple[str, ...] = (),
        ca_bundle: str | None = None,
        refusal: Problem | None = None,
        about: str = "",
        place: Place = Place(),
        ahead: TypedAhead | None = None,
    ) -> None:
        super().__init__()
        self.choice = choice
        self.text = text
        self.schema = schema
        self.keep = keep
        self.prepare = prepare
        self.base_url = base_url
        self.reached_by = reached_by  # how a shell reaches the same service: ctrl+g's command says it
        self.ca_bundle = ca_bundle  # the authority the session trusts: ctrl+o's curl trusts it too
        self.refusal = refusal  # the service's refusal of the last try, on the line of the field it names
        self.highlighted = len(text) <= HIGHLIGHTED
        plain = "" if self.highlighted else NOT_HIGHLIGHTED
        self.about = " · ".join(part for part in (about, plain) if part)
        self.place = place  # where to start: where the last editor was left, or a refused field's line
        self.ahead = ahead  # where the keys typed after the editor was asked for wait for it
        self.problems: list[Problem] = []
        self.blocked: str | None = None  # why nothing can be previewed or copied as it is
        self.checked: str | None = None  # the text `problems` and `blocked` are of

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(Text(f"{self.choice.method} {visible(self.choice.url)}"), id="request")
            yield Label(Text(self.about), id="about")
            if self.choice.method == "DELETE":
                yield Static(Text("A DELETE sends no body: ctrl+s previews it, and asks you to confirm."))
            else:
                area = OrderedTextArea(
                    self.text,
                    language="json" if self.highlighted else None,
                    tab_behavior="focus",
                    show_line_numbers=True,
                    id="body",
                )
                area.selection = self.place.selection  # before any key can reach it
                yield area
            with VerticalScroll(id="problem-box"):
                yield Static(id="problems")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.check()
        for area in self.query(TextArea):
            self.call_after_refresh(self.scroll_back, area)  # once laid out: until then it has no size
            area.focus()
        if self.ahead is not None:
            self.ahead.came()  # the keys typed since it was asked for go in, once the body has the focus

    def scroll_back(self, area: TextArea) -> None:
        """Scrolled as it was left, so the lines stand where the person last saw them."""
        if self.place.scroll is None:
            area.scroll_cursor_visible()
        else:
            area.scroll_to(self.place.scroll.x, self.place.scroll.y, animate=False)

    @property
    def body(self) -> str:
        areas = self.query(TextArea)
        return areas.first().text if areas else ""

    def on_text_area_changed(self, event: TextArea.Changed) -> None:
        body = self.body
        self.keep(body)
        if len(body) > CHECKED_AT_ONCE:
            self.check_in_thread(body)
        else:
            self.check()

    def check(self) -> None:
        """The body as it is now, checked and its problems shown."""
        body = self.body
        self.show(body, *self.problems_of(body))

    @work(thread=True, exclusive=True, group="check")
    def check_in_thread(self, body: str) -> None:
        """A long body checked off the screen's thread; a newer text's check replaces this one."""
        found = self.problems_of(body)
        self.app.call_from_thread(self.show, body, *found)

    def problems_of(self, body: str) -> tuple[list[Problem], str | None]:
        """What is wrong with `body` (its problems, and why it cannot go as it is, if it cannot)."""
        problems = check_body(body, self.schema) if self.choice.method != "DELETE" else []
        return problems, blocked(self.choice, body, problems, self.schema is not None)

    def show(self, body: str, problems: list[Problem], why_blocked: str | None) -> None:
        """`body`'s problems under the editor, each with its line; the last refusal first, kept
        until the next try (on its field's line as the text moves). A check of a text since changed
        is not shown: a newer one comes."""
        if not self.is_attached or body != self.body:
            return
        self.checked = body
        if self.blocked is not None and why_blocked != self.blocked:
            self.withdraw_blocked(self.blocked)
        self.problems, self.blocked = problems, why_blocked
        refusal = self.refusal
        if refusal is not None and refusal.field is not None:
            refusal = Problem(line_of(body, [refusal.field]), refusal.message, refusal.field)
        empty = [Problem(0, self.blocked)] if self.blocked and not self.problems else []
        problems = ([refusal] if refusal else []) + empty + self.problems
        box = self.query_one("#problems", Static)
        box.set_class(bool(problems), "bad")
        box.set_class(not problems, "good")
        if problems:
            box.update(Text("\n".join(visible(problem.text()) for problem in problems)))
        else:
            kind = "JSON" + (", as the API description's schema asks" if self.schema else "")
            box.update(Text(f"✓ {kind}" if body.strip() else "✓ no body"))

    def withdraw_blocked(self, why: str) -> None:
        """The body is no longer what a notice said (`The body is not JSON: …`): that notice goes."""
        withdraw = getattr(self.app, "withdraw", None)  # ExplorerApp's; a bare host has none to take back
        if withdraw is not None:
            for notice in (CANNOT_SEND, CANNOT_COPY):
                withdraw(notice.format(why))

    def current(self) -> None:
        """The problems of the body as it is now: checked here if the last check was of another text."""
        if self.checked != self.body:
            self.check()

    def action_preview(self) -> None:
        self.current()
        if self.blocked:
            self.notify(CANNOT_SEND.format(self.blocked), severity="error", markup=False)
            return
        if self.ahead is not None:
            self.ahead.expect()  # the keys typed after it wait for the preview (which drops them: typeahead.py)
        self.dismiss((self.body, self.left_at()))

    def action_close(self) -> None:
        """Esc: the draft is kept (by `keep`), and where it was left, to open there again."""
        self.dismiss(self.left_at())

    def left_at(self) -> Place:
        areas = self.query(TextArea)
        return Place(areas.first().selection, areas.first().scroll_offset) if areas else Place()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The body's keys (select all, clear, $EDITOR) only where there is a body: not for a DELETE."""
        return action not in BODY_ACTIONS or bool(self.query(TextArea))

    def in_turn(self, act: Callable[[TextArea], None]) -> None:
        """`act` on the body once it has done the keys typed before this one (they wait in its queue),
        and before those typed after it: ctrl+a then `x` in one breath replaces everything with `x`."""
        for area in self.query(TextArea):
            area.call_later(act, area)

    def action_select_all(self) -> None:
        """ctrl+a: the whole body selected; typing replaces it, delete or backspace empties it."""
        self.in_turn(TextArea.select_all)

    def action_clear(self) -> None:
        self.in_turn(self.clear)

    def clear(self, area: TextArea) -> None:
        """The body emptied, as one edit: ctrl+z brings it back."""
        if area.text:
            area.clear()
            self.notify("The body is cleared: ctrl+z brings it back.", markup=False)

    def action_open_in_editor(self) -> None:
        self.in_turn(self.open_in_editor)

    def open_in_editor(self, area: TextArea) -> None:
        """The body in the person's own editor ($VISUAL, else $EDITOR), the explorer suspended until it
        ends, then back in the body as one edit (ctrl+z undoes it). Where it cannot be (no editor set,
        one that fails, a browser session), a notice says why and the body stays as it was."""
        if self.app.is_web:
            self.notify(NO_TERMINAL, severity="warning", markup=False)
            return
        command = editor_command(os.environ)
        if command is None:
            self.notify(NO_EDITOR, severity="error", markup=False)
            return
        try:
            with self.app.suspend():
                edited = edit_text(area.text, command)
        except SuspendNotSupported:
            self.notify(NO_TERMINAL, severity="warning", markup=False)
            return
        if edited.text is None:
            self.notify(edited.problem, severity="error", markup=False)
        elif edited.text == area.text:
            self.notify("The body came back from the editor unchanged.", markup=False)
        else:
            self.take_back(area, edited.text)

    def take_back(self, area: TextArea, text: str) -> None:
        """`text` from the editor as the body, one edit (undoable), the cursor where it was (or as near
        as the new text allows); not highlighted if it is now too long to be (the about line says so)."""
        where = area.cursor_location
        if len(text) > HIGHLIGHTED and self.highlighted:
            self.highlighted = False
            area.language = None
            self.about = " · ".join(part for part in (self.about, NOT_HIGHLIGHTED) if part)
            self.query_one("#about", Label).update(Text(self.about))
        area.replace(text, (0, 0), area.document.end, maintain_selection_offset=False)
        area.cursor_location = where
        area.scroll_cursor_visible()
        self.notify("The body is back from the editor: ctrl+z undoes it.", markup=False)

    @work(group="copy")
    async def action_copy_curl(self) -> None:
        await self.copy(lambda outgoing: as_curl(outgoing, self.ca_bundle), curl=True)

    @work(group="copy")
    async def action_copy_command(self) -> None:
        await self.copy(
            lambda outgoing: as_command(outgoing, self.base_url, self.reached_by), secret_variable(self.reached_by)
        )

    async def copy(self, render: Callable[[Outgoing], str], secret: str | None = None, *, curl: bool = False) -> None:
        """Copy the write as `render` makes it; the notice says what it leaves out, and, for a `curl`,
        how to set the variables it says the credentials as (`TOKEN=$(explorer token …)`)."""
        from explorer.api.errors import ApiError

        self.current()
        if self.blocked:
            self.notify(CANNOT_COPY.format(self.blocked), severity="error", markup=False)
            return
        try:
            outgoing = await self.prepare(self.body)
        except (ApiError, ValueError) as error:
            self.notify(visible(str(error)), severity="error", markup=False)
            return
        command = render(outgoing)
        self.app.copy_to_clipboard(command)
        note = left_out(secrets_in(outgoing)) + in_variables(withheld(outgoing))  # a password, not copied
        if curl:
            note = credentials_note(outgoing, self.reached_by) + note
        self.notify(copied(command, secret) + note, markup=False)


CANNOT_SEND = "{}: nothing can be sent until it is."  # said while the body is blocked; taken back once it is not
CANNOT_COPY = "{}: nothing to copy until it is."
BODY_ACTIONS = frozenset({"select_all", "clear", "open_in_editor"})
NO_TERMINAL = (
    "The body cannot open in $EDITOR here: in a browser session (explorer serve) there is no terminal "
    "to hand to an editor. Edit it here; the body is as it was."
)
NO_EDITOR = (
    "No editor is set: set $VISUAL or $EDITOR (for example: export EDITOR=nano) before starting the "
    "explorer. The body is as it was."
)


def copied(command: str, secret: str | None = None, most: int = 60) -> str:
    """What a toast says of a copied command: its start and its size, not all of it (a body can be
    long), and the variable it reads the secret from, if one (reads_secret)."""
    first = visible(command.splitlines()[0] if command else "")
    first = first if len(first) <= most else first[: most - 1] + "…"
    lines = command.count("\n") + 1
    return f"Copied {first}" + (f" ({lines} lines)" if lines > 1 else "") + reads_secret(secret)


def blocked(choice: WriteChoice, body: str, problems: list[Problem], has_schema: bool) -> str | None:
    """Why the body cannot go as it is: not JSON, or empty where the write needs one; None if it can.

    A PATCH or PUT always sends fields; a POST does unless its description documents no body (an
    action such as a restart), which a POST without a schema from a description is taken to be."""
    if any(problem.message.startswith("not JSON") for problem in problems):
        return "The body is not JSON"
    if body.strip() or choice.method == "DELETE":
        return None
    if choice.method == "POST" and choice.documented and not has_schema:
        return None
    return f"The body is empty: a {choice.method} sends {WHAT_IT_SENDS.get(choice.method, 'a body')}"


WHAT_IT_SENDS = {"PATCH": "the fields it changes", "PUT": "the whole entity", "POST": "what it creates"}


def refusal_problem(text: str, field: str | None, line: str) -> Problem:
    """The service's refusal shown under the editor: on the line of the field it names, else as a whole."""
    if field is None:
        return Problem(0, f"the service refused it: {line}")
    return Problem(line_of(text, [field]), line, field)
