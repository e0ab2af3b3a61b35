"""The `explorer` command line."""

from __future__ import annotations

import argparse

from explorer import __version__


def parser() -> argparse.ArgumentParser:
    root = argparse.ArgumentParser(
        prog="explorer",
        description="Explore and debug a browsable REST administration API.",
    )
    root.add_argument("--version", action="version", version=f"explorer {__version__}")
    commands = root.add_subparsers(dest="command", metavar="COMMAND")

    from explorer.sandbox import command as sandbox_command

    sandbox = commands.add_parser(
        "sandbox",
        help="serve the local sandbox API on the network",
        description="Serve the sandbox: a faithful local implementation of the administration API, "
        "with generated data, for demos, tests and classes.",
    )
    sandbox_command.add_arguments(sandbox)
    sandbox.set_defaults(run=sandbox_command.run)
    return root


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if not getattr(args, "run", None):
        parser().print_help()
        return 2
    try:
        return args.run(args)
    except KeyboardInterrupt:
        return 130
