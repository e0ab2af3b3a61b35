"""`explorer journal`: every write attempted from here, and what became of it; one undone later.

`explorer journal` lists the writes newest first; `explorer journal N` shows one whole (the body
sent, the entity before, the answer); `explorer journal undo N` puts back what a PATCH or PUT
changed, from any later session: the entity is fetched again, a field the write set that has
changed since refuses the undo (unless --force), and the undo's PATCH goes through the same
preview and question as `explorer patch`, noted in the journal as the undo of N.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from typing import Any

from explorer.api.config_file import JOURNAL_FILE, state_dir
from explorer.api.errors import ApiError
from explorer.api.history import SEARCH_LIMIT
from explorer.api.journal import Journal, JournalEntry
from explorer.api.known_secrets import REDACTED
from explorer.api.unsafe_characters import lines, visible
from explorer.api.urls import origin_text
from explorer.api.writes import undo_body
from explorer.commands.body import Body
from explorer.commands.flags import add_token_cache_flag
from explorer.commands.history import entry_number, iso_time, limit
from explorer.commands.output import report
from explorer.commands.write import request_schema, written
from explorer.connection import add_connection_arguments, open_session

UNDONE = ("PATCH", "PUT")  # what an undo can put back: the fields it set, to their values before


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("words", nargs="*", metavar="[undo] N", help="N: show write N whole; undo N: put it back")
    parser.add_argument(
        "--limit",
        metavar="N",
        type=limit,
        default=50,
        help=f"at most N writes, newest first (default 50, at most {SEARCH_LIMIT})",
    )
    parser.add_argument("--json", action="store_true", help="JSON: an array of writes (with N: the write)")
    parser.add_argument("--force", action="store_true", help="undo N even where a field it set has changed since")
    parser.add_argument("--yes", "-y", action="store_true", help="undo: answer yes to Send? [y/N]")
    parser.add_argument("--dry-run", action="store_true", help="undo: print the PATCH as it would go; send nothing")
    add_token_cache_flag(parser)
    add_connection_arguments(parser)


def run(args: argparse.Namespace) -> int:
    words = args.words
    undo = bool(words) and words[0] == "undo"
    numbers = words[1:] if undo else words
    if len(numbers) > 1 or (undo and not numbers):
        args.parser.error("give N (a write's number) to show it, or undo N to put it back")
    try:
        number = entry_number(numbers[0]) if numbers else None
    except argparse.ArgumentTypeError as error:
        args.parser.error(f"N: {error}")
    path = state_dir() / JOURNAL_FILE
    if not path.exists():
        print(f"No writes yet: each is noted in {path} before it goes.", file=sys.stderr)
        return 1 if numbers else 0
    journal = Journal(path)
    try:  # the file only: a write to stdout is not in it (a reader gone, `| head`, is the caller's)
        if number is None:
            entries = journal.entries(profile=args.profile, limit=args.limit)
        else:
            entry = journal.get(number)
    except OSError as error:
        print(f"explorer journal: cannot read {visible(error)}", file=sys.stderr)
        return 1
    finally:
        journal.close()
    if number is None:
        return listed(entries, args.json)
    if entry is None:
        print(f"explorer journal: no write #{number}", file=sys.stderr)
        return 1
    if undo:
        return asyncio.run(undone(entry, args))
    return shown(entry, args.json)


def line(entry: JournalEntry) -> str:
    """A write as a line: `#3  2026-11-27 14:03:12  prod  PATCH  sent 200  https://…  (undone by #5)`."""
    status = f"{entry.outcome} {entry.status or ''} {entry.error_code}".rstrip()
    tail = f"  (undone by #{entry.undone_by})" if entry.undone_by else ""
    tail += f"  (undoes #{entry.undoes})" if entry.undoes else ""
    return visible(
        f"#{entry.number}  {entry.when}  {entry.profile or '-'}  {entry.method:<6}  {status}  {entry.url}{tail}"
    )


def summary(entry: JournalEntry) -> dict[str, Any]:
    """A write as --json says it."""
    return {
        "number": entry.number,
        "at": iso_time(entry.at),
        "profile": entry.profile or None,
        "origin": entry.origin,
        "method": entry.method,
        "url": entry.url,
        "outcome": entry.outcome,
        "status": entry.status,
        "errorCode": entry.error_code or None,
        "why": entry.why or None,
        "undoes": entry.undoes,
        "undoneBy": entry.undone_by,
    }


def listed(entries: list[JournalEntry], as_json: bool) -> int:
    if as_json:
        print(json.dumps([summary(entry) for entry in entries], indent=2))
    else:
        for entry in entries:
            print(line(entry))
        if not entries:
            print("No writes noted.", file=sys.stderr)
    return 0


def shown(entry: JournalEntry, as_json: bool) -> int:
    """A write whole: what went, the entity before, the answer; every character visible."""
    if as_json:
        parts = {part: entry.document(part) for part in ("body", "before", "after")}
        print(json.dumps({**summary(entry), **parts}, indent=2))
        return 0
    out = [line(entry)]
    if entry.why:
        out.append(visible(entry.why))
    for title, text in (
        ("Sent", entry.body),
        ("Before (as the preview fetched it)", entry.before),
        ("Answer", entry.after),
    ):
        if text:
            out += ["", f"{title}:", *lines(pretty(text))]
    sys.stdout.write("\n".join(out) + "\n")
    return 0


def pretty(text: str) -> str:
    """JSON indented; any other text as it is."""
    try:
        return json.dumps(json.loads(text), indent=2, ensure_ascii=False)
    except (ValueError, RecursionError):
        return text


async def undone(entry: JournalEntry, args: argparse.Namespace) -> int:
    """Write N put back: checked, previewed, confirmed and sent as a PATCH noted as its undo."""
    command = "journal undo"
    cannot = why_not_undone(entry)
    if cannot is not None:
        report(command, ApiError("config", cannot, hint="Nothing was sent."))
        return 2
    try:
        session = open_session(args, token_cache=not args.no_token_cache, keep_bytes=0)
    except ApiError as error:
        report(command, error)
        return 1
    async with session:
        if origin_text(session.base_url) != entry.origin:
            where = f"write #{entry.number} went to {entry.origin}; this session is on {origin_text(session.base_url)}"
            report(
                command,
                ApiError("config", f"Not sent: {where}", hint="Give the profile (or --base-url) of its service."),
            )
            return 2
        before, sent = entry.document("before"), entry.document("body")
        try:
            now = await session.fetch(entry.url)
        except ApiError as error:  # no answer: nothing to compare with, so nothing goes
            report(command, ApiError("config", f"Not sent: the entity cannot be fetched to compare: {error.line()}"))
            return 1
        if now.error is not None or not isinstance(now.json, dict):
            problem = now.error.line() if now.error else "it is not a JSON object now"
            report(command, ApiError("config", f"Not sent: the entity cannot be fetched to compare: {problem}"))
            return 1
        moved = [name for name, value in sent.items() if value != REDACTED and now.json.get(name) != value]
        if moved and not args.force:
            names = ", ".join(moved)
            report(
                command,
                ApiError(
                    "config",
                    f"Not sent: {names} changed since write #{entry.number} set {'it' if len(moved) == 1 else 'them'}",
                    hint="Someone (or something) changed it after: an undo would put back more than that write did."
                    " Look with explorer get first; --force undoes it all the same.",
                ),
            )
            return 1
        schema = request_schema(session, entry.method, entry.url)
        undo = undo_body(before, sent, method=entry.method, written=schema, undo=schema)
        body = {name: value for name, value in undo.body.items() if value != REDACTED}
        if not body:
            report(command, ApiError("config", f"Not sent: write #{entry.number} changed nothing an undo can put back"))
            return 1
        if (caveat := undo.caveat()) is not None:
            print(f"explorer {command}: {visible(caveat)}", file=sys.stderr)
        for name in sorted(set(undo.body) - set(body)):  # a secret is not kept: it cannot be put back
            print(f"explorer {command}: {name} was kept redacted: it cannot be put back", file=sys.stderr)
        args.target, args.query, args.pretty, args.envelope, args.include = entry.url, [], False, False, False
        data = json.dumps(body).encode("utf-8")
        return await written(session, command, "PATCH", args, Body(data, body), undoes=entry.number)


def why_not_undone(entry: JournalEntry) -> str | None:
    """Why write N cannot be undone from the journal, or None."""
    if entry.method not in UNDONE:
        return f"Write #{entry.number} is a {entry.method}: the journal undoes a PATCH or PUT (the fields it set)"
    if entry.outcome != "sent":
        return f"Write #{entry.number} was not done ({entry.outcome}): there is nothing to put back"
    if entry.undone_by is not None:
        return f"Write #{entry.number} was undone already, by #{entry.undone_by}"
    if not isinstance(entry.document("before"), dict) or not isinstance(entry.document("body"), dict):
        return (
            f"Write #{entry.number} was sent without the entity fetched before it (no preview):"
            " what to put back is not known"
        )
    return None
