"""`explorer baseline`: a resource saved as it is now under a name, to compare with later (`explorer diff @NAME PATH`).

    explorer baseline save NAME PATH     fetch PATH and save it as NAME (under the session's profile)
    explorer baseline list               every baseline: profile:name, where from, when
    explorer baseline show NAME          its document, as JSON
    explorer baseline delete NAME        forget it

NAME alone is the profile's (`--profile`, else the config file's default); `PROFILE:NAME` another's.
Exit codes: 0; 1 when the fetch failed, the baseline is not there, or the file cannot be used; 2
for usage.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from collections.abc import Callable
from typing import TypeVar

from explorer.api.baselines import Baseline, Baselines, check_name, split_reference
from explorer.api.config import chosen_profile
from explorer.api.config_file import BASELINES_FILE, config_path, load_config, state_file
from explorer.api.errors import ApiError
from explorer.api.unsafe_characters import visible
from explorer.commands.flags import add_token_cache_flag
from explorer.commands.history import iso_time
from explorer.commands.output import exit_code, report
from explorer.connection import add_connection_arguments, open_session

T = TypeVar("T")
USAGE = "save NAME PATH, list, show NAME or delete NAME"
ARITY = {"save": 2, "list": 0, "show": 1, "delete": 1}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("words", nargs="*", metavar="ACTION", help=USAGE)
    parser.add_argument("--json", action="store_true", help="list: JSON, an array of baselines")
    add_token_cache_flag(parser)
    add_connection_arguments(parser)


def run(args: argparse.Namespace) -> int:
    words = args.words or ["list"]
    action, rest = words[0], words[1:]
    if ARITY.get(action) != len(rest):
        args.parser.error(f"give {USAGE}")
    try:
        if action == "save":
            return asyncio.run(save(args, check_name(rest[0]), rest[1]))
        if action == "list":
            return listed(stored(lambda baselines: baselines.list()), args.json)
        owner, name = split_reference(rest[0], profile_asked(args))
        if action == "delete":
            if not stored(lambda baselines: baselines.delete(owner, name)):
                return missing(owner, name)
            print(visible(f"Deleted {reference(owner, name)}."))
            return 0
        found = stored(lambda baselines: baselines.get(owner, name))
    except ValueError as error:
        args.parser.error(str(error))
    except BrokenPipeError:  # stdout's reader went away (`| head`): not the file's; explorer ends quietly
        raise
    except OSError as error:
        print(f"explorer baseline: {visible(error)}", file=sys.stderr)
        return 1
    if found is None:
        return missing(owner, name)
    print(indented(found))
    return 0


def indented(baseline: Baseline) -> str:
    """Its document as `explorer journal N --json` prints one: JSON indented by 2; as kept if it does not read."""
    try:
        return json.dumps(baseline.document(), indent=2)
    except ValueError:  # a file changed by hand
        return baseline.text


def stored(use: Callable[[Baselines], T]) -> T:
    """What `use` makes of the baselines file, closed after. Raises OSError when it cannot be used."""
    baselines = Baselines(state_file(BASELINES_FILE))
    try:
        return use(baselines)
    finally:
        baselines.close()


def profile_asked(args: argparse.Namespace) -> str | None:
    """The profile a name alone belongs to: --profile (or EXPLORER_PROFILE), else the config file's default."""
    return chosen_profile(load_config(config_path()), args.profile or os.environ.get("EXPLORER_PROFILE"))


def reference(profile: str, name: str) -> str:
    return f"{profile}:{name}" if profile else name


def missing(profile: str, name: str) -> int:
    print(
        f"explorer baseline: no baseline {visible(reference(profile, name))} (explorer baseline list)", file=sys.stderr
    )
    return 1


async def save(args: argparse.Namespace, name: str, target: str) -> int:
    """Fetch `target` and save its document as `name`, under the session's profile."""
    try:
        session = open_session(args, token_cache=not args.no_token_cache, keep_bytes=0)
    except ApiError as error:
        report("baseline", error)
        return 1
    async with session:
        try:
            resource = await session.fetch(target)
        except ApiError as error:
            report("baseline", error)
            return exit_code(error)
        if resource.error is not None:
            report("baseline", resource.error)
            return exit_code(resource.error)
        if resource.json_error is not None:
            print(f"explorer baseline: GET {visible(resource.url)}: the body is {resource.json_error}", file=sys.stderr)
            return 1
        profile, url, document, now = (
            session.credentials.profile,
            str(resource.url),
            resource.document,
            session.clocks.wall(),
        )
        try:
            saved = stored(lambda baselines: baselines.save(profile, name, url, document, now, session.recent.secrets))
        except OSError as error:
            print(f"explorer baseline: {visible(error)}", file=sys.stderr)
            return 1
    print(visible(f"Saved {reference(saved.profile, name)}: {saved.url}"))
    return 0


def listed(found: list[Baseline], as_json: bool) -> int:
    if as_json:
        saved = [
            {"profile": b.profile or None, "name": b.name, "url": b.url, "saved": iso_time(b.saved)} for b in found
        ]
        print(json.dumps(saved))
        return 0
    for baseline in found:
        print(visible(f"{reference(baseline.profile, baseline.name)}  {baseline.url}  {baseline.label}"))
    if not found:
        print("No baselines: explorer baseline save NAME PATH saves one.", file=sys.stderr)
    return 0
