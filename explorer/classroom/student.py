"""One student's explorer: the screen on the classroom sandbox, run by the class server once a tab.

    python -m explorer.classroom.student --sandbox http://127.0.0.1:PORT [--scenario NAME] [--presenter]
        [--home DIR]

The client ID and secret come in EXPLORER_CLIENT_ID and EXPLORER_CLIENT_SECRET (never on the
command line, where any process could read them). --home is the tab's own folder: its config, state,
cache and data go there (the XDG variables platformdirs reads), so no student's kept theme or tree
width becomes another's. A drill's explorer part (a wrong secret, pacing
off so a 429 is seen) is applied as `explorer --demo --scenario` applies it.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from explorer.api.config import Credentials
from explorer.api.secret import Secret
from explorer.api.session import Session
from explorer.sandbox.links import API_ROOT, DESCRIPTION_PATH
from explorer.sandbox.scenarios import SCENARIOS


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m explorer.classroom.student", description=__doc__)
    parser.add_argument("--sandbox", required=True, metavar="URL", help="the classroom sandbox's origin")
    parser.add_argument("--scenario", choices=sorted(SCENARIOS), help="the drill the sandbox runs")
    parser.add_argument("--rate-limit", type=int, default=100, help="the sandbox's requests a minute per project")
    parser.add_argument("--token-rate-limit", type=int, default=10, help="the sandbox's token requests a minute")
    parser.add_argument("--presenter", action="store_true", help="show each key and what it sent")
    parser.add_argument("--theme", metavar="NAME", help="a theme for this tab")
    parser.add_argument(
        "--home", type=Path, metavar="DIR", help="this tab's own folder for its config, state and cache"
    )
    return parser


def folders_in(home: Path) -> dict[str, str]:
    """The variables that put the explorer's config, state, cache and data in `home`: the XDG ones,
    which platformdirs reads on Linux (and on macOS since 2026), and HOME, from which it makes
    macOS's ~/Library folders without them.

    Args:
        home: the tab's own folder.

    Returns:
        Each variable's value: a folder in `home`.
    """
    return {
        "XDG_CONFIG_HOME": str(home / "config"),
        "XDG_STATE_HOME": str(home / "state"),
        "XDG_CACHE_HOME": str(home / "cache"),
        "XDG_DATA_HOME": str(home / "data"),
        "HOME": str(home),
    }


def session_for(args: argparse.Namespace) -> Session:
    """A session on the classroom sandbox with the drill's explorer part, described by the sandbox itself."""
    client: dict[str, Any] = dict(SCENARIOS[args.scenario].client) if args.scenario else {}
    secret = client.pop("client_secret", os.environ.get("EXPLORER_CLIENT_SECRET", ""))
    credentials = Credentials(
        base_url=args.sandbox + API_ROOT,
        client_id=os.environ.get("EXPLORER_CLIENT_ID"),
        client_secret=Secret(secret),
        rate_limit=args.rate_limit,
        token_rate_limit=args.token_rate_limit,
        openapi=args.sandbox + DESCRIPTION_PATH,
    )
    return Session(credentials, **client)


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.home is not None:  # before the screen's modules are loaded: none of them reads a folder sooner
        os.environ.update(folders_in(args.home))

    from explorer.demo import demo_session
    from explorer.tui.app import ExplorerApp
    from explorer.tui.run_app import run_app

    app = ExplorerApp(session_for(args), demo=demo_session, theme=args.theme, presenter=args.presenter)
    return run_app(app)


if __name__ == "__main__":
    sys.exit(main())
