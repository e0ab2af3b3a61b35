"""`explorer` with no command: the explorer screen, on the configured service or the demo sandbox."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from explorer.api.config import ConfigError, config_path, load_config
from explorer.api.errors import ApiError
from explorer.api.session import Session
from explorer.commands.connect import open_session

if TYPE_CHECKING:
    from explorer.tui.app import ExplorerApp


def prepare(args: argparse.Namespace) -> tuple[Session | None, ApiError | None, dict[str, str]]:
    """The session the flags, environment and profile ask for (or why there is none) and the keymap."""
    from explorer.demo import demo_session
    from explorer.tui.keys import keymap_from

    path = config_path()
    try:
        keymap = keymap_from(load_config(path), str(path))
    except ConfigError as error:
        return (demo_session(timeout=args.timeout) if args.demo else None), error, {}
    try:
        return open_session(args, token_cache=False), None, keymap
    except ApiError as error:
        return None, error, keymap  # the login screen says why, and offers the demo sandbox


def build(args: argparse.Namespace) -> ExplorerApp:
    """The app that `explorer` with these flags runs."""
    from explorer.demo import demo_session
    from explorer.tui.app import ExplorerApp

    session, problem, keymap = prepare(args)
    return ExplorerApp(session, demo=demo_session, problem=problem, keymap=keymap, settings_path=config_path())


def run(args: argparse.Namespace) -> int:
    app = build(args)
    app.run()
    return app.return_code or 0
