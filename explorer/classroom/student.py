"""One student's explorer: the screen on the classroom sandbox, run by the class server once a tab.

    python -m explorer.classroom.student --sandbox http://127.0.0.1:PORT [--scenario NAME] [--presenter]

The client ID and secret come in EXPLORER_CLIENT_ID and EXPLORER_CLIENT_SECRET (never on the
command line, where any process could read them). A drill's explorer part (a wrong secret, pacing
off so a 429 is seen) is applied as `explorer --demo --scenario` applies it.
"""

from __future__ import annotations

import argparse
import os
import sys
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
    return parser


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
    from explorer.demo import demo_session
    from explorer.tui.app import ExplorerApp
    from explorer.tui.run_app import run_app

    args = parser().parse_args(argv)
    app = ExplorerApp(session_for(args), demo=demo_session, theme=args.theme, presenter=args.presenter)
    return run_app(app)


if __name__ == "__main__":
    sys.exit(main())
