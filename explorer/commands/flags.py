"""The flags the one-shot request commands share (`explorer get` and the writes), and what they make
of them: the target, query parameters, headers, the token cache."""

from __future__ import annotations

import argparse
from typing import Any

from explorer.api.headers import header_pair
from explorer.commands.body import not_text


def add_target(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("target", metavar="TARGET", help="a path under the base URL (/groups), or an absolute URL")


def add_query_flags(parser: argparse.ArgumentParser) -> None:
    """--pretty, --envelope and -q K=V: query parameters (query_params)."""
    parser.add_argument("--pretty", action="store_true", help="ask the service for pretty=true")
    parser.add_argument("--envelope", action="store_true", help="ask the service for envelope=true")
    parser.add_argument(
        "--query", "-q", action="append", default=[], metavar="K=V", type=pair, help="add a query parameter; repeatable"
    )


def add_include_flag(parser: Any, also: str = "") -> None:
    """-i: the status line and headers first (`parser` may be a group)."""
    parser.add_argument(
        "--include",
        "-i",
        action="store_true",
        help=f"print the status line and headers first, on an error too{also}",
    )


def add_header_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--header",
        "-H",
        action="append",
        default=[],
        metavar="'NAME: VALUE'",
        type=header,
        help="send this header too, to the API's origin only (Accept included); repeatable. Authorization, "
        "Cookie, Host, the framing headers and the method overrides (X-HTTP-Method-Override, X-HTTP-Method, "
        "X-Method-Override) are refused",
    )


def add_token_cache_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--no-token-cache",
        action="store_true",
        help="get a token for this call and revoke it after (instead of reusing a cached one)",
    )


def pair(text: str) -> tuple[str, str]:
    name, equals, value = text.partition("=")
    if not equals or not name:
        raise argparse.ArgumentTypeError(f"{text!r} is not NAME=VALUE")
    problem = not_text(text)
    if problem is not None:  # httpx sends a query as UTF-8, percent-encoded
        raise argparse.ArgumentTypeError(f"a query parameter holds {problem}: a URL's query is UTF-8 text")
    return name, value


def header(text: str) -> tuple[str, str]:
    try:
        return header_pair(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def query_params(args: argparse.Namespace) -> dict[str, str]:
    """The query parameters -q, --pretty and --envelope ask for."""
    params = dict(args.query)
    if args.pretty:
        params["pretty"] = "true"
    if args.envelope:
        params["envelope"] = "true"
    return params
