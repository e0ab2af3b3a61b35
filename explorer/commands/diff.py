"""`explorer diff A B`: two documents compared field by field, as `diff` compares two files.

Each side is an API target (a path under the base URL, or a URL), a JSON file (`@FILE`, or the
path of a file that exists), or `-` for stdin. Lists of entities are matched by `id` or `name`
(changes.py), not by position. Exit codes, as diff's: 0 when the same, 1 when they differ, 2 for
trouble (usage, a file that is not JSON, a fetch that failed: said on stderr).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from explorer.api.changes import changes, noise
from explorer.api.errors import ApiError
from explorer.api.json_files import parse, read_document
from explorer.api.session import Session
from explorer.api.visible import visible
from explorer.commands.flags import add_header_flag, add_token_cache_flag
from explorer.commands.output import report
from explorer.connection import add_connection_arguments, open_session

TROUBLE = 2


def add_arguments(parser: argparse.ArgumentParser) -> None:
    for name in ("first", "second"):
        parser.add_argument(
            name,
            metavar=name[0].upper() if name == "first" else "B",
            help="an API path or URL, @FILE or an existing file (JSON), or - for stdin",
        )
    parser.add_argument(
        "--hide-noise", action="store_true", help="leave out differences in links and in timestamps (ISO 8601 dates)"
    )
    parser.add_argument("--json", action="store_true", help="JSON Lines: one object per difference")
    add_header_flag(parser)
    add_token_cache_flag(parser)
    add_connection_arguments(parser)


@dataclass(frozen=True)
class Side:
    """One side of the comparison: what it was (`GET /groups/…`, `file a.json`, `stdin`) and its document."""

    said: str
    document: Any


class Trouble(Exception):
    """A side that could not be read, said in a line."""


def run(args: argparse.Namespace) -> int:
    if args.first == "-" and args.second == "-":
        args.parser.error("only one side can be stdin (-)")
    return asyncio.run(compare(args))


def local(word: str) -> Path | None:
    """The file a side names: `@FILE`, or an existing file; None for an API target or stdin."""
    if word.startswith("@"):
        return Path(word[1:])
    path = Path(word)
    return path if word != "-" and path.is_file() else None


def read_local(word: str) -> Side:
    """A file's or stdin's document; Trouble when it cannot be read or is not JSON."""
    path = local(word)
    try:
        if path is None:
            return Side("stdin", parse(sys.stdin.buffer, "stdin"))
        return Side(f"file {path}", read_document(path))
    except ValueError as error:
        raise Trouble(str(error)) from None


async def fetched(session: Session, target: str) -> Side:
    """An API target's document; Trouble (after the error is reported) when it is not a 2xx."""
    resource = await session.fetch(target)
    if resource.error is not None:
        report("diff", resource.error)
        raise Trouble(f"{target} could not be compared: {resource.error.line()}")
    return Side(f"GET {resource.url}", resource.document)


async def compare(args: argparse.Namespace) -> int:
    sides: list[Side | None] = [None, None]
    remote = []
    try:
        for at, word in enumerate((args.first, args.second)):
            if word == "-" or local(word) is not None:
                sides[at] = read_local(word)
            elif word.endswith(".json") or word.startswith(("./", "../", "~")):
                raise Trouble(f"file {word} does not exist")  # a file's name, not an API path
            else:
                remote.append((at, word))
        if remote:
            try:
                session = open_session(
                    args, token_cache=not args.no_token_cache, headers=dict(args.header), keep_bytes=0
                )
            except ApiError as error:
                report("diff", error)
                return TROUBLE
            async with session:
                for at, word in remote:
                    sides[at] = await fetched(session, word)
    except ApiError as error:
        report("diff", error)
        return TROUBLE
    except Trouble as trouble:
        print(f"explorer diff: {visible(trouble)}", file=sys.stderr)
        return TROUBLE
    first, second = sides
    assert first is not None and second is not None
    found = changes(first.document, second.document)
    hidden = [change for change in found if noise(change)] if args.hide_noise else []
    shown = [change for change in found if change not in hidden]
    if args.json:
        for change in shown:
            sys.stdout.write(json.dumps(change.fields()) + "\n")  # ASCII: every character from the server escaped
    elif shown:
        sys.stdout.write(f"--- {visible(first.said)}\n+++ {visible(second.said)}\n")
        for change in shown:
            sys.stdout.write(visible(change.line()) + "\n")
    if hidden:
        print(
            f"explorer diff: {len(hidden)} difference(s) in links and timestamps left out (--hide-noise)",
            file=sys.stderr,
        )
    sys.stdout.flush()
    return 1 if shown else 0
