"""ExplorerApp: opens a session (or asks for one), shows the explorer screen, closes cleanly."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.screen import Screen

from explorer.api.config import config_path
from explorer.api.errors import ApiError
from explorer.api.session import Session
from explorer.tui.screens.main import MainScreen

if TYPE_CHECKING:
    from explorer.tui.screens.login import Result


class ExplorerApp(App[None]):
    TITLE = "explorer"
    ENABLE_COMMAND_PALETTE = True

    def __init__(
        self,
        session: Session | None,
        *,
        demo: Callable[[], Session],
        problem: ApiError | None = None,
        keymap: dict[str, str] | None = None,
        settings_path: Path | None = None,
    ) -> None:
        super().__init__()
        self.session = session
        self.demo = demo
        self.problem = problem
        self.keymap = keymap or {}
        self.settings_path = settings_path or config_path()
        self.closed = False

    def on_mount(self) -> None:
        if self.keymap:
            self.set_keymap(self.keymap)
        if self.session is not None:
            self.push_screen(MainScreen(self.session))
        else:
            from explorer.tui.screens.login import LoginScreen

            self.push_screen(LoginScreen(self.problem, self.settings_path), self.logged_in)

    def logged_in(self, result: Result | None) -> None:
        if result is None:
            return
        self.session = self.demo() if result == "demo" else Session(result)
        self.push_screen(MainScreen(self.session))

    async def close_session(self) -> None:
        """Revoke the token (within 2 s) and close the client, once."""
        if self.session is not None and not self.closed:
            self.closed = True
            await self.session.aclose()

    async def action_quit(self) -> None:
        await self.close_session()
        self.exit()

    async def on_unmount(self) -> None:
        await self.close_session()

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        if isinstance(screen, MainScreen):
            from explorer.tui.keys import key_table

            actions = {binding.id: binding.action for binding in screen.BINDINGS if isinstance(binding, Binding)}
            for keys, description, binding_id in key_table(self.keymap):
                action = actions.get(binding_id)
                if action and binding_id not in ("explorer.cancel", "explorer.quit"):
                    yield SystemCommand(description, f"{keys} · {binding_id}", self.runner(screen, action))

    @staticmethod
    def runner(screen: Screen, action: str) -> Callable[[], object]:
        return lambda: screen.run_action(action)

    def _handle_exception(self, error: Exception) -> None:
        """A bug: leave the screen with one line, never a traceback (Textual has no public hook).

        Tests still see the exception: Pilot re-raises what is recorded here.
        """
        self._return_code = 1
        if self._exception is None:
            self._exception = error
            self._exception_event.set()
        self.panic(Text(f"explorer stopped: {type(error).__name__}: {error} (a bug; please report it)"))
