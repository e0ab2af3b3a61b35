"""The flags that say what to connect to and as whom, shared by the screen and every command that
connects, and the session they open (the demo sandbox in process, or the configured service)."""

from __future__ import annotations

import argparse
import dataclasses
import math
import os
import sys
from pathlib import Path
from typing import Any

import httpx

from explorer.api import replay
from explorer.api.config import Credentials
from explorer.api.config_file import HISTORY_FILE, JOURNAL_FILE, config_path, load_config, state_file, token_cache_dir
from explorer.api.guard import MAX_BODY
from explorer.api.har import KEEP_BYTES, HarRecorder
from explorer.api.history import History, history_settings
from explorer.api.journal import Journal
from explorer.api.options import DEADLINE, Bounds, Caches, Har
from explorer.api.secret import Secret
from explorer.api.session import Backend, Session
from explorer.api.urls import origin_text
from explorer.api.values import MAX_DEPTH, MAX_DEPTH_LIMIT
from explorer.api.versions import check_version
from explorer.api.writes import WritePolicy, write_policy
from explorer.display.variables import VARIABLES, writes_asked
from explorer.sandbox.scenarios import SCENARIOS

SCREEN_HISTORY_AFTER = 0.3  # seconds: a page turn measured 8 ms slower at most with the history kept this way

DEFAULTS = {"demo": False, "profile": None, "base_url": None, "client_id": None, "public_key": None,
            "ca_bundle": None, "timeout": 30.0, "scenario": None, "api_version": None,
            "openapi": None, "deadline": DEADLINE, "max_body": MAX_BODY,
            "max_depth": MAX_DEPTH, "har": None, "har_unredacted": False, "replay": None,
            "writes": False, "operation_seconds": None, "history": True}  # fmt: skip


def add_connection_arguments(parser: argparse.ArgumentParser, root: bool = False) -> None:
    """The connection flags. Given before or after a command, they mean the same: their defaults
    live on the root parser only, so a command's parser never overwrites what came before it."""
    if root:
        parser.set_defaults(**DEFAULTS)
    group = parser.add_argument_group("connection (flags, then EXPLORER_* variables, then the profile)")
    if not root:
        group.add_argument(
            "--demo",
            action="store_true",
            default=argparse.SUPPRESS,
            help="use the sandbox in process, with its default credentials: no network, no setup",
        )
    group.add_argument(
        "--scenario",
        choices=list(SCENARIOS),
        default=argparse.SUPPRESS,
        help="set the demo sandbox up for a drill (implies --demo): %(choices)s",
    )
    group.add_argument(
        "--operation-seconds",
        metavar="N",
        type=operation_seconds,
        default=argparse.SUPPRESS,
        help="how long the demo sandbox's clusters stay CREATING, UPDATING or DELETING; 0: until the next "
        "request (implies --demo; default: 20)",
    )
    group.add_argument(
        "--profile", default=argparse.SUPPRESS, help="the profile in the config file to use (EXPLORER_PROFILE)"
    )
    group.add_argument(
        "--base-url",
        metavar="URL",
        default=argparse.SUPPRESS,
        help="the API root, e.g. https://host/api/service/v1.0 (EXPLORER_BASE_URL)",
    )
    group.add_argument(
        "--client-id",
        default=argparse.SUPPRESS,
        help="service account client ID (EXPLORER_CLIENT_ID; the secret: EXPLORER_CLIENT_SECRET)",
    )
    group.add_argument(
        "--public-key",
        default=argparse.SUPPRESS,
        help="API key public key (EXPLORER_PUBLIC_KEY; the private key: EXPLORER_PRIVATE_KEY)",
    )
    for flag, variable, field in (
        ("--client-secret", "EXPLORER_CLIENT_SECRET", "client_secret"),
        ("--private-key", "EXPLORER_PRIVATE_KEY", "private_key"),
    ):
        where = f"set {variable}, or {field} in the profile" + (", or type it on the login form" if root else "")
        group.add_argument(flag, action=NoSecretFlag, where=where)
    group.add_argument(
        "--ca-bundle",
        metavar="FILE",
        default=argparse.SUPPRESS,
        help="trust this certificate authority, e.g. the sandbox's (EXPLORER_CA_BUNDLE)",
    )
    group.add_argument(
        "--api-version",
        metavar="DATE",
        type=api_version,
        default=argparse.SUPPRESS,
        help="the version a versioned API (/api/<vendor>/v2) is asked for, e.g. 2024-08-05 "
        "(EXPLORER_API_VERSION; default 2023-01-01)",
    )
    group.add_argument(
        "--openapi",
        metavar="FILE_OR_URL",
        default=argparse.SUPPRESS,
        help="the service's API description (OpenAPI 3, JSON or YAML): documented paths in the tree, "
        "each operation's version, the roles it needs (EXPLORER_OPENAPI)",
    )
    group.add_argument(
        "--writes",
        action="store_true",
        default=argparse.SUPPRESS,
        help="allow writes (POST, PUT, PATCH, DELETE), each previewed and confirmed (EXPLORER_WRITES=1); "
        "refused for a profile that says writes = false. Without it: read-only",
    )
    limits = (
        ("--timeout", seconds, "SECONDS", "per read (default: 30)"),
        ("--deadline", seconds, "SECONDS", f"for a whole request, however slow its answer (default: {DEADLINE:g})"),
        ("--max-body", megabytes, "MB", f"the largest answer read, decoded (default: {MAX_BODY // 2**20})"),
        ("--max-depth", levels, "LEVELS", f"the deepest nesting read as JSON, 1 to 500 (default: {MAX_DEPTH})"),
    )  # fmt: skip
    for flag, kind, metavar, help_text in limits:
        group.add_argument(flag, type=kind, default=argparse.SUPPRESS, metavar=metavar, help=help_text)
    har = parser.add_argument_group("recording and replay (HAR 1.2)")
    har.add_argument(
        "--har",
        metavar="FILE",
        type=Path,
        default=argparse.SUPPRESS,
        help="write every exchange to FILE as it happens, secrets redacted (a file explorer wrote is continued)",
    )
    har.add_argument(
        "--har-unredacted",
        action="store_true",
        default=argparse.SUPPRESS,
        help="write tokens, secrets and passwords into the HAR file as they were (warned on stderr)",
    )
    har.add_argument(
        "--no-history",
        dest="history",
        action="store_false",
        default=argparse.SUPPRESS,
        help="keep no history of this session's exchanges (the config file's [history] keep = false, always)",
    )
    har.add_argument(
        "--replay",
        metavar="FILE_OR_FOLDER",
        type=Path,
        default=argparse.SUPPRESS,
        help="explore a recording offline: a HAR file, or a folder of .http recordings",
    )


