"""`explorer get TARGET`: one resource's body to stdout, as received, for pipes and scripts."""

from __future__ import annotations

import argparse
import asyncio
import sys

from explorer.api.errors import ApiError
from explorer.api.resource import Resource
from explorer.api.session import Session
from explorer.api.unsafe_characters import visible
from explorer.commands import watch
from explorer.commands.flags import (
    add_header_flag,
    add_include_flag,
    add_query_flags,
    add_target,
    add_token_cache_flag,
    query_params,
)
from explorer.commands.hint_words import FLAG_WORDS
from explorer.commands.output import ItemsOut, exit_code, print_response, print_waits, report
from explorer.connection import add_connection_arguments, open_session, whole_number

ALL_PAGE_SIZE = "500"
MAX_PAGES = 1000  # the pages --all follows at most (--max-pages)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_target(parser)
    add_query_flags(parser)
    paging = parser.add_mutually_exclusive_group()
    paging.add_argument(
        "--all",
        action="store_true",
        help="a list: every page's items as one JSON array (500 items per page); anything else: as without --all",
    )
    add_include_flag(paging, also=" (not with --all, which joins many responses)")
    parser.add_argument(
        "--max-pages",
        type=pages_count,
        default=MAX_PAGES,
        metavar="N",
        help=f"with --all: the most pages followed (default: {MAX_PAGES}); a page seen twice ends the walk too",
    )
    add_header_flag(parser)
    add_token_cache_flag(parser)
    watch.add_arguments(parser)
    add_connection_arguments(parser)


def pages_count(text: str) -> int:
    """Parse `--max-pages` (argparse's `type`): a whole number of pages, at most a million."""
    return whole_number(text, 10**6, "pages")


def run(args: argparse.Namespace) -> int:
    misused = watch.misused(args)
    if misused:
        args.parser.error(misused)
    return asyncio.run(get(args))


async def get(args: argparse.Namespace) -> int:
    params = query_params(args)
    try:
        # keep_bytes=0: keep no bodies in memory for a HAR file saved later (only the screen saves one;
        # --har still records as the requests go)
        session = open_session(args, token_cache=not args.no_token_cache, headers=dict(args.header), keep_bytes=0)
    except ApiError as error:
        report("get", error)
        return 1
    print_waits(session, "get")
    async with session:
        try:
            if args.watch:
                return await watch.watched(session, args, params)
            return await get_one(session, args, params)
        finally:
            if session.recording_problem:  # the answer went on, unrecorded: said last
                print(f"explorer get: {visible(session.recording_problem)}", file=sys.stderr)


async def get_one(session: Session, args: argparse.Namespace, params: dict[str, str]) -> int:
    """Fetch the target and write its body (with --all, every page of a list); return the exit code."""
    try:
        resource = await session.fetch(args.target, params=params)
        if session.description_problem:  # said, and the request went on without it
            report("get", session.description_problem)
        if args.all and resource.page is not None:
            return await get_all(session, resource, args.target, params, args.max_pages)
    except ApiError as error:
        report("get", error)
        return exit_code(error)
    return print_response("get", resource, args.include)


async def get_all(
    session: Session, first: Resource, target: str, params: dict[str, str], max_pages: int = MAX_PAGES
) -> int:
    """Every page's items as one array, written as each page comes (ItemsOut).

    A `next` that points at a page already read (itself, or two pages at each other) ends the walk
    with an error, as does a list of more than `max_pages` pages: a server cannot keep it going.

    The first request is sent as asked, with no page size added, since the target may be an entity,
    which can refuse one. When it turns out to be a list with more than one page, its first page is fetched
    again at 500 items per page, unless the command asked for a page size or a page number itself.

    Returns:
        The exit code: 0 once every page is written, else as `exit_code` says for the error that
        ended the walk (what was written so far stands, and the error says how far it got).
    """
    resource = first
    if first.page is not None and first.page.next_href and not {"itemsPerPage", "pageNum"} & params.keys():
        resource = await session.fetch(target, params={**params, "itemsPerPage": ALL_PAGE_SIZE})
    out = ItemsOut(2 if params.get("pretty") == "true" else None)
    seen = {resource.url}
    while True:
        if resource.error:
            report("get", resource.error, out.so_far())
            return exit_code(resource.error)
        page = resource.page
        if page is None:
            body = f"its body is {resource.json_error}" if resource.json_error else "it has no results"
            hint = resource.json_hint_in(FLAG_WORDS)
            report(
                "get", ApiError("config", f"{resource.url} is not a page of the list: {body}", hint=hint), out.so_far()
            )
            return 1
        out.write(page.results)
        next_link = resource.link("next")
        if next_link is not None and next_link.problem:
            report("get", ApiError(
                "href",
                f"The next page is not a URL: {next_link.href} ({next_link.problem}); "
                f"the walk ends after {out.pages_text()}",
                hint=f"The list goes on past a link that cannot be followed. {out.so_far()}",
            ))  # fmt: skip
            return 1
        if not page.next_href:
            break
        following = str(session.resolve(page.next_href))
        if following in seen:
            report("get", ApiError(
                "limit",
                f"The list's next page {following} is a page already read: the walk ends there, "
                f"after {out.pages_text()}",
                hint="A list whose pages lead back is the service's bug; read a page at a time with "
                f"-q pageNum=N. {out.so_far()}",
            ))  # fmt: skip
            return 1
        if out.pages >= max_pages:  # a healthy list, only longer than allowed: the limit is ours
            report("get", ApiError(
                "limit",
                f"The --max-pages limit ({max_pages}) was reached: the list goes on at {following}, and the "
                f"walk ends there, after {out.pages_text()}",
                hint=f"Allow more with --max-pages N (up to 1000000), or read from there with -q pageNum=N. "
                f"{out.so_far()}",
            ))  # fmt: skip
            return 1
        seen.add(following)
        resource = await session.fetch(following)
    out.close()
    return 0
