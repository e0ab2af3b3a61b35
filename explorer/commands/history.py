"""`explorer history`: the exchanges kept across sessions, listed, searched, shown one at a time.

Newest first, a line each: its number, when, the profile, the method, the status and errorCode,
the URL. `--grep WORDS` searches as the screen's history does (each word matches the method,
status, errorCode, URL or time); `explorer history N` shows entry N whole, as it was kept (its
secrets taken out). Exit codes: 0, 1 when the history cannot be read (or N is not kept), 2 for usage.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from datetime import datetime
from typing import Any

from explorer.api.config_file import HISTORY_FILE, state_dir
from explorer.api.history import SEARCH_LIMIT, History, HistoryEntry, local_time
from explorer.api.unsafe_characters import lines, visible
from explorer.display.har_entries import kept_body, kept_headers

SPANS = {"m": 60, "h": 3600, "d": 86400}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("number", nargs="?", type=entry_number, metavar="N", help="show entry N whole")
    parser.add_argument(
        "--grep",
        metavar="WORDS",
        default="",
        help="only entries each word matches (method, status such as 404 or 4xx, errorCode, URL, time such as "
        "2026-11-27 or 14:03)",
    )
    parser.add_argument("--profile", metavar="NAME", help="only this profile's entries")
    parser.add_argument(
        "--since",
        metavar="WHEN",
        type=since,
        help="only entries since WHEN: 2026-11-27, '2026-11-27 14:00', or 30m, 2h, 3d ago",
    )
    parser.add_argument(
        "--limit",
        metavar="N",
        type=limit,
        default=50,
        help=f"at most N entries, newest first (default 50, at most {SEARCH_LIMIT})",
    )
    parser.add_argument(
        "--json", action="store_true", help="JSON: an array of entries (with N: the entry, its HAR record whole)"
    )
    parser.add_argument("--clear", action="store_true", help="delete every entry, and say how many there were")


def since(text: str) -> float:
    """A time to list from: a local date or date and time (ISO 8601), or a span ago (`30m`, `2h`, `3d`)."""
    span = re.fullmatch(r"(\d{1,6})([mhd])", text.strip())
    if span:
        return time.time() - int(span[1]) * SPANS[span[2]]
    try:
        return datetime.fromisoformat(text.strip()).timestamp()
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a time: give a date (2026-11-27), a date and time ('2026-11-27 14:00')"
            " or a span ago (30m, 2h, 3d)"
        ) from None


def entry_number(text: str) -> int:
    """N, an entry's (or a write's) number: a whole number from 1; anything else is a usage error."""
    if not (text.isascii() and text.isdigit()) or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of 1 or more")
    return int(text)


def limit(text: str) -> int:
    """--limit N: at most N listed, from 1 to SEARCH_LIMIT; anything else is a usage error."""
    try:
        number = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number from 1 to {SEARCH_LIMIT}") from None
    if not 1 <= number <= SEARCH_LIMIT:
        raise argparse.ArgumentTypeError(f"{number} is not from 1 to {SEARCH_LIMIT}")
    return number


def iso_time(moment: float) -> str:
    """A wall clock time as --json gives it: ISO 8601, local, to the second, with its offset
    (`2026-11-27T14:03:12+01:00`)."""
    return datetime.fromtimestamp(moment).astimezone().isoformat(timespec="seconds")


def run(args: argparse.Namespace) -> int:
    path = state_dir() / HISTORY_FILE
    if not path.exists():
        print(f"No history yet: it is kept in {path} once a session has had an exchange.", file=sys.stderr)
        return 0
    history = History(path)
    try:  # the file only: a write to stdout is not in it (a reader gone, `| head -1`, is the caller's)
        if args.clear:
            cleared = history.clear()
        elif args.number is not None:
            kept = history.get(args.number)
        else:
            found = history.search(args.grep, profile=args.profile, since=args.since, limit=args.limit)
    except OSError as error:
        print(f"explorer history: cannot read {visible(error)}", file=sys.stderr)
        return 1
    finally:
        history.close()
    if args.clear:
        print(f"Deleted {cleared:,} entries from {path}.")
        return 0
    if args.number is not None:
        return show(kept, args.number, args.json)
    if (news := history.news_of_set_aside()) is not None:
        print(f"explorer history: {visible(news)}", file=sys.stderr)
    if args.json:
        print(json.dumps([summary(entry) for entry in found], indent=2))
    else:
        for entry in found:
            print(line(entry))
        if not found:
            print(
                "No entries match." if args.grep or args.profile or args.since else "No entries yet.", file=sys.stderr
            )
    return 0


def line(entry: HistoryEntry) -> str:
    """One entry as a line: `#12  2026-11-27 14:03:12  prod  GET  404 GROUP_NOT_FOUND  https://…  120 ms`."""
    status = f"{entry.status} {entry.error_code}".rstrip()
    profile = entry.profile or "-"
    return visible(
        f"#{entry.number}  {local_time(entry.started)}  {profile}  {entry.method:<6}  {status}  {entry.url}"
        f"  {entry.elapsed * 1000:.0f} ms"
    )


def summary(entry: HistoryEntry) -> dict[str, Any]:
    """An entry as --json lists it: what a line says, each as a field."""
    return {
        "number": entry.number,
        "started": iso_time(entry.started),
        "profile": entry.profile or None,
        "origin": entry.origin,
        "method": entry.method,
        "url": entry.url,
        "status": entry.status,
        "errorCode": entry.error_code or None,
        "elapsed": round(entry.elapsed, 3),
        "size": entry.size,
    }


def show(entry: HistoryEntry | None, number: int, as_json: bool) -> int:
    """Entry `number` whole (None: not kept): the request and the answer as kept, every character visible."""
    if entry is None:
        print(f"explorer history: no entry #{number} (never, or dropped as the history grew)", file=sys.stderr)
        return 1
    if as_json:
        print(json.dumps({**summary(entry), "har": entry.entry}, indent=2))
        return 0
    request, response = entry.entry.get("request", {}), entry.entry.get("response", {})
    heading = (
        f"#{entry.number}, from the history: as it was at {local_time(entry.started)}"
        f" ({entry.profile or 'no profile'}, {entry.elapsed * 1000:.0f} ms)"
    )
    out = [visible(heading), "", visible(f"{entry.method} {entry.url}")]
    out += [*header_lines(request), *body_lines(request.get("postData", {}))]
    out += ["", visible(f"{entry.status} {response.get('statusText', '')}".rstrip())]
    out += [*header_lines(response), *body_lines(response.get("content", {}))]
    sys.stdout.write("\n".join(out) + "\n")
    return 0


def header_lines(part: dict[str, Any]) -> list[str]:
    """A HAR request's or response's headers, `Name: value` each, every character visible."""
    return [visible(f"{name}: {value}") for name, value in kept_headers(part)]


def body_lines(content: dict[str, Any]) -> list[str]:
    """A HAR body as lines to print, each character visible, after a blank line; none for no body."""
    body = kept_body(content)
    if body is None:
        return []
    return ["", *lines(body.text.rstrip())] if body.is_text else ["", body.text]
