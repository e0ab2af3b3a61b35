"""`a`: what can be done to the resource in view (after a create, to what it made), and whether this
session may send it."""

from __future__ import annotations

from rich.console import Console, ConsoleOptions, RenderResult
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option

from explorer.api.writes import WriteChoice
from explorer.tui.ordered_bindings import actions_by_key
from explorer.tui.safe_text import visible
from explorer.tui.screens.dialogs import DIALOG_CSS
from explorer.tui.typeahead import TypedAhead
from explorer.tui.url_layout import url_lines
from explorer.tui.widgets.choice_list import ChoiceList
from explorer.tui.widgets.key_footer import KeyFooter
from explorer.tui.writing import NOTHING_AT_ROOT


def writes_line(on: bool, because: str) -> Text:
    """What the session may do with what is prepared: send it, or only copy it."""
    if on:
        return Text.assemble(("writes on", "bold"), f" ({because}): each write is previewed, then sent once.")
    return Text(
        f"read-only ({because}): prepare and copy a request (as curl, as an explorer command); sending "
        "needs --writes, EXPLORER_WRITES=1 or writes = true in the profile."
    )


class ActOn:
    """`Act on URL`, the URL broken after a `/` where the dialog's width ends: a word wrap breaks a
    URL where it runs out of room, mid-segment (`…/clusters/reportin`, then `g`)."""

    def __init__(self, url: str) -> None:
        self.url = url

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        lines = url_lines(visible(self.url), options.max_width, lead="Act on ")
        yield Text("\n".join(lines), style="bold", no_wrap=True, overflow="ellipsis")


class ActScreen(ModalScreen[WriteChoice | None]):
    """The writes the API description documents for the path in view (summary, method, roles), or the
    conventions' (marked not documented). Enter opens one in the request editor; Esc closes."""

    DEFAULT_CSS = (
        DIALOG_CSS.format(name="ActScreen")
        + """
    ActScreen > Vertical { max-height: 100%; }  /* all the room a notice leaves: its list does not scroll */
    ActScreen OptionList { height: auto; max-height: 12; }
    ActScreen #writes { margin-bottom: 1; }
    ActScreen #writes.on { color: $text-warning; }
    """
    )
    BINDINGS = [
        Binding("escape", "dismiss(None)", "Close", id="dialog.cancel"),
    ]
    LIST_KEYS = actions_by_key(OptionList.BINDINGS)

    def __init__(
        self,
        url: str,
        choices: list[WriteChoice],
        on: bool,
        because: str,
        ahead: TypedAhead | None = None,
        nothing: str = NOTHING_AT_ROOT,
    ) -> None:
        """`ahead`: where the keys typed after `a` wait for this dialog, and those after the choice for
        the editor (typeahead.py); `nothing`: what the dialog says when there are no choices (why nothing
        can be done here)."""
        super().__init__()
        self.url = url
        self.choices = choices
        self.on = on
        self.because = because
        self.ahead = ahead
        self.nothing = nothing
        self.chosen = False

    def on_mount(self) -> None:
        if self.ahead is not None:
            self.ahead.came()  # the keys typed after `a` come to this dialog now, in order

    def compose(self) -> ComposeResult:
        yield KeyFooter()
        with Vertical():
            yield Label(ActOn(self.url))
            yield Label(writes_line(self.on, self.because), id="writes", classes="on" if self.on else "")
            if not self.choices:
                yield Label(Text(self.nothing))
                return
            yield ChoiceList(*(Option(self.label(choice), id=str(at)) for at, choice in enumerate(self.choices)))

    @staticmethod
    def label(choice: WriteChoice) -> Text:
        text = Text.assemble((f"{choice.method:<7}", "bold"), visible(choice.summary))
        if choice.roles:
            text.append(f"  roles: {visible(' or '.join(choice.roles))}", style="dim")
        return text

    async def on_key(self, event: events.Key) -> None:
        """The list's keys, done as they come; the keys after Enter are the editor's.

        Textual runs the list's bindings once a key has gone up to the app, after the keys typed behind
        it have come here: Enter then `down` in one breath would move the list, not the editor's
        cursor, and the characters would be lost. So the list's keys are done here, in turn, and
        Enter chooses at once: what comes after it waits for the editor it opens (typeahead.py)."""
        if self.chosen:
            return
        action = self.LIST_KEYS.get(event.key)
        options = self.query(OptionList)
        if action is None or not options:
            return
        event.prevent_default()
        event.stop()
        if action != "select":
            await options.first().run_action(action)
        elif (at := options.first().highlighted) is not None:
            self.choose(self.choices[at])

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.choose(self.choices[int(event.option.id or 0)])

    def choose(self, choice: WriteChoice) -> None:
        """Once only: a click and Enter can both choose before the screen is gone."""
        if self.chosen:
            return
        self.chosen = True
        if self.ahead is not None:
            self.ahead.expect()
        self.dismiss(choice)
