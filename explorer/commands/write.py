"""`explorer post`, `put`, `patch` and `delete`: one write, from a script or from a person at a terminal.

A write goes only from a session that may write (--writes, EXPLORER_WRITES=1, or the profile's
`writes = true`), and once: never retried (a 429 or 503 is reported with its Retry-After). At a
terminal it is previewed on stderr and asked for first (a DELETE by typing the resource's name),
keys typed before the question discarded; from a script it needs --yes. At a terminal, --yes
answers `Send? [y/N]` (the preview is still shown) but not a DELETE's name: that is still typed.
--dry-run prints it and its curl, and sends nothing.

The answer is written as `explorer get` writes one (output.show): the body to stdout as received,
an error document to stderr; and the exit codes are its own.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import shlex
import sys
from dataclasses import dataclass
from typing import Any, TextIO

import httpx

from explorer.api.errors import ApiError
from explorer.api.once import look_before, redirected
from explorer.api.session import Session
from explorer.api.unsafe_characters import lines, visible
from explorer.api.urls import raw_path
from explorer.api.writes import (
    WITH_BODY,
    Outgoing,
    WritesRefused,
    delete_answers,
    delete_name,
    write_changes,
)
from explorer.commands.body import Body, BodyError, UsageError, body_of, item, needs_body
from explorer.commands.flags import (
    add_header_flag,
    add_include_flag,
    add_query_flags,
    add_target,
    add_token_cache_flag,
    query_params,
)
from explorer.commands.output import exit_code, print_response, report
from explorer.connection import add_connection_arguments, open_session
from explorer.display.shell_forms import (
    as_curl,
    credentials_note,
    in_variables,
    left_out,
    masked,
    reached_by,
    secrets_in,
    withheld,
)

try:
    import termios
except ImportError:  # Windows: no terminal queue to empty
    termios = None  # type: ignore[assignment]

NEED_BODY = ("PATCH", "PUT")  # a POST may go without one (an action); a DELETE takes none
STATUS_WORDS = {201: "201 Created", 202: "202 Accepted: the service goes on with it", 204: "204 No Content: done"}
NOT_SENT = "Nothing was sent. --dry-run prints what would be sent."
SEND_AGAIN = "Run the same command again to send it."
NOT_FOLLOWED = "If the service has moved there, point the base URL (or the target) to it and send the write again."


@dataclass(frozen=True)
class WriteCommand:
    """One of the write commands; `method` says which."""

    method: str

    @property
    def name(self) -> str:
        return self.method.lower()

    @property
    def items_anywhere(self) -> bool:
        """Whether its ITEMs may come before, between or after the flags (cli.Parser.intermixed)."""
        return self.method in WITH_BODY

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        add_target(parser)
        if self.method in WITH_BODY:
            parser.add_argument(
                "items",
                nargs="*",
                default=[],  # else intermixed parsing calls ITEM required: "required: TARGET, ITEM"
                metavar="ITEM",
                type=item,
                help="after TARGET, before or after the flags: a field of a JSON object body, NAME=VALUE (a string) "
                "or NAME:=JSON (any JSON value)",
            )
            parser.add_argument(
                "--data",
                "-d",
                metavar="JSON",
                help="the body, JSON sent byte for byte as given; @FILE reads it from a file, @- from stdin",
            )
        add_query_flags(parser)
        add_include_flag(parser)
        add_header_flag(parser)
        add_token_cache_flag(parser)
        parser.add_argument(
            "--dry-run",
            action="store_true",
            help="print the request as it would go (credentials as ***) and as curl; send nothing, writes on or off",
        )
        parser.add_argument(
            "--yes",
            "-y",
            action="store_true",
            help="answer yes to Send? [y/N]: needed when stdin is not a terminal; at a terminal the preview is "
            "still shown, and a DELETE still asks for its name typed",
        )
        add_connection_arguments(parser)

    def run(self, args: argparse.Namespace) -> int:
        try:
            needed_by = self.method if self.method in NEED_BODY else None
            body = body_of(
                getattr(args, "data", None), getattr(args, "items", []), limit=args.max_body, needed_by=needed_by
            )
        except UsageError as error:
            parser: argparse.ArgumentParser = args.parser  # the command's own: its usage, exit 2
            parser.error(str(error))
        except BodyError as error:
            report(self.name, ApiError("config", str(error), hint=error.hint))
            return 2
        if self.method in NEED_BODY and not body.data:
            hint = needs_body(self.method)
            report(self.name, ApiError("config", f"a {self.method} needs a body: the fields it sets", hint=hint))
            return 2
        return asyncio.run(write(self.name, self.method, args, body))


post, put, patch, delete = (WriteCommand(method) for method in ("POST", "PUT", "PATCH", "DELETE"))


async def write(command: str, method: str, args: argparse.Namespace, body: Body) -> int:
    try:
        session = open_session(args, token_cache=not args.no_token_cache, headers=dict(args.header), keep_bytes=0)
    except WritesRefused as error:  # --writes with a profile that says writes = false: a usage error
        report(command, error)
        return 2
    except ApiError as error:
        report(command, error)
        return 1
    async with session:
        try:
            return await written(session, command, method, args, body)
        finally:
            if session.recording_problem:  # the answer went on, unrecorded: said last
                print(f"explorer {command}: {visible(session.recording_problem)}", file=sys.stderr)


async def written(
    session: Session, command: str, method: str, args: argparse.Namespace, body: Body, undoes: int | None = None
) -> int:
    """The write refused, shown, declined or sent; its exit code. `undoes`: the journal's number of
    the write it puts back, if it is an undo."""
    try:
        url = session.resolve(args.target)
        params = query_params(args)
        if params:
            url = url.copy_merge_params(params)
        refused = None if args.dry_run else refusal(session, method, url, args.yes)
        if refused is not None:
            report(command, refused)
            return 2
        outgoing = await session.prepare_write(method, str(url), body.data)
        if session.description_problem:  # said, and the write goes on without it
            report(command, session.description_problem)
        if args.dry_run:
            dry_run(session, command, outgoing)
            return 0
        before = Fetched()  # the entity as the preview fetches it, for the journal
        if at_terminal() and not await confirmed(
            session, command, outgoing, args.target, body, yes=args.yes, before=before
        ):
            return 1  # without --yes, refusal() saw to it that this is a terminal
        if outgoing.method in KEPT_BEFORE and before.document is None:  # a script's: fetched for the journal
            now = await session.fetch(str(url))
            before.document = now.json if now.error is None else None
    except ApiError as error:
        report(command, error)
        return exit_code(error)
    try:
        resource = await session.send_write(outgoing, before=before.document, undoes=undoes)
    except ApiError as error:  # no answer: if the write went, it may have been done (once.py says so)
        if error.written == "maybe":  # how to look, in the command line's words
            error.hint = look_before(method, f"explorer get {shlex.quote(args.target)}")
        report(command, error)
        return exit_code(error)
    if resource.error is not None and resource.error.written == "no":  # refused for its token: not sent again
        resource.error.hint = f"{resource.error.hint} {SEND_AGAIN}"
    code = print_response(command, resource, args.include)
    if (moved := redirected(resource)) is not None:  # not followed: said, whoever reads stderr
        print(f"explorer {command}: {moved}\nhint: {NOT_FOLLOWED}", file=sys.stderr)
    if resource.status in STATUS_WORDS and not args.include and sys.stderr.isatty():  # words for a person only
        print(f"explorer {command}: {STATUS_WORDS[resource.status]}", file=sys.stderr)
    return code


def refusal(session: Session, method: str, url: httpx.URL, yes: bool) -> ApiError | None:
    """Why the write may not go (read-only; nobody at a terminal to ask, without --yes), or None."""
    if not session.writes_allowed:
        error = session.read_only(method, str(url))
        if session.write_policy.profile_forbids:
            error.hint = "Nothing was sent. This profile is read-only on purpose: to write, use another profile."
            error.setting = None  # not --writes: the profile refuses it
        return error
    if yes:
        return None
    if not is_terminal(sys.stdin):
        return ApiError("config", "stdin is not a terminal: add --yes to send without asking", hint=NOT_SENT)
    if not is_terminal(sys.stderr):
        return ApiError(
            "config",
            "stderr is not a terminal, and the preview and question go there: add --yes to send without asking",
            hint=NOT_SENT,
        )
    return None


def is_terminal(stream: TextIO | None) -> bool:
    return stream is not None and stream.isatty()


def at_terminal() -> bool:
    """Whether a person is there to see the preview and answer: stdin and stderr both a terminal."""
    return is_terminal(sys.stdin) and is_terminal(sys.stderr)


def discard_typeahead(stream: TextIO) -> None:
    """Empty the terminal's queue of keys typed before the question: a `y` pressed while the preview
    was on its way (or meant for the shell) is no answer to a question not yet asked."""
    if termios is None:
        return
    with contextlib.suppress(OSError, ValueError, termios.error):  # not a terminal after all: nothing queued there
        termios.tcflush(stream.fileno(), termios.TCIFLUSH)


def preview(outgoing: Outgoing) -> list[str]:
    """The request as it goes: method and URL, every header (credentials as ***), a blank line, the body."""
    shown = [visible(f"{outgoing.method} {outgoing.url}")]
    shown += [visible(f"{name}: {value}") for name, value in outgoing.headers]
    if outgoing.body:
        shown += ["", *lines(outgoing.body_text.removesuffix("\n"))]
    return shown


def dry_run(session: Session, command: str, outgoing: Outgoing) -> None:
    """The preview and the curl of the write, on stdout, a secret's value in neither (the preview's as
    ***, the curl's as a shell variable, said on stderr); sent: nothing."""
    curl = as_curl(outgoing, session.credentials.ca_bundle)
    sys.stdout.write("\n".join([*preview(masked(outgoing)), "", *lines(curl)]) + "\n")
    sys.stdout.flush()
    notes = (
        credentials_note(outgoing, reached_by(session)),
        in_variables(withheld(outgoing)),
        left_out(secrets_in(outgoing)),
    )
    for note in notes:
        if note:
            note = note.strip()
            print(f"explorer {command}: the curl above: {note[0].lower()}{note[1:]}", file=sys.stderr)
    if sys.stderr.isatty():
        why = f"; this session is read-only ({session.write_policy.because})" if not session.writes_allowed else ""
        print(f"explorer {command}: not sent (--dry-run){visible(why)}", file=sys.stderr)


