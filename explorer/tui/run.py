"""`explorer` with no command: the explorer screen, on the configured service or the demo sandbox."""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from explorer.api.config import ConfigError, config_path, load_config
from explorer.api.errors import ApiError
from explorer.api.session import Session
from explorer.commands.connect import open_session

if TYPE_CHECKING:
    from explorer.tui.app import ExplorerApp


@dataclass
class Start:
    """What the flags, environment and config file ask the app to start with."""

    session: Session | None
    problem: ApiError | None = None  # why there is no session (the login screen says it), or a bad config
    keymap: dict[str, str] = field(default_factory=dict)
    theme: str | None = None  # kept in the config file by the theme palette


def prepare(args: argparse.Namespace) -> Start:
    from explorer.demo import demo_session
    from explorer.tui.keys import keymap_from

    path = config_path()
    try:
        config = load_config(path)
        keymap = keymap_from(config, str(path))
    except ConfigError as error:
        demo = args.demo or args.scenario
        return Start(demo_session(timeout=args.timeout, scenario=args.scenario) if demo else None, error)
    theme = config.get("theme")
    theme = theme if isinstance(theme, str) else None
    try:
        return Start(open_session(args, token_cache=False), None, keymap, theme)
    except ApiError as error:
        return Start(None, error, keymap, theme)  # the login screen says why, and offers the demo sandbox


def build(args: argparse.Namespace) -> ExplorerApp:
    """The app that `explorer` with these flags runs."""
    from explorer.demo import demo_session
    from explorer.tui.app import ExplorerApp
    from explorer.tui.themes import shipped_dir, user_dir

    start = prepare(args)
    return ExplorerApp(
        start.session,
        demo=demo_session,
        problem=start.problem,
        keymap=start.keymap,
        settings_path=config_path(),
        theme=args.theme or (None if args.presenter else start.theme),
        theme_dirs=[shipped_dir(), user_dir()],
        presenter=args.presenter,
    )


def run(args: argparse.Namespace) -> int:
    app = build(args)
    app.run()
    return app.return_code or 0