class NoSecretFlag(argparse.Action):
    """`--client-secret`, `--private-key`: a usage error saying where a secret goes, never repeating the
    value (a command line is visible to the other users of the machine, and lands in shell histories)."""

    def __init__(self, option_strings: list[str], dest: str, where: str) -> None:
        super().__init__(option_strings, dest, nargs="?", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
        self.where = where

    def __call__(
        self, parser: argparse.ArgumentParser, namespace: object, values: object, option: object = None
    ) -> None:
        raise argparse.ArgumentError(self, f"secrets have no flag (other users can see a command line): {self.where}")


def api_version(text: str) -> str:
    """A version as the service names them, a day such as 2024-08-05; anything else is a usage error."""
    try:
        return check_version(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(f"{error} (versions are dates)") from None


def seconds(text: str) -> float:
    """A time limit: a finite number of seconds above 0; anything else is a usage error naming the flag."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds above 0")
    return value


def operation_seconds(text: str) -> int:
    """The demo sandbox's operation time: a whole number of seconds, 0 or more."""
    if not (text.isascii() and text.isdigit()):
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of seconds, 0 or more")
    return int(text)


def whole_number(text: str, maximum: int, what: str) -> int:
    """A count from 1 to `maximum` written in ASCII digits; anything else is a usage error naming the flag."""
    if not (text.isascii() and text.isdigit()) or not 0 < int(text) <= maximum:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of {what} from 1 to {maximum}")
    return int(text)


def megabytes(text: str) -> int:
    """A size limit in megabytes (MiB), as bytes."""
    return whole_number(text, 1024 * 1024, "megabytes") * 2**20


def levels(text: str) -> int:
    """A nesting limit, at most MAX_DEPTH_LIMIT: the pretty view walks one call a level, within Python's
    own limit of about a thousand."""
    return whole_number(text, MAX_DEPTH_LIMIT, "levels")


def bounds_of(args: argparse.Namespace) -> Bounds:
    """The bounds the flags set on a session (--timeout, --deadline, --max-body, --max-depth)."""
    return Bounds(timeout=args.timeout, deadline=args.deadline, max_body=args.max_body, max_depth=args.max_depth)


def open_session(
    args: argparse.Namespace,
    *,
    token_cache: bool,
    headers: dict[str, str] | None = None,
    keep_bytes: int = KEEP_BYTES,
    screen: bool = False,
) -> Session:
    """The session the flags ask for. Raises ConfigError (or ApiError) when it cannot be opened.

    `keep_bytes` is what the session keeps of its last exchanges to save them as HAR later: the screen
    keeps them, a one-shot command (0) does not. `screen`: the session is the screen's (recorded).
    """
    if args.har is not None and args.har_unredacted:
        print(
            f"explorer: warning: {args.har} gets tokens, secrets and passwords as they were "
            "(--har-unredacted): keep it to yourself.",
            file=sys.stderr,
        )
    return recorded(connect(args, token_cache=token_cache, headers=headers, keep_bytes=keep_bytes), args, screen=screen)


def recorded(session: Session, args: argparse.Namespace, *, screen: bool = False) -> Session:
    """The session, writing every exchange to the file --har names (if it does), and to the history
    (unless --no-history or the config file says not to keep one, or the session is a replay), and
    noting every write in the journal. Raises RecordingError when that file cannot be recorded into,
    ConfigError when [history] is not usable.

    Every session the flags lead to is recorded: the one they open, and the screen's later ones (its
    login form's, the demo sandbox's from there). A `screen`'s exchanges go to the history once it
    has had the time to show them (SCREEN_HISTORY_AFTER); a command's at once.
    """
    if args.har is not None:
        session.recorder = HarRecorder(
            args.har, str(session.base_url), openapi=session.credentials.openapi, redact=not args.har_unredacted
        )
    path = config_path()
    settings = history_settings(load_config(path), str(path))
    replayed = session.backend is not None and session.backend.kind == "replay"
    if args.history and settings.keep and not replayed:
        session.history = History(
            state_file(HISTORY_FILE),
            profile=session.credentials.profile,
            max_entries=settings.max_entries,
            max_bytes=settings.max_bytes,
            after=SCREEN_HISTORY_AFTER if screen else 0.0,
        )
    if not replayed:  # every write is noted before it goes (a replay sends none)
        session.journal = Journal(state_file(JOURNAL_FILE), profile=session.credentials.profile)
    return session


def connect(args: argparse.Namespace, *, token_cache: bool, headers: dict[str, str] | None, keep_bytes: int) -> Session:
    """The session itself: a replay, the demo sandbox, or the configured service. A config file that
    cannot be read as TOML is a ConfigError whichever it is, as the screen says it: never ignored."""
    load_config(config_path())
    if args.replay is not None:
        return replaying(
            args.replay,
            headers=headers,
            har=Har(keep_bytes=keep_bytes),
            writes=write_policy(None, asked=writes_asked(args.writes, os.environ)),
            bounds=bounds_of(args),
        )
    lasting = getattr(args, "operation_seconds", None)  # the demo sandbox's, so it implies the demo
    if getattr(args, "demo", False) or getattr(args, "scenario", None) or lasting is not None:
        from explorer.demo import demo_session

        return demo_session(
            bounds=bounds_of(args),
            scenario=args.scenario,
            operation_seconds=lasting,
            headers=headers,
            har=Har(keep_bytes=keep_bytes),
            openapi=args.openapi,
            api_version=args.api_version,
            writes=write_policy(None, asked=writes_asked(args.writes, os.environ)),
        )
    credentials = Credentials.resolve(
        base_url=args.base_url,
        client_id=args.client_id,
        public_key=args.public_key,
        ca_bundle=args.ca_bundle,
        profile=args.profile,
        api_version=args.api_version,
        openapi=args.openapi,
        variables=VARIABLES,
    )
    token_folder = token_cache_dir() if token_cache else None
    return Session(
        credentials,
        writes=write_policy_of(credentials, flag=args.writes),
        headers=headers,
        bounds=bounds_of(args),
        caches=Caches(token=token_folder),
        har=Har(keep_bytes=keep_bytes),
    )


def write_policy_of(credentials: Credentials, *, flag: bool) -> WritePolicy:
    """The write policy of a session on these credentials, `--writes` given or not: what their profile says,
    or what a profile naming their origin says (writes = false holds there whatever the credentials).

    Args:
        credentials: The session's credentials, their `writes` as the config file says them.
        flag: Whether `--writes` was given (else EXPLORER_WRITES may ask for writes).

    Returns:
        The policy. Raises WritesRefused when writes are asked for where a profile says writes = false.
    """
    borrowed = credentials.writes_from is not None and credentials.writes_from != credentials.profile
    return write_policy(
        credentials.writes,
        asked=writes_asked(flag, os.environ),
        profile=credentials.writes_from,
        origin=origin_text(httpx.URL(credentials.base_url)) if borrowed else None,
    )


def replaying(source: Path, *, har: Har | None = None, **options: Any) -> Session:
    """A session on a recording: the recorded session's base URL, answered by a replay transport.

    `har` is what the session keeps and records of its own exchanges; its `replay` is set to
    the recording's file name.
    """
    recorded_as, transport = replay.load(source)
    credentials = Credentials(
        base_url=replay.base_url_of(recorded_as),
        client_id="replay",
        client_secret=Secret("replay"),
        openapi=recorded_as.openapi,
    )
    har_options = dataclasses.replace(har or Har(), replay=source.name)
    session = Session(credentials, transport=transport, har=har_options, client_side_throttling=False, **options)
    session.backend = Backend("replay", str(source))
    return session
