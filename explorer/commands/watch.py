"""`explorer get TARGET --watch`: the document, then each change as it is seen, until a condition
holds, the time runs out, or the resource is deleted. For a script that waits on a long operation:

    explorer get /groups/ID/clusters/reporting --watch --until '.stateName == "IDLE"' --for 900

Exit codes: 0 when --until holds (or, without --until, when the resource is deleted), 1 when --for
runs out first, 4 on an error (a failed fetch, a condition jq cannot run, deleted before --until held).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from typing import Any

from explorer.api.changes import Change
from explorer.api.counts import counted
from explorer.api.errors import ApiError
from explorer.api.filters import JqError, JqRunner, compiled
from explorer.api.resource import Resource
from explorer.api.session import Session
from explorer.api.unsafe_characters import visible
from explorer.api.watching import EVERY, FASTEST, Spacing, Version, Watch, checked, follow, session_pace, time_of_day
from explorer.commands.output import report
from explorer.connection import seconds

ERROR = 4
RAN_OUT = 1


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """--watch and what goes with it (`explorer get`'s own flags are get.py's)."""
    watching = parser.add_argument_group("watching (--watch)")
    watching.add_argument(
        "--watch",
        action="store_true",
        help="print the document, then each change as it is seen (one line per field, with the time), fetching it "
        f"again every {EVERY:g} s; spaced further apart when the rate limit asks it",
    )
    watching.add_argument(
        "--every", type=interval, metavar="SECONDS", help=f"with --watch: seconds between fetches (default {EVERY:g})"
    )
    watching.add_argument(
        "--until", type=condition, metavar="JQ", help="with --watch: stop, exit 0, when this jq condition holds"
    )
    watching.add_argument(
        "--for", dest="lasting", type=seconds, metavar="SECONDS", help="with --watch: give up after this long, exit 1"
    )
    watching.add_argument("--json", action="store_true", help="with --watch: JSON Lines, one object per change")


def interval(text: str) -> float:
    value = seconds(text)
    if value < FASTEST:
        raise argparse.ArgumentTypeError(f"{text!r} is too often: at least {FASTEST:g} s between fetches")
    return value


def condition(text: str) -> str:
    try:
        compiled(text)
    except JqError as error:
        raise argparse.ArgumentTypeError(f"{text!r} is not a jq program: {error}") from None
    return text


def misused(args: argparse.Namespace) -> str | None:
    """Why the watch flags cannot go together as given, or None."""
    if not args.watch:
        given = {"--every": args.every, "--until": args.until, "--for": args.lasting, "--json": args.json}
        named = [flag for flag, value in given.items() if value]
        return f"{' and '.join(named)} {'goes' if len(named) == 1 else 'go'} only with --watch" if named else None
    if args.all or args.include:
        return "--watch shows one document and its changes: not with --all or --include"
    return None


class Printer:
    """What a watch prints: the document as received, then one line per change, with the time."""

    def __init__(self, as_json: bool) -> None:
        self.as_json = as_json
        self.slowed: str | None = None

    def first(self, resource_body: bytes, version: Version) -> None:
        if self.as_json:
            self.line({"at": stamp(version.at), "status": version.status, "document": version.document})
        else:  # as received, then a newline whatever stdout is: the change lines start on their own
            sys.stdout.buffer.write(resource_body if resource_body.endswith(b"\n") else resource_body + b"\n")
            sys.stdout.buffer.flush()

    def version(self, version: Version) -> None:
        if version.status == 404:
            if self.as_json:
                self.line({"at": stamp(version.at), "status": 404, "deleted": True})
            else:
                self.text(f"{time_of_day(version.at)}  deleted: the resource answers 404 Not Found")
            return
        for change in version.changes:
            self.change(version.at, change)

    def change(self, at: float, change: Change) -> None:
        if self.as_json:
            self.line({"at": stamp(at), **change.fields()})
        else:
            self.text(f"{time_of_day(at)}  {change.line(None)}")

    def pace(self, watch: Watch, spacing: Spacing) -> None:
        """Said on stderr once each time the watch slows down, or goes back to its pace."""
        if spacing.why != self.slowed:
            notice = f"{spacing.why}; next fetch in {spacing.seconds:.0f} s" if spacing.why else "back to its pace"
            print(f"explorer get: {visible(notice)}", file=sys.stderr, flush=True)
        self.slowed = spacing.why

    def line(self, value: dict[str, Any]) -> None:
        sys.stdout.write(json.dumps(value) + "\n")  # ASCII: every character from the server escaped
        sys.stdout.flush()

    def text(self, text: str) -> None:
        sys.stdout.write(visible(text) + "\n")
        sys.stdout.flush()


def stamp(at: float) -> str:
    """An instant as ISO 8601 in UTC, to the second: what a script reads."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(at))


async def watched(session: Session, args: argparse.Namespace, params: dict[str, str]) -> int:
    """The target watched as the flags say; its exit code."""
    printer = Printer(args.json)
    runner = JqRunner()
    try:
        try:
            first = await session.fetch(args.target, params=params)
        except ApiError as error:
            report("get", error)
            return ERROR
        if first.error is not None:
            report("get", first.error)
            return ERROR
        watch = Watch(str(first.url), args.target, args.every or EVERY, args.until)
        version = watch.take(first, session.clocks.wall())
        if version is None:  # the first fetch is always a version
            raise RuntimeError("the first answer was not taken as a version")
        printer.first(first.body, version)
        await checked(watch, runner, version)
        if watch.ended is None and watch.problem is None:
            base = session_pace(session, lambda bucket: 1)

            def pace(watch: Watch, ready: bool) -> Spacing:
                spacing = base(watch, ready)
                if not ready or spacing.seconds > 0:
                    printer.pace(watch, spacing)
                return spacing

            def seen(watch: Watch, version: Version | None, resource: Resource | None) -> None:
                if version is not None:
                    printer.version(version)

            following = follow(
                watch,
                session.fetch,
                runner,
                session.clocks.wall,
                asyncio.sleep,
                pace,
                seen,
                stop_on_problem=True,
                fetch_first=False,  # the first version is the one just printed
            )
            try:
                await asyncio.wait_for(following, args.lasting)
            except TimeoutError:
                print(
                    f"explorer get: --for {args.lasting:g} s ran out before "
                    + (f"the condition held: {visible(args.until)}" if args.until else "the resource was deleted")
                    + f" ({counted(watch.seen, 'version')} seen in {counted(watch.fetches, 'fetch', 'fetches')})",
                    file=sys.stderr,
                )
                return RAN_OUT
        return ended(watch, args.until)
    finally:
        runner.close()


def ended(watch: Watch, until: str | None) -> int:
    """Say why the watch ended, on stderr; its exit code."""
    if watch.ended == "the condition holds":
        print(f"explorer get: the condition holds: {visible(until)}", file=sys.stderr)
        return 0
    if watch.ended == "deleted":
        if until is None:
            return 0
        print(f"explorer get: deleted before the condition held: {visible(until)}", file=sys.stderr)
        return ERROR
    print(f"explorer get: the watch stopped: {visible(watch.ended or watch.problem)}", file=sys.stderr)
    return ERROR
