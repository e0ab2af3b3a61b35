"""`explorer sandbox`: serve the sandbox on the network for a class, a demo or a test run.

One command from its flags to its banner and its quiet stop: the banner echoes the flags (the
addresses, the scheme, the secret it may show), so they change together in one module. The
explorer's own launch reads its flags (`explorer --help`): what only serving needs (the documents'
Starlette, the versions) is imported when the banner is written.
"""

from __future__ import annotations

import argparse
import contextlib
import ipaddress
import shlex
import sys
from collections.abc import Callable
from pathlib import Path

from explorer import __version__
from explorer.sandbox.address import is_network, lan_address
from explorer.sandbox.buckets import ENDPOINT_SETS
from explorer.sandbox.faults import TOKEN_ERROR_STATUS
from explorer.sandbox.links import API_ROOT, DESCRIPTION_PATH
from explorer.sandbox.scenarios import SCENARIOS
from explorer.sandbox.settings import RATE_LIMITS, VERSIONS, Settings, parse_network

DEFAULTS = Settings()


def add_arguments(parser: argparse.ArgumentParser) -> None:
    d = DEFAULTS
    net = parser.add_argument_group("network")
    net.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default: %(default)s; 0.0.0.0 for a classroom)"
    )
    net.add_argument(
        "--port", type=port, default=None, help="port (default: 8443 with HTTPS, 8080 with --http; 0 picks a free one)"
    )
    net.add_argument(
        "--http", action="store_true", help="serve plain HTTP instead of HTTPS from the local certificate authority"
    )

    creds = parser.add_argument_group("credentials (printed at start: this is a sandbox)")
    creds.add_argument("--client-id", default=d.client_id, help="service account client ID (default: %(default)s)")
    creds.add_argument(
        "--client-secret", default=d.client_secret, help="service account client secret (default: %(default)s)"
    )
    creds.add_argument(
        "--public-key", default=d.public_key, help="API key public key, the Digest username (default: %(default)s)"
    )
    creds.add_argument(
        "--private-key", default=d.private_key, help="API key private key, the Digest password (default: %(default)s)"
    )

    limits = parser.add_argument_group("tokens, limits and data")
    limits.add_argument(
        "--token-ttl",
        type=positive,
        default=d.token_ttl,
        metavar="SECONDS",
        help="access token lifetime (default: %(default)s)",
    )
    limits.add_argument(
        "--rate-limit",
        type=positive,
        default=d.rate_limit,
        metavar="N",
        help="requests per minute per project (default: %(default)s)",
    )
    limits.add_argument(
        "--rate-limits",
        choices=RATE_LIMITS,
        default=d.rate_limits,
        help="how requests are limited: minute (the spec's windows, --rate-limit a minute per project) or bucket "
        "(the real service's token buckets, shown at GET …/rateLimits) (default: %(default)s)",
    )
    limits.add_argument(
        "--versions",
        choices=VERSIONS,
        default=d.versions,
        help="lenient: a request without a versioned Accept gets the first version; strict: as the real service, "
        "it is 406 INVALID_VERSION_DATE (name one: Accept: application/vnd.service.DATE+json) (default: %(default)s)",
    )
    limits.add_argument(
        "--token-rate-limit",
        type=positive,
        default=d.token_rate_limit,
        metavar="N",
        help="requests per minute at the token endpoints (default: %(default)s)",
    )
    limits.add_argument(
        "--access-list",
        type=network,
        action="append",
        default=[],
        metavar="CIDR",
        help="allow only these client addresses; repeatable (default: every address)",
    )
    limits.add_argument("--seed", type=int, default=d.seed, help="seed of the generated data (default: %(default)s)")
    limits.add_argument(
        "--operation-seconds",
        type=non_negative,
        default=d.operation_seconds,
        metavar="N",
        help="how long a cluster stays CREATING, UPDATING or DELETING before it is IDLE or gone; 0: until the "
        "next request (default: %(default)s)",
    )

    faults = parser.add_argument_group("faults, for debugging drills")
    faults.add_argument(
        "--scenario",
        choices=list(SCENARIOS),
        help="set the sandbox up for a drill (its settings win over the flags above): %(choices)s",
    )
    faults.add_argument(
        "--control", action="store_true", help="turn on the control endpoint /_sandbox (loopback clients only)"
    )
    faults.add_argument(
        "--latency",
        type=non_negative,
        default=0,
        metavar="MS",
        help="added latency per request under /api, token requests included",
    )
    faults.add_argument(
        "--unavailable",
        type=non_negative,
        default=0,
        metavar="N",
        help="answer the first N requests under /api, token requests included, with 503 and Retry-After",
    )
    faults.add_argument(
        "--retry-after",
        type=positive,
        default=d.retry_after,
        metavar="SECONDS",
        help="Retry-After of those 503s (default: %(default)s)",
    )
    faults.add_argument(
        "--token-error",
        action="append",
        default=[],
        choices=sorted(TOKEN_ERROR_STATUS),
        metavar="ERROR",
        help="answer the next token request with this error; repeatable (" + ", ".join(TOKEN_ERROR_STATUS) + ")",
    )