KEPT_BEFORE = ("PATCH", "PUT", "DELETE")  # writes whose entity before the journal keeps (to undo them)


@dataclass
class Fetched:
    """The entity a preview fetched just before the write (None: not fetched, or not JSON)."""

    document: Any = None


async def confirmed(
    session: Session,
    command: str,
    outgoing: Outgoing,
    target: str,
    body: Body,
    *,
    yes: bool = False,
    before: Fetched | None = None,
) -> bool:
    """The preview on stderr, then the question on the terminal: whether the person said to send it.

    A PATCH or PUT shows what it changes in the entity fetched again just now; a DELETE asks for
    the resource's name (or id) to be typed. Keys typed before the question are discarded. `yes`
    (--yes) answers `Send? [y/N]`, said after it, but not a DELETE's name: that is still typed.

    Returns:
        Whether to send it. `before` is given the entity fetched for the preview, if it was.
    """
    before = before or Fetched()
    shown = preview(outgoing)
    accepted = {"y", "yes"}
    if outgoing.method in ("PATCH", "PUT") and body.data:
        shown += ["", *await difference(session, outgoing, target, body.document, before)]
        question = "Send? [y/N] "
    elif outgoing.method == "DELETE":
        identity, accepted, added_lines = await identified(session, outgoing, target, before)
        shown += added_lines
        question = f'Type "{identity}" to delete it (anything else keeps it): '
    else:
        question = "Send? [y/N] "
    if yes and outgoing.method != "DELETE":
        sys.stderr.write("\n".join([*shown, "", question + "y (--yes)"]) + "\n")
        sys.stderr.flush()
        return True
    discard_typeahead(sys.stdin)
    sys.stderr.write("\n".join([*shown, "", question]))
    sys.stderr.flush()
    answer = sys.stdin.readline().strip()
    answer = answer if outgoing.method == "DELETE" else answer.lower()
    if answer in accepted or answer.strip('"') in accepted:
        return True
    print(f"explorer {command}: not sent", file=sys.stderr)
    return False


