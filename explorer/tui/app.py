"""ExplorerApp: opens a session (or asks for one), shows the explorer screen, closes cleanly.

One class, the app's wiring: the key line, notices, themes and quitting each hook one of Textual's
App methods, and those hooks belong on the app itself.
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import events
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.command import CommandPalette
from textual.notifications import Notification, Notify, SeverityLevel
from textual.screen import Screen

from explorer.api.config import Credentials
from explorer.api.config_file import config_path, remember
from explorer.api.errors import ApiError, ConfigError
from explorer.api.har import archive, save
from explorer.api.local_paths import cannot_write
from explorer.api.session import Session, seconds_taken
from explorer.api.watching import EVERY
from explorer.tui.key_line import KeyLine
from explorer.tui.keys import key_table
from explorer.tui.palette import PaletteApp
from explorer.tui.presenter_feed import PresenterFeed
from explorer.tui.safe_text import visible
from explorer.tui.screens.command_palette import KeyedPalette
from explorer.tui.screens.main import MainScreen
from explorer.tui.text_contrast import LEAST
from explorer.tui.themes import DEFAULT_THEME, PROJECTOR_CONTRAST, PROJECTOR_THEME, load_themes, shipped_dir, skipped
from explorer.tui.typeahead import Question, TypedAhead
from explorer.tui.widgets.status_bar import StatusBar

if TYPE_CHECKING:
    from explorer.tui.screens.login import Result

HAR = "the session as HAR"  # redacted: the notice after saving says so
SAVED_NAME = "explorer-session.har"  # what "Save the session as HAR" suggests, and a browser's download is


QUIT_KEYS = frozenset(binding.key for binding in Binding.make_bindings(App.BINDINGS) if binding.action == "quit")
QUIT_DROPS = (events.Key, events.Paste, events.MouseDown, events.MouseUp, events.Click)  # once `q` is pressed


class ExplorerApp(PaletteApp):
    TITLE = "explorer"
    ENABLE_COMMAND_PALETTE = True
    # Textual's notices stand in a rack that keeps a scrollbar's two columns: a toast's height was
    # measured 40 cells wide and drawn 39 wide at 80 columns, and a line that then wrapped once more
    # put the notice's last line over the status bar. No scrollbar, the same width both times.
    CSS = "ToastRack { scrollbar-size-vertical: 0; }"

    def __init__(
        self,
        session: Session | None,
        *,
        demo: Callable[[], Session],
        problem: ApiError | None = None,
        login: Mapping[str, str] | None = None,
        connect: Callable[[Credentials], Session] = Session,
        keymap: dict[str, str] | None = None,
        settings_path: Path | None = None,
        theme: str | None = None,
        saved_theme: str | None = None,
        theme_dirs: Sequence[Path] | None = None,
        presenter: bool = False,
        watch_every: float = EVERY,
    ) -> None:
        """Without a session, the login screen asks for one: it starts from `login` (base_url,
        client_id, ca_bundle) and opens it with `connect`. `theme` is this run's; `saved_theme`,
        the config file's, is used when none is asked for or the one asked for does not exist."""
        super().__init__()
        self.session = session
        self.demo = demo
        self.problem = problem
        self.login = dict(login or {})
        self.connect = connect
        self.keymap = keymap or {}
        self.watch_every = watch_every  # seconds between a watch's fetches, as the config file says
        self.settings_path = settings_path or config_path()
        self.closed = False
        self.quitting = False
        self.previewing: str | None = None  # the theme to go back to while the theme palette previews
        self.notices: dict[tuple[str, str], Notification] = {}  # a notice's words and kind -> the notice
        self.keys = KeyLine(self, self.let_in, self.key_waits, self.quits)
        self.ahead = TypedAhead(self.keys.resume)  # a write's screen on its way: the keys typed meanwhile wait
        self.presenter_feed = PresenterFeed(self, lambda: self.session) if presenter else None
        themes, problems = load_themes(*(theme_dirs or [shipped_dir()]))
        for each in themes:
            self.register_theme(each)
        self.theme_notes = skipped(problems)
        self.theme = self.usable_theme(theme, PROJECTOR_THEME if presenter else saved_theme)

    def watch_theme(self, name: str) -> None:
        """The projector theme is drawn in the sixteen standard colours, each text at 6:1 at least."""
        projector = name == PROJECTOR_THEME
        self.legible_text.least = PROJECTOR_CONTRAST if projector else LEAST
        self.legible_text.sixteen = projector

    def usable_theme(self, *wanted: str | None) -> str:
        """The first of `wanted` there is a theme of, else the default; a note names those there are not."""
        missing = []
        for name in filter(None, wanted):
            if name in self.available_themes:
                chosen = name
                break
            missing.append(name)
        else:
            chosen = DEFAULT_THEME
        if missing:
            self.theme_notes.append(
                f"There is no theme {' nor '.join(map(repr, missing))}: using {chosen}. "
                "ctrl+p → Theme lists the themes."
            )
        return chosen

    def on_mount(self) -> None:
        self.screen_change_signal.subscribe(self, self.screen_changed)
        if self.keymap:
            self.set_keymap(self.keymap)
        if self.theme_notes:  # one notice, which fits at 60x24 with every file named
            self.notify("\n".join(self.theme_notes), title="Theme", severity="warning", timeout=15, markup=False)
        if self.presenter_feed is not None:
            self.presenter_feed.start()
        if self.session is not None:
            self.push_screen(MainScreen(self.session, self.ahead, self.watch_every))
        else:
            from explorer.tui.screens.login import LoginScreen

            self.push_screen(LoginScreen(self.problem, self.settings_path, self.login, self.connect), self.logged_in)

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """A notice, unless the same one already shows: Enter pressed twice on a refusal stacked two
        alike, which took a dialog's lines twice over (at 24 rows, those of the field it spoke of).
        Made here, as Textual's own notify does, to be kept: `withdraw` takes one back."""
        key = (message, severity)
        existing = self.notices.get(key)
        if existing is not None and not existing.has_expired:
            return
        self.notices = {old: notice for old, notice in self.notices.items() if not notice.has_expired}
        notice = Notification(
            message, title, severity, self.NOTIFICATION_TIMEOUT if timeout is None else timeout, markup
        )
        self.notices[key] = notice
        self.post_message(Notify(notice))

    def withdraw(self, message: str) -> None:
        """Take a notice down before its time, when what it says no longer holds (`Draft kept: …`, the
        draft open again). It is made to expire and given to Textual again, which lets an expired notice
        go, its toast too (one still on its way is let go as it comes); the other notices stay."""
        for (text, _), notice in self.notices.items():
            if text == message and not notice.has_expired:
                notice.timeout = 0
                self.post_message(Notify(notice))

    def action_command_palette(self) -> None:
        """`ctrl+p`: Textual's palette, with a footer of its own keys."""
        if self.use_command_palette and not isinstance(self.screen, CommandPalette):
            self.push_screen(KeyedPalette(id="--command-palette"))

    def clear_notifications(self) -> None:
        self.notices.clear()
        super().clear_notifications()

    def screen_changed(self, screen: Screen[Any]) -> None:
        self.keys.screens_changed()  # a key waited for on a dialog that closed goes past it
        self.call_after_refresh(self.lift_notices)  # once the screen is laid out (the presenter's strip too)

    def on_resize(self, event: events.Resize) -> None:
        self.call_after_refresh(self.lift_notices)

    def on_status_bar_placed(self, event: StatusBar.Placed) -> None:
        """The bar laid out, or moved: on a loaded machine, the screen's change can be handled before its
        layout, which left notices where the bar was not yet (over it, or off the top of the screen)."""
        self.lift_notices()

    def lift_notices(self) -> None:
        """Notices (Textual's toasts) stand above the status bar, never over it, on the main screen and
        on every dialog, help or editor over it: the rate-limit meter and a held request's countdown
        are there, and matter most when a notice says why. Textual's documented way: the CSS of the
        ToastRack, which each screen has its own of.

        Only the screen on top shows its notices: a screen below keeps the ones it had when a dialog
        opened over it, which peeked out, cut, from behind the dialog showing the same notice."""
        if not self.screen_stack:
            return  # the app is closing: the bar's last move came after its screens went
        mains = [screen for screen in self.screen_stack if isinstance(screen, MainScreen)]
        lines = mains[0].notification_margin() if mains else None
        over_the_bar = self.screen.is_modal or isinstance(self.screen, MainScreen)  # not the editor's own
        for rack in self.screen.query("ToastRack"):
            if lines is not None and over_the_bar:
                rack.styles.margin = (0, 0, lines, 0)
        for screen in self.screen_stack[:-1]:  # back on top, Textual shows a screen's notices afresh
            for rack in screen.query("ToastRack"):
                rack.display = False
            screen.call_after_refresh(screen.check_idle)  # a screen below lays itself out when prompted

    async def on_event(self, event: events.Event) -> None:
        if self.quitting and isinstance(event, QUIT_DROPS) and not event.is_forwarded:
            return  # typed while the token is revoked (a shell's next command, typed ahead): nothing opens
        if self.presenter_feed is not None and isinstance(event, events.MouseDown) and not event.is_forwarded:
            self.presenter_feed.record_input(event)  # the first time the app sees it, not as it bubbles back up
        if not await self.keys.take(event):  # a key read from the terminal waits for its turn
            await super().on_event(event)

    async def let_in(self, event: events.Event) -> None:
        """A key or paste whose turn has come (key_line.py), as Textual handles one. The presenter
        describes a key now, where it lands: a letter after `g` is typing into its field, not Reload."""
        if self.quitting and isinstance(event, QUIT_DROPS):
            return  # held until the app was quitting: dropped, as those typed since are (on_event)
        if isinstance(self.screen, Question) and event.time < self.screen.asked_at:
            return  # typed before the question was asked: no answer to it (typeahead.py)
        if self.presenter_feed is not None and isinstance(event, events.Key):
            self.presenter_feed.record_input(event)
        await super().on_event(event)

    def key_waits(self, event: events.Key | events.Paste) -> bool:
        """Whether a key waits for what it acts on (key_line.py): a write's screen on its way (every key
        but ctrl+q, typeahead.py), a page still on its way, or the command palette's matches, or
        its closing (KeyedPalette.holds)."""
        screen = self.screen
        if self.ahead.coming:  # all of them but ctrl+q: the palette (ctrl+p) would open beneath it
            return not self.quits(event)
        if isinstance(event, events.Key) and event.key == "escape":
            return False
        if isinstance(screen, KeyedPalette):
            return screen.holds(event)
        return isinstance(screen, MainScreen) and isinstance(event, events.Key) and screen.awaits_page(event)

    def quits(self, event: events.Key | events.Paste) -> bool:
        """Whether `event` is Textual's quit key (ctrl+q), which no key waiting holds back (key_line.py)."""
        return isinstance(event, events.Key) and event.key in QUIT_KEYS

    def on_main_screen_fetch_ended(self) -> None:
        self.keys.resume()

    def on_main_screen_input_focus_changed(self) -> None:
        self.lift_notices()

    def logged_in(self, result: Result | None) -> None:
        """The login screen's session (opened, its root fetched), or the demo sandbox's."""
        if result is None:
            return
        if result == "demo":
            self.session = self.demo()
            self.push_screen(MainScreen(self.session, self.ahead, self.watch_every))
        else:
            self.session = result.session
            self.push_screen(MainScreen(self.session, self.ahead, self.watch_every, result.root))

    def action_change_theme(self) -> None:
        """The theme palette: each theme moved to is shown at once; Esc puts the old one back."""
        from explorer.tui.theme_palette import ThemeChoices

        self.previewing = self.theme
        self.push_screen(
            KeyedPalette(providers=[ThemeChoices], placeholder="Themes: move to preview, Enter keeps, Esc undoes")
        )

    def on_command_palette_option_highlighted(self, event: CommandPalette.OptionHighlighted) -> None:
        option = event.highlighted_event.option
        name = getattr(getattr(option, "hit", None), "text", None)
        if self.previewing is not None and name in self.available_themes:
            self.theme = name

    def on_command_palette_closed(self, event: CommandPalette.Closed) -> None:
        if self.previewing is not None and not event.option_selected:
            self.theme = self.previewing
        self.previewing = None

    def choose_theme(self, name: str) -> None:
        """Use this theme, now and from the next start on (kept as `theme` in the config file)."""
        self.theme = name
        try:
            remember(self.settings_path, "theme", name)
        except ConfigError as error:
            self.notify(error.line(), title="Theme not kept", severity="error", markup=False)
        else:
            self.notify(f"Theme {name}: kept in {self.settings_path}", markup=False)

    async def close_session(self) -> None:
        """Revoke the token (within 2 s) and close the client, once."""
        if self.session is not None and not self.closed:
            self.closed = True
            await self.session.aclose()

    async def action_quit(self) -> None:
        """Leave: the screen says so while the token is revoked, 2 s at most; keys and clicks meanwhile
        are dropped (on_event): a shell command typed ahead once opened a dialog on the way out."""
        if self.quitting:
            return
        self.quitting = True
        session = None if self.closed else self.session
        if session is not None and session.token_state and session.token_state.status(session.clocks.wall()) == "valid":
            self.notify("Revoking the token…", title="Quitting", timeout=10, markup=False)
        self.run_worker(self.leave(), group="quit")

    async def leave(self) -> None:
        await self.close_session()
        self.exit()

    async def on_unmount(self) -> None:
        await self.close_session()

    def action_help(self) -> None:
        """The help screen: every key, as remapped by the config file's [keys]."""
        from explorer.tui.screens.help import HelpScreen

        self.push_screen(HelpScreen(key_table(self.keymap)))

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        for command in super().get_system_commands(screen):
            if command.callback in (self.action_show_help_panel, self.action_hide_help_panel):
                continue  # Textual's key panel squeezed the panes past their 36 columns; `?` is Help
            if command.callback == self.action_change_theme:
                command = SystemCommand(
                    "Theme", "Preview themes as you move; Enter keeps one, Esc undoes", command.callback
                )
            yield command
        if self.session is not None:
            yield SystemCommand(
                "Save the session as HAR",
                "every request and answer so far, tokens and secrets redacted: for a colleague or support",
                self.ask_where_to_save,
            )
        if isinstance(screen, MainScreen):
            actions = {binding.id: binding.action for binding in screen.BINDINGS if isinstance(binding, Binding)}
            for keys, description, binding_id in key_table(self.keymap):
                action = actions.get(binding_id)
                if action and binding_id not in ("explorer.cancel", "explorer.quit"):
                    yield SystemCommand(description, f"{keys} · {binding_id}", self.runner(screen, action))

    def ask_where_to_save(self) -> None:
        """The session so far as a HAR file: where the user says, or, in a browser, as a download."""
        from explorer.tui.screens.dialogs import AskScreen, save_question

        if self.is_web:
            self.run_worker(self.save_session(None), group="har")
        else:
            self.push_screen(AskScreen(save_question(HAR), value=SAVED_NAME), self.save_to)

    def save_to(self, path: str | None) -> None:
        if path:
            self.run_worker(self.save_session(path), group="har")

    async def save_session(self, path: str | None) -> None:
        """Write the session's kept exchanges to `path` (a browser's download when None), redacted."""
        session = self.session
        if session is None:  # no session, nothing to save: the palette offers it only with one
            return
        data, count = await asyncio.to_thread(
            archive, str(session.base_url), session.recent, seconds_taken, openapi=session.credentials.openapi
        )
        dropped = session.recent.dropped
        older = f" (the {dropped:,} oldest are not kept)" if dropped else ""
        if path is None:
            self.deliver_binary(io.BytesIO(data), save_filename=SAVED_NAME)
            self.notify(f"Sent {count:,} exchanges to the browser as {SAVED_NAME}{older}", markup=False)
            return
        target = Path(path).expanduser()
        try:
            await asyncio.to_thread(save, target, data)
        except (OSError, ValueError) as error:  # asked again, as typed, with what was wrong
            from explorer.tui.screens.dialogs import AskScreen, save_question

            problem = cannot_write(target, error) if isinstance(error, OSError) else "That is not a file name"
            self.push_screen(AskScreen(save_question(HAR), value=path, problem=visible(problem)), self.save_to)
        else:
            self.notify(f"Saved {count:,} exchanges to {visible(target)}, secrets redacted{older}", markup=False)

    @staticmethod
    def runner(screen: Screen[Any], action: str) -> Callable[[], object]:
        return lambda: screen.run_action(action)
