"""The `explorer` command line: one parser, and each command's own module does the work."""

from __future__ import annotations

import argparse
import os
import sys

from explorer import __version__

# httpx imports its own command line (click, pygments, rich's progress bars) when click is
# installed, and uvicorn installs it: 20 ms of every start for a program we never run.
sys.modules.setdefault("httpx._main", None)  # type: ignore[arg-type]


def parser() -> argparse.ArgumentParser:
    from explorer.commands import get, logout
    from explorer.commands.connect import add_connection_arguments
    from explorer.sandbox import command as sandbox
    from explorer.tui import run as tui

    root = argparse.ArgumentParser(
        prog="explorer",
        description="Explore and debug a browsable REST administration API. "
        "Without a command: the explorer screen, on the configured service (or --demo).",
    )
    root.add_argument("--version", action="version", version=f"explorer {__version__}")
    root.add_argument("--demo", action="store_true", help="use the sandbox in process: no network, no setup")
    add_connection_arguments(root, root=True)
    screen = root.add_argument_group("the screen")
    screen.add_argument("--theme", metavar="NAME", help="a theme for this run (the palette's choice is kept)")
    screen.add_argument(
        "--presenter",
        action="store_true",
        help="for an audience: show each key and the requests it sent, in the projector theme unless --theme",
    )
    root.set_defaults(run=tui.run, parser=root)
    commands = root.add_subparsers(dest="command", metavar="COMMAND")
    for name, module, summary, description in (
        (
            "get",
            get,
            "print one resource's body, as received",
            "Print a resource's body to stdout as the service sent it. Exit codes: 0 for 2xx, 3 for 3xx, "
            "4 for 4xx, 5 for 5xx, 1 when no answer was had (connection, TLS, configuration), 2 for usage.",
        ),
        (
            "logout",
            logout,
            "revoke the cached token of the one-shot commands",
            "Revoke the token `explorer get` keeps between runs for these credentials, and delete its file.",
        ),
        (
            "sandbox",
            sandbox,
            "serve the local sandbox API on the network",
            "Serve the sandbox: a faithful local implementation of the administration API, with generated data, "
            "for demos, tests and classes.",
        ),
    ):
        sub = commands.add_parser(name, help=summary, description=description)
        module.add_arguments(sub)
        sub.set_defaults(run=module.run, parser=sub)  # a command's usage errors show its own usage
    return root


def main(argv: list[str] | None = None) -> int:
    args, unknown = parser().parse_known_args(argv)
    if unknown:
        args.parser.error(f"unrecognized arguments: {' '.join(unknown)}")
    try:
        return args.run(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (`explorer get … | head`): that is how pipes end, not an error.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except Exception as error:  # noqa: BLE001 - the promise is: no traceback, ever
        print(f"explorer: unexpected {type(error).__name__}: {error} (a bug; please report it)", file=sys.stderr)
        return 1