async def difference(session: Session, outgoing: Outgoing, target: str, sent: Any, before: Fetched) -> list[str]:
    """What a PATCH or PUT changes, field by field, in the entity as fetched just now (into `before`)."""
    now = await session.fetch(target)
    if now.error:
        return [visible(f"It could not be fetched just now ({now.error.line()}): no difference to show.")]
    if now.json is None:
        return [visible(f"It is not JSON just now ({now.json_error or 'an empty body'}): no difference to show.")]
    before.document = now.json
    found = write_changes(outgoing.method, now.json, sent, request_schema(session, outgoing.method, outgoing.url))
    if not found:
        return ["It changes nothing: the entity fetched just now has these values."]
    return ["What it changes in the entity, fetched just now:", *(visible(change.line()) for change in found)]


def request_schema(session: Session, method: str, url: str) -> Any:
    """The request schema the API description gives a write of `method` to `url`, if it gives one."""
    description = session.description
    operation = description.operation(raw_path(httpx.URL(url)), method) if description else None
    return description.request_schema(operation) if description and operation else None


async def identified(
    session: Session, outgoing: Outgoing, target: str, before: Fetched
) -> tuple[str, set[str], list[str]]:
    """What a DELETE asks to type: the resource's name (identity_of, as fetched just now, into `before`),
    else the last segment of its path; the answers taken (that, its id, the last segment); and what the
    preview adds."""
    now = await session.fetch(target)
    added_lines = [] if not now.error else ["", visible(f"It could not be fetched just now: {now.error.line()}")]
    document = now.json if not now.error else None
    before.document = document
    identity = delete_name(document, outgoing.url)
    accepted = delete_answers(document, outgoing.url)
    return visible(identity), accepted | {visible(answer) for answer in accepted}, added_lines
