"""Small modal screens: go to a path or URL, save a body, read a whole error document.

Several small dialogs sharing one CSS and one way of asking and answering: each is a few dozen
lines, and apart they would repeat that.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from urllib.parse import unquote, urlsplit, urlunsplit

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.suggester import Suggester, SuggestFromList, SuggestionReady
from textual.widgets import Input, Label, Static
from textual.widgets.input import Selection

from explorer.api.description import VARIABLE, Description
from explorer.api.errors import ApiError
from explorer.tui.safe_text import lines, visible
from explorer.tui.widgets.key_footer import KeyFooter
from explorer.tui.widgets.ordered_input import OrderedInput
from explorer.tui.widgets.page_view import error_document

DIALOG_CSS = """
{name} {{
    align: center middle;
    background: $background 60%;
}}
{name} > Vertical {{
    width: 80%;
    max-width: 110;
    height: auto;
    max-height: 80%;
    border: thick $primary;
    background: $surface;
    padding: 1 2;
}}
{name} Label {{
    width: 1fr;  /* a long line wraps: a URL or what a write will do is never cut */
    margin-bottom: 1;
}}
{name} > Vertical > Label:last-child {{
    margin-bottom: 0;  /* the padding is room enough: two blank rows cut what the dialog says above */
}}
{name} ToastRack {{
    layer: default;  /* the dialog's: notices take their lines from its room, never cover what it says */
}}
{name} Toast {{
    max-width: 100%;  /* beside nothing now: as wide as it goes (60), as few lines taken as can be */
}}
"""


QUESTION_CELLS = 58  # a line of the dialog on a terminal of 80 columns (80% of it, less the border and padding)


def save_question(what: str, folder: str | None = None) -> str:
    """`Save WHAT to (a path, from FOLDER):`: a name typed alone lands in the folder the explorer was
    started from, which a newcomer cannot tell; the question says it, cut at its start (`…/me/work`)
    to keep the question on one line. `folder` is the current one unless given; none if it is gone."""
    if folder is None:
        try:
            folder = os.getcwd()
        except OSError:  # the folder was removed since: a relative path cannot be written anyway
            return f"Save {what} to:"
    start, end = f"Save {what} to (a path, from ", "):"
    shown = visible(folder)
    room = max(QUESTION_CELLS - cell_len(start + end), 10)
    if cell_len(shown) > room:
        last_part = ""
        for character in reversed(shown):
            if cell_len(last_part) + cell_len(character) > room - 1:
                break
            last_part = character + last_part
        shown = "…" + last_part
    return f"{start}{shown}{end}"


class AskScreen(ModalScreen[str | None]):
    """One line of input: Enter gives it back, Esc gives None.

    With a `check`, what is typed is checked as it is typed (a jq program that does not compile),
    its problem said under the line; Enter on a problem keeps the dialog, and the text, open."""

    DEFAULT_CSS = (
        DIALOG_CSS.format(name="AskScreen")
        + """
    AskScreen #problem { color: $text-error; height: auto; }
    """
    )
    BINDINGS = [
        # The field's own Enter, named in the footer: a priority binding, as the field's is not shown.
        Binding("enter", "answer", "OK", priority=True, id="dialog.answer"),
        Binding("escape", "dismiss(None)", "Cancel", id="dialog.cancel"),
    ]

    def __init__(
        self,
        question: str,
        value: str = "",
        placeholder: str = "",
        suggestions: Sequence[str] = (),
        empty_ok: bool = False,
        check: Callable[[str], str | None] | None = None,
        problem: str | None = None,
    ) -> None:
        """`suggestions` complete what is typed (→ takes one): a watch's likely condition. `empty_ok`:
        Enter on nothing gives "" back (an answer: no condition), not None (as Esc). `check` says
        what is wrong with a text, or None; `problem` is said at first (the last try's)."""
        super().__init__()
        self.empty_ok = empty_ok
        self.question = question
        self.value = value
        self.placeholder = placeholder
        self.suggestions = list(suggestions)
        self.check = check
        self.problem = problem

    def compose(self) -> ComposeResult:
        yield KeyFooter()
        with Vertical():
            yield Label(Text(self.question))
            suggester = SuggestFromList(self.suggestions, case_sensitive=True) if self.suggestions else None
            yield OrderedInput(value=self.value, placeholder=self.placeholder, suggester=suggester)
            yield Static(Text(self.problem or ""), id="problem")

    async def action_answer(self) -> None:
        """Enter: the field's own (the key line lets it in once the keys typed before it are in)."""
        await self.query_one(Input).action_submit()

    def on_key(self, event: events.Key) -> None:
        """A key that reaches the question while its field has no focus is the field's: Textual gives
        a new screen's field the focus only while the terminal has it (a blurred window, tmux's
        send-keys to a pane not in view), and the key that brings the focus back comes to the screen."""
        if self.focused is not None or event.key == "escape":
            return
        field = self.query_one(Input)
        self.set_focus(field)
        field.post_message(events.Key(event.key, event.character))
        event.stop()

    def on_input_changed(self, event: Input.Changed) -> None:
        if self.check is not None:
            typed = event.value.strip()
            self.say(self.check(typed) if typed else None)

    def say(self, problem: str | None) -> None:
        self.problem = problem
        self.query_one("#problem", Static).update(Text(problem or ""))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        typed = event.value.strip()
        if self.check is not None and (typed or not self.empty_ok):  # nothing typed where something must be: said
            problem = self.check(typed)
            if problem is not None:
                self.say(problem)
                return
        self.dismiss(typed or ("" if self.empty_ok else None))


class DocumentedPaths(Suggester):
    """The documented paths that continue what is typed in `g`, in the form it is typed in.

    What is typed is a path under the API root, a path from the origin or a URL; the session's own
    rule (`resolve`) makes a URL of it, the description completes that URL's path, and the
    completion is written back onto the text as typed. Text that already names a documented path
    is continued by its children (`/groups/ID` → `/groups/ID/accessList`). A segment that is only a
    step towards documented paths is offered with its `/` (`…/backup/`), so what is below it is
    listed at once. A variable is offered as its template writes it (`{clusterName}`), to be typed
    over; it is not continued before it is.
    """

    def __init__(self, description: Description, resolve: Callable[[str], str]) -> None:
        super().__init__(use_cache=True, case_sensitive=True)
        self.description = description
        self.resolve = resolve

    async def get_suggestion(self, value: str) -> str | None:
        found = self.completions(value)
        return found[0] if found else None

    def completions(self, typed: str) -> list[str]:
        """The completions of the segment being typed, then the children of a documented path."""
        path = self.path_of(typed)
        partial = typed.rpartition("/")[2]
        if path is None or unquote(path.rpartition("/")[2]) != unquote(partial):
            return []  # what is typed does not end in the path it names (`https://host`)
        path = path[: path.rfind("/") + 1] + partial  # as typed: `{` is not sent as `%7B` here
        found = [
            typed[: len(typed) - len(partial)] + name
            for name in (last_segment(completion) for completion in self.description.completions(path))
            if name != partial
        ]
        if partial and not partial.startswith("{") and self.description.knows(path):
            found += [f"{typed}/{last_segment(child)}" for child in self.description.completions(path + "/")]
        return found

    def path_of(self, typed: str) -> str | None:
        """The path of the URL `typed` names (`…/` when it ends in a slash); None for text with a
        query, or that is not a URL."""
        if not typed.strip() or "?" in typed or "#" in typed:
            return None
        try:
            path = urlsplit(self.resolve(typed)).path
        except ApiError:
            return None
        return path + "/" if typed.endswith("/") and not path.endswith("/") else path

    def start(self, here: str | None) -> str:
        """The shortest text that goes to `here`: a path under the API root (`/` at the root), a path
        from the origin, else the URL itself."""
        if not here:
            return ""
        parts = urlsplit(here)
        url = urlunsplit((parts.scheme, parts.netloc, parts.path, "", ""))
        segments = parts.path.split("/")[1:]
        for at in range(len(segments), -1, -1):
            candidate = "/" + "/".join(segments[at:])
            try:
                if self.resolve(candidate) == url:
                    return candidate
            except ApiError:
                continue
        return url


class Names:
    """Names side by side, as many lines of them as `rows` and the width allow, then how many more."""

    def __init__(self, names: list[str], rows: int = 3) -> None:
        self.names = names
        self.rows = rows

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for count in range(len(self.names), -1, -1):
            more = [f"+{len(self.names) - count} more"] if count < len(self.names) else []
            rows = side_by_side(self.names[:count] + more, options.max_width)
            if len(rows) <= self.rows:
                break
        yield Text("\n".join(rows), no_wrap=True, overflow="ellipsis")


def side_by_side(names: list[str], width: int) -> list[str]:
    """Names two spaces apart, a new line where the next does not fit."""
    rows: list[str] = []
    for name in names:
        if rows and cell_len(rows[-1]) + 2 + cell_len(name) <= width:
            rows[-1] += "  " + name
        else:
            rows.append(name)
    return rows


class GoToScreen(AskScreen):
    """`g`: a path under the API root, a path from the origin, or a URL.

    With the API description, the field starts at the node in view, selected (typing or a paste
    takes its place; End keeps it); the first documented path that continues what is typed shows
    as ghost text, which → takes, and all of them are listed under the field. A variable taken is
    selected, to be typed over, and Enter does not send a path that still holds one. Without a
    description, it is the plain question it always was.
    """

    DEFAULT_CSS = """
    GoToScreen #documented { color: $text-muted; height: auto; max-height: 3; margin-top: 1; }
    """

    def __init__(self, description: Description | None, resolve: Callable[[str], str], here: str | None = None) -> None:
        self.paths = DocumentedPaths(description, resolve) if description is not None else None
        start = self.paths.start(here) if self.paths else ""
        super().__init__("Go to a path under the API root, or a URL:", value=start, placeholder="/groups")
        found = self.paths.completions(start) if self.paths else []
        self.offered = found[0] if found else None  # the completion shown as ghost text for what is typed

    def compose(self) -> ComposeResult:
        yield KeyFooter()
        with Vertical() as dialog:
            yield Label(Text(self.question))
            yield OrderedInput(value=self.value, placeholder=self.placeholder, suggester=self.paths)
            if self.paths is not None:
                dialog.border_subtitle = "→ takes the completion · esc cancels"
                yield Static(id="documented")

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """Focus takes an Input's ghost text away: the field's first completion is offered again."""
        if self.paths is not None and isinstance(event.widget, Input) and self.offered:
            event.widget.post_message(SuggestionReady(event.widget.value, self.offered))

    def on_input_changed(self, event: Input.Changed) -> None:
        if self.paths is None:
            return
        taken = self.offered
        found = self.paths.completions(event.value)
        self.offered = found[0] if found else None
        variable = first_variable(event.value)
        if found or variable is None:
            self.query_one("#documented", Static).update(Names([visible(last_segment(p)) for p in found]))
        else:
            self.ask_for(variable, event.value)
        if event.value == taken and variable is not None and variable[1] == len(event.value):
            event.input.selection = Selection(*variable)  # a variable just taken: typing replaces it

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if not event.value.strip():  # only spaces: said, and the question stays
            self.notify("Nothing to go to: type a path such as /groups, or a URL (esc goes back).", markup=False)
            event.prevent_default()
            return
        variable = first_variable(event.value) if self.paths is not None else None
        if variable is not None:
            event.input.selection = Selection(*variable)
            self.ask_for(variable, event.value)
            event.prevent_default()  # AskScreen's handler, which would send it, is not called

    def ask_for(self, variable: tuple[int, int], value: str) -> None:
        name = visible(value[slice(*variable)])
        self.query_one("#documented", Static).update(Text(f"Type the value of {name} in its place."))


def last_segment(path: str) -> str:
    """A completion's last segment, with the `/` that marks a step towards documented paths
    (`backup/` of `…/clusters/NAME/backup/`)."""
    return path.rstrip("/").rpartition("/")[2] + ("/" if path.endswith("/") else "")


def first_variable(value: str) -> tuple[int, int] | None:
    """Where the first `{name}` segment of a path is (start, end), if it has one."""
    at = 0
    for segment in value.split("/"):
        if VARIABLE.match(segment):
            return at, at + len(segment)
        at += len(segment) + 1
    return None


class ErrorScreen(ModalScreen[None]):
    """The whole error document, its fields one a line, the hint, and the body as received."""

    DEFAULT_CSS = (
        DIALOG_CSS.format(name="ErrorScreen")
        + """
    ErrorScreen VerticalScroll { height: auto; max-height: 100%; }
    ErrorScreen #fields { color: $text-error; }
    ErrorScreen #body { color: $text-muted; margin-top: 1; }
    """
    )
    BINDINGS = [
        Binding("escape", "dismiss", "Close", id="dialog.close"),
        Binding("q", "dismiss", "Close", show=False, id="dialog.close_q"),
    ]

    def __init__(self, error: ApiError) -> None:
        super().__init__()
        self.error = error

    def compose(self) -> ComposeResult:
        yield KeyFooter()
        with Vertical() as dialog, VerticalScroll():
            dialog.border_subtitle = "esc or q closes"
            yield Static(error_document(self.error), id="fields")
            if self.error.body:
                body = self.error.body.decode("utf-8", "replace")
                yield Static(Text("\n".join(lines(body))), id="body")
