"""`explorer logout`: revoke the one-shot commands' cached token and delete its file."""

from __future__ import annotations

import argparse
import asyncio
import sys

from explorer.api.auth import ServiceAccountAuth
from explorer.api.errors import ApiError
from explorer.commands.output import exit_code, report
from explorer.connection import add_connection_arguments, open_session


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_connection_arguments(parser)


def run(args: argparse.Namespace) -> int:
    return asyncio.run(logout(args))


async def logout(args: argparse.Namespace) -> int:
    try:
        session = open_session(args, token_cache=True, keep_bytes=0)
    except ApiError as error:
        report("logout", error)
        return 1
    async with session:
        auth = session.auth
        where = f"{session.base_url.host} as {session.credentials.who}"
        if not isinstance(auth, ServiceAccountAuth):
            print(f"API keys have no token to log out of ({where}).")
            return 0
        if auth.token is None:
            if auth.cache:
                auth.cache.delete()
            print(f"No cached token for {where}: nothing to revoke.")
            return 0
        try:
            await session.revoke()
        except ApiError as error:
            report("logout", error)
            print("The cached token was deleted; the service may still honour it until it expires.", file=sys.stderr)
            return exit_code(error)
        print(f"Logged out of {where}: the token is revoked and its cache file deleted.")
        return 0