def at_least(minimum: int) -> Callable[[str], int]:
    def read(text: str) -> int:
        value = integer(text)
        if value < minimum:
            raise argparse.ArgumentTypeError(f"{text!r} must be at least {minimum}")
        return value

    return read


positive, non_negative = at_least(1), at_least(0)


def integer(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None


def port(text: str) -> int:
    value = integer(text)
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number (0 to 65535)")
    return value


def network(text: str) -> ipaddress.IPv4Network | ipaddress.IPv6Network:
    try:
        return parse_network(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def settings_from(args: argparse.Namespace) -> Settings:
    settings = Settings(
        client_id=args.client_id,
        client_secret=args.client_secret,
        public_key=args.public_key,
        private_key=args.private_key,
        token_ttl=args.token_ttl,
        rate_limit=args.rate_limit,
        rate_limits=args.rate_limits,
        versions=args.versions,
        token_rate_limit=args.token_rate_limit,
        access_list=tuple(args.access_list),
        seed=args.seed,
        operation_seconds=args.operation_seconds,
        control=args.control,
        latency_ms=args.latency,
        unavailable=args.unavailable,
        retry_after=args.retry_after,
        token_errors=tuple(args.token_error),
    )
    return SCENARIOS[args.scenario].settings(settings) if args.scenario else settings


def limits_lines(settings: Settings, url: str) -> list[str]:
    """The banner's lines on tokens, limits, the access list and the seed."""
    access = ", ".join(str(n) for n in settings.access_list) or "every address"
    rest = f"{settings.token_rate_limit} a minute at the token endpoints; access list: {access}; seed {settings.seed}."
    if settings.rate_limits == "minute":
        return [f"Tokens live {settings.token_ttl} s; {settings.rate_limit} requests a minute per project; {rest}"]
    return [
        f"Tokens live {settings.token_ttl} s; {rest}",
        f"Token buckets (GET {url}{API_ROOT}/rateLimits shows what is left):",
        *(
            f"  {s.name.lower():<18} {s.capacity}, refilled {s.refill_rate} every {s.refill_seconds} s, "
            f"per {s.scope.lower()}"
            for s in ENDPOINT_SETS
        ),
    ]


def accept_first() -> str:
    """The Accept that names the version every resource serves."""
    from explorer.sandbox.documents import VENDOR
    from explorer.sandbox.versions import FIRST

    return f"Accept: application/vnd.{VENDOR}.{FIRST.date}+json"


def versions_line(settings: Settings) -> str:
    from explorer.sandbox.versions import FIRST

    example = accept_first()
    if settings.versions == "strict":
        return f"Versions: strict: a request under the API root must name one ({example}) or it is 406."
    return f"Versions: lenient: plain JSON gets {FIRST.date}; a request may name one ({example})."


def operations_line(settings: Settings) -> str:
    """What a class sees of a cluster's create, change or delete, and how long it lasts."""
    seconds = settings.operation_seconds
    lasting = f"for {seconds} s" if seconds else "until the next request"
    return f"Clusters: CREATING, UPDATING or DELETING {lasting} (--operation-seconds), then IDLE or gone."


def faults_lines(settings: Settings) -> list[str]:
    """The faults the sandbox starts with, a line each: what a drill's trainer set, said where they see it.

    Every request under /api passes them, the token endpoints' too: an outage or a slow network takes
    the whole service. None without any.
    """
    lines = []
    if settings.latency_ms:
        lines.append(
            f"Latency: every request under /api waits {settings.latency_ms} ms before its answer, token "
            "requests too (--latency)."
        )
    if settings.unavailable:
        lines.append(
            f"Unavailable: the first {settings.unavailable} requests under /api, token requests too, answer 503 "
            f"with Retry-After: {settings.retry_after} (--unavailable, --retry-after)."
        )
    errors = settings.token_errors
    if errors:
        next_ones = (
            f"the next {len(errors)} token requests answer" if len(errors) > 1 else "the next token request answers"
        )
        lines.append(f"Token errors: {next_ones} {', then '.join(errors)} (--token-error).")
    return lines


def banner(
    settings: Settings, url: str, ca: Path | None, host: str, local: str | None = None, scenario: str | None = None
) -> str:
    """What `explorer sandbox` prints at start. `url` is the address others use (on 0.0.0.0, the
    machine's address on the network); `local`, the loopback one the control endpoint answers on."""
    cacert = f"--cacert {ca} " if ca else ""
    lines = [
        f"Explorer sandbox {__version__}: a local administration API to explore, test and teach with.",
        "",
        f"  API root       {url}{API_ROOT}",
        f"  token          POST {url}/api/oauth/token",
        f"  revoke         POST {url}/api/oauth/revoke",
        f"  description    GET {url}{DESCRIPTION_PATH} (OpenAPI 3.1, no credentials needed)",
    ]
    if ca:
        lines.append(f"  CA bundle      {ca}")
        lines.append("                 (trust it: curl --cacert FILE, or SSL_CERT_FILE=FILE for Python clients)")
    lines += [
        "",
        "Service account (HTTP Basic at the token endpoints)",
        f"  client ID      {settings.client_id}",
        f"  client secret  {settings.client_secret}",
        "API key (HTTP Digest on every resource)",
        f"  public key     {settings.public_key}",
        f"  private key    {settings.private_key}",
        "",
        *limits_lines(settings, url),
        versions_line(settings),
        operations_line(settings),
        *faults_lines(settings),
        "Control endpoint: "
        + (f"{local or url}/_sandbox (loopback only)" if settings.control else "off (--control turns it on)"),
        "",
        "Try:",
        f"  curl {cacert}-u '{settings.client_id}:{settings.client_secret}' -d grant_type=client_credentials \\\n"
        f"       {url}/api/oauth/token",
        f"  curl {cacert}--digest -u '{settings.public_key}:{settings.private_key}' "
        # strict versions: the root, as every resource, is 406 to a request that names no version
        + (f"-H '{accept_first()}' \\\n       " if settings.versions == "strict" else "")
        + f"'{url}{API_ROOT}?pretty=true'",
        *open_lines(settings, local or url, ca, host, scenario),
    ]
    if ca and is_network(host):
        lines += ["", *students_lines(settings, url, ca, scenario)]
    if not ca and is_network(host):
        lines += [
            "",
            "Warning: plain HTTP on a network address. The explorer accepts http:// only on loopback;",
            "serve HTTPS (the default) to a classroom.",
        ]
    lines += ["", "Press Ctrl+C to stop.", ""]
    return "\n".join(lines)


def shipped_secret(secret: str, scenario: str | None) -> bool:
    """A secret the sandbox ships, public in its docs (its default, a drill's wrong one): one a
    banner may print. A secret given with --client-secret may be a real one, kept out of commands."""
    drill = SCENARIOS[scenario].client if scenario else {}
    return secret in (DEFAULTS.client_secret, drill.get("client_secret"))


def open_lines(settings: Settings, local: str, ca: Path | None, host: str, scenario: str | None) -> list[str]:
    """The command that opens the explorer on this sandbox, from this machine: the secret in the
    environment variable the explorer reads (it takes none on its command line), printed only when
    it is the sandbox's own public one. None for plain HTTP to a network address, which the explorer
    refuses (the banner warns of it)."""
    if not ca and is_network(host):
        return []
    drill = SCENARIOS[scenario].client if scenario else {}
    secret = str(drill.get("client_secret", settings.client_secret))
    flags = f"--client-id {shlex.quote(settings.client_id)}" + (f" --ca-bundle {shlex.quote(str(ca))}" if ca else "")
    command = f"explorer --base-url {local}{API_ROOT} \\\n       {flags}"
    if shipped_secret(secret, scenario):
        return ["", "Open the explorer on it:", f"  EXPLORER_CLIENT_SECRET={shlex.quote(secret)} {command}"]
    return ["", "Open the explorer on it, with the client secret above in EXPLORER_CLIENT_SECRET:", f"  {command}"]


def students_lines(settings: Settings, url: str, ca: Path, scenario: str | None) -> list[str]:
    """How a student on the network runs the explorer on this sandbox: a copy of the authority's
    certificate (it trusts nothing else), and a command to paste. The secret goes in the environment,
    since the explorer takes none on its command line; under the drill bad-credentials, the wrong one."""
    drill = SCENARIOS[scenario].client if scenario else {}
    secret = str(drill.get("client_secret", settings.client_secret))
    return [
        f"Students: give them a copy of {ca.name} (the CA bundle above: a certificate, no secret),",
        "then, where they saved it:",
        f"  EXPLORER_CLIENT_SECRET={shlex.quote(secret)} explorer --ca-bundle {ca.name} \\",
        f"       --base-url {url}{API_ROOT} --client-id {shlex.quote(settings.client_id)}",
    ]


def run(args: argparse.Namespace) -> int:
    import uvicorn
    from platformdirs import user_data_path

    from explorer.sandbox import server, tls
    from explorer.sandbox.app import create_app

    try:
        settings = settings_from(args)
    except ValueError as error:
        print(f"explorer sandbox: {error}", file=sys.stderr)
        return 2
    use_tls = not args.http
    chosen_port = args.port if args.port is not None else (8443 if use_tls else 8080)
    try:
        sock = server.bind(args.host, chosen_port)
    except OSError as error:
        print(
            f"explorer sandbox: {server.cannot_listen(error, args.host, chosen_port, '0 picks a free one')}",
            file=sys.stderr,
        )
        return 1
    files = None
    if use_tls:
        try:
            files = tls.server_files(user_data_path("explorer"), tls.names_for(args.host))
        except OSError as error:
            sock.close()
            print(f"explorer sandbox: cannot write the certificate authority: {error}", file=sys.stderr)
            return 1
    local = server.url_of(args.host, sock.getsockname()[1], use_tls)
    url = server.url_of(lan_address(args.host), sock.getsockname()[1], use_tls)
    # Ctrl+C from the banner on, even before uvicorn listens for it (it stops, then raises it again), is
    # the way to stop: a line says so, and the status is 0, as for `explorer serve`.
    with contextlib.suppress(KeyboardInterrupt):
        print(banner(settings, url, files.ca if files else None, args.host, local, args.scenario), flush=True)
        if args.scenario:
            drill = SCENARIOS[args.scenario]
            client = " (the server is as usual: the drill is in what the explorer is given)" if not drill.server else ""
            print(f"Scenario {drill.name}: {drill.lesson}{client}\n", flush=True)
        # Quiet: warnings and errors only, not uvicorn's INFO lines (its start and stop, a line a request).
        uvicorn.Server(server.config(create_app(settings), files, quiet=True)).run(sockets=[sock])
    print("Sandbox stopped.", flush=True)
    return 0
