"""`explorer` with no command: the explorer screen, on the configured service or the demo sandbox.

The wiring: it sits beside cli.py, above the screen, because it reaches the sandbox (the demo's,
through demo.py) and the connection flags (connection.py), which explorer.tui must not."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from explorer.api.config import Credentials, description_source, form_defaults, form_origin, version
from explorer.api.config_file import config_path, load_config
from explorer.api.errors import ApiError, ConfigError
from explorer.api.har import HarRecorder
from explorer.api.recording import RecordingError
from explorer.api.session import Session
from explorer.api.urls import check_base_url
from explorer.api.watching import EVERY, every_from
from explorer.api.writes import WritesRefused, write_policy
from explorer.commands.hint_words import command_line_hint
from explorer.connection import bounds_of, open_session, recorded, write_policy_of
from explorer.display.variables import VARIABLES, writes_asked

if TYPE_CHECKING:
    from explorer.tui.app import ExplorerApp


@dataclass
class Start:
    """What the flags, environment and config file ask the app to start with."""

    session: Session | None
    problem: ApiError | None = None  # why there is no session: the login screen says it
    keymap: dict[str, str] = field(default_factory=dict)
    theme: str | None = None  # kept in the config file by the theme palette
    login: dict[str, str] = field(default_factory=dict)  # what the login form starts with (never a secret)
    watch_every: float = EVERY  # the config file's watch_every: seconds between a watch's fetches


def prepare(args: argparse.Namespace) -> Start:
    """The session the flags ask for, or why there is none and what the login form can start from.

    Raises ConfigError when the config file itself cannot be used (unreadable, not TOML, a bad
    [keys] entry, a watch_every that is no number of seconds): the explorer does not start on a
    setting it would have to guess.
    """
    from explorer.tui.keys import keymap_from

    path = config_path()
    config = load_config(path)
    keymap = keymap_from(config, str(path))
    every = every_from(config, str(path))
    theme = config.get("theme")
    theme = theme if isinstance(theme, str) else None
    try:
        return Start(open_session(args, token_cache=False, screen=True), None, keymap, theme, watch_every=every)
    except (RecordingError, WritesRefused):
        raise  # a recording that cannot be read or written, writes a profile forbids: said on stderr
    except ApiError as error:  # the login screen says why, and offers the demo sandbox
        if args.har is not None:  # the sessions it leads to are recorded: not into a file that cannot be
            HarRecorder.continued(args.har)
        login = form_defaults(
            base_url=args.base_url,
            client_id=args.client_id,
            ca_bundle=args.ca_bundle,
            profile=args.profile,
            variables=VARIABLES,
            path=path,
        )
        refuse_forbidden_writes(login.get("base_url"), args)
        return Start(None, error, keymap, theme, login, every)


def refuse_forbidden_writes(base_url: str | None, args: argparse.Namespace) -> None:
    """--writes (or EXPLORER_WRITES=1) where the login form would open on an origin a profile says writes = false
    of: refused before the form, as it is with the profile's secret at hand (WritesRefused, said on stderr)."""
    if not base_url:
        return
    try:
        prefilled = Credentials(str(check_base_url(base_url)))
    except ApiError:
        return  # the form says what is wrong with it
    write_policy_of(form_origin(prefilled, profile=args.profile, variables=VARIABLES), flag=args.writes)


def build(args: argparse.Namespace) -> ExplorerApp:
    """The app that `explorer` with these flags runs. Raises ConfigError as `prepare` does."""
    from explorer.demo import demo_session
    from explorer.tui.app import ExplorerApp
    from explorer.tui.themes import shipped_dir, user_dir

    start = prepare(args)

    def demo() -> Session:  # the login form's way to the demo sandbox: recorded as --har asks too
        session = demo_session(writes=write_policy(None, asked=writes_asked(args.writes, os.environ)))
        try:
            return recorded(session, args, screen=True)
        except RecordingError as error:  # the file changed since the start: the screen says so
            session.recording_problem = error.line()
            return session

    return ExplorerApp(
        start.session,
        demo=demo,
        problem=start.problem,
        login=start.login,
        connect=connector(args),
        keymap=start.keymap,
        settings_path=config_path(),
        theme=args.theme,
        saved_theme=start.theme,
        theme_dirs=[shipped_dir(), user_dir()],
        presenter=args.presenter,
        watch_every=start.watch_every,
    )


def connector(args: argparse.Namespace) -> Callable[[Credentials], Session]:
    """How the login form's credentials become a session: with the API version and description that
    the flags or the environment name, which the form does not ask for, and the `writes = false` that the
    chosen profile (or any profile) says of the form's origin."""
    api_version = version(args.api_version or os.environ.get("EXPLORER_API_VERSION"))
    openapi = description_source(args.openapi or os.environ.get("EXPLORER_OPENAPI"))

    def connect(credentials: Credentials) -> Session:
        # a writes = false of the form's origin holds
        bound = form_origin(credentials, profile=args.profile, variables=VARIABLES)
        writes = write_policy_of(bound, flag=args.writes)  # WritesRefused, an ApiError: the form says it
        session = Session(
            replace(bound, api_version=api_version, openapi=openapi), writes=writes, bounds=bounds_of(args)
        )
        return recorded(session, args, screen=True)  # a RecordingError is an ApiError: the form says it

    return connect


def run(args: argparse.Namespace) -> int:
    """Run the screen; a config file it cannot use stops it before any screen, on stderr, with 1."""
    try:
        app = build(args)
    except ConfigError as error:
        print(f"explorer: {error.line()}", file=sys.stderr)
        if hint := command_line_hint(error):
            print(f"hint: {hint}", file=sys.stderr)
        return 1
    # Here, not at the top: every command's parser imports this module, and `explorer sandbox`,
    # `explorer get` and the rest run without the screen's stack (Rich, Textual).
    from explorer.tui.run_app import run_app

    return run_app(app)
