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
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from explorer.api.baselines import NAME as BASELINE_NAME
from explorer.api.baselines import read_baseline
from explorer.api.changes import Change, changes, noise
from explorer.api.errors import ApiError
from explorer.api.json_files import parse, read_document
from explorer.api.local_paths import is_file
from explorer.api.session import Session
from explorer.api.unsafe_characters import visible
from explorer.commands.baseline import profile_asked
from explorer.commands.flags import add_header_flag, add_token_cache_flag
from explorer.commands.hint_words import FLAG_WORDS
from explorer.commands.output import report
from explorer.connection import add_connection_arguments, open_session

TROUBLE = 2
BASELINE = re.compile(rf"(?:{BASELINE_NAME.pattern}:)?{BASELINE_NAME.pattern}")  # @NAME, @PROFILE:NAME


def add_arguments(parser: argparse.ArgumentParser) -> None:
    for name in ("first", "second"):
        parser.add_argument(
            name,
            metavar="A" if name == "first" else "B",
            help="an API path or URL, @FILE or an existing file (JSON), @NAME or @PROFILE:NAME (a baseline), "
            "or - for stdin",
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

    label: str
    document: Any


class Trouble(Exception):
    """A side that could not be read, said in a line."""


def run(args: argparse.Namespace) -> int:
    if args.first == "-" and args.second == "-":
        args.parser.error("only one side can be stdin (-)")
    return asyncio.run(compare(args))


def baseline_named(word: str) -> str | None:
    """The baseline a side names (`@NAME`, `@PROFILE:NAME`) where no file has that name; else None."""
    if word.startswith("@") and BASELINE.fullmatch(word[1:]) and not is_file(Path(word[1:])):
        return word[1:]
    return None


def local(word: str) -> Path | None:
    """The file a side names: `@FILE`, or an existing file; None for an API target, a baseline or stdin."""
    if word.startswith("@"):
        return None if baseline_named(word) else Path(word[1:])
    path = Path(word)
    return path if word != "-" and is_file(path) else None


def read_local(word: str, levels: int) -> Side:
    """A file's or stdin's document; Trouble when it cannot be read or is not JSON (within `levels`)."""
    path = local(word)
    try:
        if path is None:
            return Side("stdin", parse(sys.stdin.buffer, "stdin", levels))
        return Side(f"file {path}", read_document(path, levels))
    except ValueError as error:
        raise Trouble(str(error)) from None


def baseline_side(reference: str, profile: str | None, levels: int) -> Side:
    """A baseline's document: `NAME` the profile's, `PROFILE:NAME` another's; Trouble when it is not there."""
    try:
        found = read_baseline(reference, profile)
        if found is None:
            name = reference.rpartition(":")[2]
            raise Trouble(f"no baseline {name}{' under that profile' if ':' in reference else ''}, and no file "
                          f"{reference} (explorer baseline list)")  # fmt: skip
        return Side(found.label, found.document(levels))
    except (OSError, ValueError) as error:
        raise Trouble(str(error)) from None


async def fetched(session: Session, target: str) -> Side:
    """An API target's document; its ApiError when it is not a 2xx (said once, by `compare`)."""
    resource = await session.fetch(target)
    if resource.error is not None:
        raise resource.error
    if resource.json_error is not None:  # HTML, or JSON nested past --max-depth: no fields to compare
        raise ApiError(
            "not-json", f"GET {resource.url}: the body is {resource.json_error}", hint=resource.json_hint_in(FLAG_WORDS)
        )
    return Side(f"GET {resource.url}", resource.document)


async def compare(args: argparse.Namespace) -> int:
    """Read both sides, then print their differences; the exit code, as diff's."""
    try:
        sides = await read_sides(args)
    except ApiError as error:
        report("diff", error)
        return TROUBLE
    except Trouble as trouble:
        print(f"explorer diff: {visible(trouble)}", file=sys.stderr)
        return TROUBLE
    found = changes(sides[0].document, sides[1].document)
    hidden = [change for change in found if noise(change)] if args.hide_noise else []
    shown = [change for change in found if change not in hidden]
    try:
        write(sides, shown, args.json)
    except BrokenPipeError:  # `explorer diff … | head -1`: the reader had enough; they still differ
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    if hidden:
        left_out = f"{len(hidden)} difference(s) in links and timestamps left out (--hide-noise)"
        print(f"explorer diff: {left_out}", file=sys.stderr)
    return 1 if shown else 0


def write(sides: tuple[Side, Side], shown: list[Change], as_json: bool) -> None:
    """The differences on stdout: `--- A`, `+++ B` and a line each, or a JSON line each."""
    if as_json:
        for change in shown:
            sys.stdout.write(json.dumps(change.fields()) + "\n")  # ASCII: every character from the server escaped
    elif shown:
        sys.stdout.write(f"--- {visible(sides[0].label)}\n+++ {visible(sides[1].label)}\n")
        for change in shown:
            sys.stdout.write(visible(change.line(None)) + "\n")
    sys.stdout.flush()


async def read_sides(args: argparse.Namespace) -> tuple[Side, Side]:
    sides: list[Side | None] = [None, None]
    remote = []
    saved = []
    for at, word in enumerate((args.first, args.second)):
        if (name := baseline_named(word)) is not None:
            saved.append((at, name))
        elif word == "-" or local(word) is not None:
            sides[at] = read_local(word, args.max_depth)
        elif word.endswith(".json") or word.startswith(("./", "../", "~")):
            raise Trouble(f"file {word} does not exist")  # a file's name, not an API path
        else:
            remote.append((at, word))
    profile = None
    if remote:
        session = open_session(args, token_cache=not args.no_token_cache, headers=dict(args.header), keep_bytes=0)
        async with session:
            for at, word in remote:
                sides[at] = await fetched(session, word)
        profile = session.credentials.profile
    elif saved:
        profile = profile_asked(args)
    for at, name in saved:
        sides[at] = baseline_side(name, profile, args.max_depth)
    first, second = sides
    if first is None or second is None:  # each word was read from a file or fetched above
        raise Trouble("nothing to compare")
    return first, second
