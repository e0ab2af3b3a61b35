"""`explorer` with no command: the explorer screen, on the configured service or the demo sandbox."""

from __future__ import annotations

import argparse

from explorer.api.config import ConfigError, Credentials, config_path, load_config
from explorer.api.errors import ApiError
from explorer.api.session import Session


def run(args: argparse.Namespace) -> int:
    from explorer.demo import demo_session
    from explorer.tui.app import ExplorerApp
    from explorer.tui.keys import keymap_from

    problem: ApiError | None = None
    session: Session | None = None
    keymap: dict[str, str] = {}
    path = config_path()
    try:
        keymap = keymap_from(load_config(path), str(path))
    except ConfigError as error:
        problem = error
    if args.demo:
        session = demo_session(timeout=args.timeout)
    elif problem is None:
        try:
            credentials = Credentials.resolve(
                base_url=args.base_url,
                client_id=args.client_id,
                public_key=args.public_key,
                ca_bundle=args.ca_bundle,
                profile=args.profile,
            )
            session = Session(credentials, timeout=args.timeout)
        except ApiError as error:
            problem = error
    app = ExplorerApp(session, demo=demo_session, problem=problem, keymap=keymap, settings_path=path)
    app.run()
    return app.return_code or 0
