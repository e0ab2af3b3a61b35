"""`explorer token`: an access token for the credentials, on stdout and nowhere else, for curl.

A request copied as curl says its token as `$TOKEN` (never its value); `TOKEN=$(explorer token)`
sets it, with `--profile NAME` (or the other connection flags) when the copy names them. The token
is the one `explorer get` keeps between runs (its token cache), got again when it has less than
five minutes left (half its life, if it lives less): `explorer logout` revokes it.

It goes to stdout only: never to stderr, and not to a terminal unless `--show` asks for it, since a
terminal may be shared, projected or recorded. API keys have no token: curl answers their Digest
challenge itself (`--digest -u "$PUBLIC_KEY:$PRIVATE_KEY"`), and the command says so. The demo's
sandbox and a replay have none that works outside the explorer, and nothing is asked of them.
"""

from __future__ import annotations

import argparse
import asyncio
import shlex
import sys

from explorer.api.auth import ServiceAccountAuth
from explorer.api.errors import ApiError
from explorer.api.session import Session
from explorer.commands.output import exit_code, print_waits, report
from explorer.connection import add_connection_arguments, open_session

NOT_ASKED = "Nothing was asked of the token endpoint."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--show",
        action="store_true",
        help="print it at a terminal too (without it, a terminal gets no token: a screen may be shared or "
        "projected); in a pipe or $( ) it is printed either way",
    )
    add_connection_arguments(parser)


def run(args: argparse.Namespace) -> int:
    refused = refusal(args)
    if refused is not None:
        error, code = refused
        report("token", error)
        return code
    return asyncio.run(token(args))


def in_process(args: argparse.Namespace) -> bool:
    """Whether the flags ask for the demo's sandbox in this process, or a replay: no token of theirs works elsewhere."""
    demo = getattr(args, "demo", False) or args.scenario or getattr(args, "operation_seconds", None) is not None
    return bool(demo or args.replay is not None)


def refusal(args: argparse.Namespace) -> tuple[ApiError, int] | None:
    """Why no token is asked for, and the exit code: the demo or a replay, whose tokens nothing
    outside the explorer takes (1, as configuration); a terminal on stdout without --show (2, usage).
    None when one is asked for."""
    if args.replay is not None:
        return ApiError(
            "config",
            "a replay has no token: it answers from a recording, inside the explorer",
            hint=f"{NOT_ASKED} For the recorded service, run explorer token with its credentials (--profile NAME).",
        ), 1
    if in_process(args):
        return ApiError(
            "config",
            "the demo's sandbox runs inside the explorer, where curl cannot reach it: its tokens work nowhere else",
            hint=f"{NOT_ASKED} explorer sandbox serves one on the network; its banner names the --base-url and "
            "--client-id that explorer token takes.",
        ), 1
    if sys.stdout.isatty() and not args.show:
        return ApiError(
            "config",
            "stdout is a terminal: the token is not shown there (a screen may be shared, projected or recorded)",
            hint=f"{NOT_ASKED} Capture it: TOKEN=$(explorer token{profile_flag(args)}); or add --show to print it "
            "here.",
        ), 2
    return None


def profile_flag(args: argparse.Namespace) -> str:
    """` --profile NAME` when the command line named a profile, for the command a hint repeats."""
    profile = getattr(args, "profile", None)
    return f" --profile {shlex.quote(profile)}" if profile else ""


async def token(args: argparse.Namespace) -> int:
    try:
        session = open_session(args, token_cache=True, keep_bytes=0)  # the cache's: kept, not revoked at the end
    except ApiError as error:
        report("token", error)
        return 1
    print_waits(session, "token")
    async with session:
        auth = session.auth
        if not isinstance(auth, ServiceAccountAuth):
            report("token", no_token_for_api_keys(session))
            return 1
        problem = await renewed(session, auth)
        if problem is not None:
            report("token", problem)
            return exit_code(problem)
        if auth.token is None:  # renewed() keeps a token or says why: never, but said rather than assumed
            report("token", ApiError("token", "the token endpoint gave no token"))
            return 1
        sys.stdout.write(auth.token.value.reveal() + "\n")  # stdout only: never said anywhere else
        sys.stdout.flush()
        return 0


async def renewed(session: Session, auth: ServiceAccountAuth) -> ApiError | None:
    """The kept token made one with five minutes left at least (a new one asked for if not); why not, if it cannot be.

    Args:
        session: The session, whose client asks the token endpoint (its rate limit, its recording).
        auth: The session's service-account flow, and its token cache.

    Returns:
        None when auth.token is one to print; else the failure.
    """
    # A token for a request of the session's own would do with less left; curl's is asked for as a
    # write's is, which goes with WRITE_MARGIN left (auth.needs_token), so that it lasts a while yet.
    return await session.renew_token(session.client.build_request("POST", auth.token_url))


def no_token_for_api_keys(session: Session) -> ApiError:
    """What API keys have in place of a token: curl's Digest, with the keys from the environment."""
    public = session.credentials.public_key or "the public key"
    return ApiError(
        "config",
        "API keys use no token: curl answers the service's Digest challenge itself, with both keys",
        hint=f'A copied curl says them as --digest -u "$PUBLIC_KEY:$PRIVATE_KEY": set PUBLIC_KEY={shlex.quote(public)} '
        "and PRIVATE_KEY from the environment (PRIVATE_KEY=$EXPLORER_PRIVATE_KEY), never the key itself on a "
        "command line (a shell's history keeps it).",
    )
