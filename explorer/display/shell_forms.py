"""A request as a command to paste into a shell: curl, or explorer. What the screen copies (`Y`, `C`,
the editor's ctrl+o and ctrl+g) and `--dry-run` prints.

Both say the request as it went: every header that was sent, credentials as shell variables
($TOKEN, or $PUBLIC_KEY:$PRIVATE_KEY for Digest), never their values. Where credentials went is
read from the request itself (its `Authorization: Bearer ***` or `Digest ***`), so a request to
another origin, which carried none, is copied without any. A body with a secret in it (a database
user's `password`: any field the HAR redaction takes out) is left out too, since a shell's history
keeps every command it runs: the command reads its body from stdin (`@-`), and `left_out` says so.
So is the value of a header or query parameter named like a secret (`X-Api-Key`, `?access_token=`,
`?pass%77ord=`: `redaction.is_secret`): a shell variable named after it stands in its place
(`"X-Api-Key: $X_API_KEY"`, `"…?access_token=$ACCESS_TOKEN"`), and `in_variables` names them.

    outgoing = sent(resource)          # the GET that made what is in view
    as_curl(outgoing, session.credentials.ca_bundle)  # curl --cacert CA -H "Authorization: Bearer $TOKEN" … URL
    as_command(outgoing, base_url, reached_by(session))   # explorer get /groups --demo -H 'Accept: …'
    secret_variable(reached_by(session))  # EXPLORER_CLIENT_SECRET: where that command reads the secret
    credentials_note(outgoing, reached_by(session))  # the notice's line: TOKEN=$(explorer token --profile lab)
    left_out(secrets_in(outgoing))       # the notice's line when the body was left out for its secret
    in_variables(withheld(outgoing))     # the notice's line naming the variables said for secret values
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence
from dataclasses import dataclass, replace
from urllib.parse import unquote_plus

from explorer.api.body_reading import parsed
from explorer.api.config import Credentials
from explorer.api.headers import REFUSED
from explorer.api.redaction import SECRET_HEADERS, Redaction, is_secret
from explorer.api.resource import Resource
from explorer.api.session import Session
from explorer.api.unsafe_characters import visible
from explorer.api.values import TooDeep
from explorer.api.writes import Outgoing

# Left to curl: the host and framing, which it works out itself; the encodings httpx accepts, which
# curl would print compressed; and credentials, said as variables instead.
SKIPPED_IN_CURL = {"host", "accept-encoding", "connection", "content-length", "authorization", "cookie"}
# Left to explorer: what it refuses from -H (credentials, framing), what it always sends, and the
# Content-Type its --data sets.
SKIPPED_IN_COMMAND = {*REFUSED, "user-agent", "accept-encoding", "content-type"}
STDIN = "@-"  # a body read from stdin, by curl (--data-binary) and explorer (--data) alike
WHOLE_BODY = "/"  # where a secret is when the body is too deep to look through: all of it
# The credentials, said as $TOKEN or $PUBLIC_KEY:$PRIVATE_KEY (and never copied as headers): a
# secret-named header or parameter takes another name than these, and than the environment's.
CREDENTIAL_HEADERS = {"authorization", "cookie"}
TAKEN_NAMES = {"TOKEN", "PUBLIC_KEY", "PRIVATE_KEY", "EXPLORER_CLIENT_SECRET", "EXPLORER_PRIVATE_KEY"}
NOT_IN_A_NAME = re.compile(r"[^A-Za-z0-9]+")
# What a double-quoted word may hold as it is: no `"`, `\`, `$`, backquote, nor `!` (history, in bash).
PLAIN_IN_DOUBLE_QUOTES = re.compile(r'[^"\\$`!]*')
NAME_GOES_ON = re.compile(r"[A-Za-z0-9_]")  # a character that would be read as part of a variable's name
MASKED = "***"  # a secret's value where the request is shown (as credentials are: Bearer ***)


@dataclass(frozen=True)
class Variable:
    """A shell variable's name, standing where a secret's value would be in a copied command."""

    name: str


@dataclass(frozen=True)
class Withheld:
    """A header or query parameter named like a secret: its value is said as a shell variable."""

    kind: str  # "header" or "query parameter"
    name: str  # as read: a query parameter's percent-decoded
    index: int  # its place among the request's headers, or its query's pairs
    variable: str


def sent(resource: Resource) -> Outgoing:
    """The request that made `resource`, as it went: method, URL, every header (credentials as ***).
    Its body, if it had one, is not kept with the answer."""
    return Outgoing(resource.method, resource.url, tuple(resource.request_headers))


def credentials_in_curl(outgoing: Outgoing) -> list[str]:
    """The credentials the request carried, as curl takes them from shell variables; none if it carried none."""
    scheme = (outgoing.header("authorization") or "").partition(" ")[0].lower()
    if scheme == "digest":
        return ["--digest", "-u", '"$PUBLIC_KEY:$PRIVATE_KEY"']
    if scheme == "bearer":
        return ["-H", '"Authorization: Bearer $TOKEN"']
    return []


def as_curl(outgoing: Outgoing, ca_bundle: str | None = None) -> str:
    """The request as a curl command with every header it sends: the token as $TOKEN, an API key as
    $PUBLIC_KEY:$PRIVATE_KEY (Digest); never a credential's value, nor a body that holds a secret
    (`--data-binary @-` instead: secrets_in). `ca_bundle`, the authority the session trusts (a
    sandbox's own), goes as --cacert: without it curl refuses the certificate."""
    parts = ["curl"] if outgoing.method == "GET" else ["curl", "-X", outgoing.method]
    if ca_bundle:
        parts += ["--cacert", shlex.quote(ca_bundle)]
    parts += credentials_in_curl(outgoing)
    held = withheld(outgoing)
    parts += header_words(outgoing, held, SKIPPED_IN_CURL)
    if outgoing.body:
        parts += ["--data-binary", STDIN] if secrets_in(outgoing) else ["--data-raw", shlex.quote(outgoing.body_text)]
    parts.append(url_word(outgoing.url, held))
    return " ".join(parts)


def as_command(outgoing: Outgoing, base_url: str, reached_by: Sequence[str] = ()) -> str:
    """The request as an `explorer` command (`explorer get /groups --demo -H 'Accept: …'`, `explorer
    patch /groups/1 --profile lab --data '{…}' --writes`): the path under the base URL when it is
    under it, the flags that reach the same service from a shell (`reached_by(session)`),
    the headers explorer would not send by itself, the body (`--data @-` when it holds a secret:
    secrets_in), and --writes, which a write needs to be sent."""
    target, base = outgoing.url, base_url.rstrip("/")
    if target == base or target.startswith(base + "/"):  # the API root itself is `/`
        target = target[len(base) :] or "/"
    held = withheld(outgoing)
    parts = ["explorer", outgoing.method.lower(), url_word(target, held), *map(shlex.quote, reached_by)]
    parts += header_words(outgoing, held, SKIPPED_IN_COMMAND)
    if outgoing.body:
        parts += ["--data", STDIN if secrets_in(outgoing) else shlex.quote(outgoing.body_text)]
    return " ".join(parts if outgoing.method == "GET" else [*parts, "--writes"])


def header_words(outgoing: Outgoing, held: Sequence[Withheld], skipped: set[str]) -> list[str]:
    """The `-H` words for the headers not `skipped`: a secret-named one's value as its variable."""
    variables = {field.index: field.variable for field in held if field.kind == "header"}
    words = []
    for index, (name, value) in enumerate(outgoing.headers):
        if name.lower() in skipped:
            continue
        variable = variables.get(index)
        pieces: list[str | Variable] = [f"{name.title()}: ", Variable(variable) if variable else value]
        words += ["-H", shell_word(pieces)]
    return words


def url_word(url: str, held: Sequence[Withheld]) -> str:
    """A URL (or a path with its query) as one shell word, a secret-named parameter's value as its variable."""
    variables = {field.index: field.variable for field in held if field.kind == "query parameter"}
    start, pairs, end = query_of(url)
    pieces: list[str | Variable] = [start]
    for index, pair in enumerate(pairs):
        joined = "&" if index else ""
        variable = variables.get(index)
        pieces += [f"{joined}{pair.partition('=')[0]}=", Variable(variable)] if variable else [joined + pair]
    return shell_word([*pieces, end])


def query_of(url: str) -> tuple[str, list[str], str]:
    """A URL cut where its query is: what comes before it (with the `?`), its pairs, and its fragment."""
    head, hash_mark, fragment = url.partition("#")
    start, question, query = head.partition("?")
    if not question:
        return url, [], ""
    return start + question, query.split("&"), hash_mark + fragment


def shell_word(pieces: Sequence[str | Variable]) -> str:
    """Text and variables as one shell word: `'X-Trace: 1'`, `"X-Api-Key: $X_API_KEY"`, or, when the
    text holds what a double-quoted word would expand (`$`, backquote, `!`…), `'…'"$NAME"'…'`."""
    merged: list[str | Variable] = []
    for piece in pieces:
        if isinstance(piece, str) and merged and isinstance(merged[-1], str):
            merged[-1] += piece
        elif piece != "":
            merged.append(piece)
    if not any(isinstance(piece, Variable) for piece in merged):
        return shlex.quote("".join(piece for piece in merged if isinstance(piece, str)))
    if all(PLAIN_IN_DOUBLE_QUOTES.fullmatch(piece) for piece in merged if isinstance(piece, str)):
        parts = []
        for index, piece in enumerate(merged):
            after = merged[index + 1] if index + 1 < len(merged) else ""
            goes_on = isinstance(after, str) and NAME_GOES_ON.match(after) is not None
            parts.append(piece if isinstance(piece, str) else f"${{{piece.name}}}" if goes_on else f"${piece.name}")
        return '"' + "".join(parts) + '"'
    return "".join(shlex.quote(piece) if isinstance(piece, str) else f'"${piece.name}"' for piece in merged)


def secret_header(name: str) -> bool:
    """Whether a header (not a credential, said as $TOKEN) is named like a secret: `X-Api-Key`."""
    lower = name.lower()
    return lower not in CREDENTIAL_HEADERS and (lower in SECRET_HEADERS or is_secret(name))


def withheld(outgoing: Outgoing) -> list[Withheld]:
    """The headers and query parameters named like a secret (`redaction.is_secret`, a parameter's name
    percent-decoded first), each with the shell variable a copied command says in its value's place.

    Args:
        outgoing: the request to be copied.

    Returns:
        Them, headers first, each in its order; each variable named after its field (`X-Api-Key`:
        X_API_KEY; a second `password`: PASSWORD_2), none named as the credentials' are ($TOKEN).
    """
    taken = set(TAKEN_NAMES)
    found = [
        Withheld("header", name, index, variable_for(name, taken))
        for index, (name, _) in enumerate(outgoing.headers)
        if secret_header(name)
    ]
    for index, pair in enumerate(query_of(outgoing.url)[1]):
        name, equals, _ = pair.partition("=")
        plain = unquote_plus(name)
        if equals and is_secret(plain):
            found.append(Withheld("query parameter", plain, index, variable_for(plain, taken)))
    return found


def variable_for(name: str, taken: set[str]) -> str:
    """A shell variable's name for a field (`X-Api-Key`: X_API_KEY), none of those `taken` (then added)."""
    base = NOT_IN_A_NAME.sub("_", name).strip("_").upper() or "SECRET"
    base = f"SECRET_{base}" if base[0].isdigit() else base
    variable, count = base, 1
    while variable in taken:
        count += 1
        variable = f"{base}_{count}"
    taken.add(variable)
    return variable


def masked(outgoing: Outgoing) -> Outgoing:
    """The request to be printed: the values `withheld` names as *** (as credentials are shown), and
    a body's secret fields (secrets_in) as a HAR file has them."""
    held = withheld(outgoing)
    headers = {field.index for field in held if field.kind == "header"}
    parameters = {field.index for field in held if field.kind == "query parameter"}
    start, pairs, end = query_of(outgoing.url)
    query = "&".join(
        f"{pair.partition('=')[0]}={MASKED}" if index in parameters else pair for index, pair in enumerate(pairs)
    )
    body = outgoing.body
    if secrets_in(outgoing):
        body = Redaction().body(outgoing.body_text, "", "request").encode("utf-8")
    return replace(
        outgoing,
        url=start + query + end,
        body=body,
        headers=tuple(
            (name, MASKED if index in headers else value) for index, (name, value) in enumerate(outgoing.headers)
        ),
    )


def in_variables(held: Sequence[Withheld]) -> str:
    """The line a notice adds after a copied command that says secret values as variables; "" if none.

    Args:
        held: the fields said as variables (withheld).

    Returns:
        The line, naming each field and its variable, or "" when there are none.
    """
    if not held:
        return ""
    each = ", ".join(f"{field.kind} {visible(field.name)} as ${field.variable}" for field in held)
    return (
        f"\nIt does not carry a secret's value (a shell's history keeps what it runs): it says {each}. "
        "Set those variables before you run it."
    )


def reached_by(session: Session) -> tuple[str, ...]:
    """The flags that reach a session's service again from a shell (the screen's C copies them into
    `explorer get`).

    Args:
        session: The session, as its credentials and its backend say it.

    Returns:
        `--demo` (with its `--scenario`) or `--replay FILE` for what answers in a service's place; else
        `--profile NAME` for a profile's credentials; else the flags of `reached_without_profile`.
    """
    backend = session.backend
    if backend is not None and backend.kind == "demo":
        return ("--demo", "--scenario", backend.name) if backend.name else ("--demo",)
    if backend is not None and backend.kind == "replay":
        return ("--replay", backend.name or "")
    credentials = session.credentials
    return ("--profile", credentials.profile) if credentials.profile else reached_without_profile(credentials)


def reached_without_profile(credentials: Credentials) -> tuple[str, ...]:
    """The flags that reach a service no profile names.

    Args:
        credentials: The session's credentials.

    Returns:
        Its base URL, the client ID or public key (never the secret, which the command reads from the
        environment: `secret_variable`), and the authority it trusts, if its own.
    """
    who: tuple[str, ...] = ()
    if credentials.kind == "service account" and credentials.client_id:
        who = ("--client-id", credentials.client_id)
    elif credentials.kind == "API key" and credentials.public_key:
        who = ("--public-key", credentials.public_key)
    bundle = ("--ca-bundle", credentials.ca_bundle) if credentials.ca_bundle else ()
    return ("--base-url", credentials.base_url, *who, *bundle)


def secret_variable(reached_by: Sequence[str]) -> str | None:
    """The environment variable a command reached by these flags reads its secret from: a service
    account's (--client-id) or an API key's (--public-key); None when a profile or the demo says it."""
    if "--client-id" in reached_by:
        return "EXPLORER_CLIENT_SECRET"
    if "--public-key" in reached_by:
        return "EXPLORER_PRIVATE_KEY"
    return None


def credentials_note(outgoing: Outgoing, reached_by: Sequence[str]) -> str:
    """The line a notice adds after a copied curl: how to set the variables it says the credentials
    as. `TOKEN=$(explorer token …)` (explorer/commands/token.py), with the flags that reach the same
    service (`reached_by(session)`: the profile, or the base URL and client ID); for Digest, where the
    keys come from. "" when it carries no credentials.

    Args:
        outgoing: the request copied.
        reached_by: the flags that reach its service from a shell (`--profile lab`; `--demo`, `--replay FILE`).

    Returns:
        The line, or "".
    """
    scheme = (outgoing.header("authorization") or "").partition(" ")[0].lower()
    if scheme == "digest":
        return (
            "\nIt says the API key as $PUBLIC_KEY:$PRIVATE_KEY: set both first, the private key from the "
            "environment (PRIVATE_KEY=$EXPLORER_PRIVATE_KEY), never on a command line."
        )
    if scheme != "bearer":
        return ""
    if reached_by[:1] == ("--demo",):
        return (
            "\nIt says the token as $TOKEN, but the demo's sandbox runs inside the explorer, where curl cannot "
            "reach it: explorer sandbox serves one curl can."
        )
    if reached_by[:1] == ("--replay",):
        return (
            "\nIt says the token as $TOKEN: a replay has none; with the recorded service's credentials, "
            "TOKEN=$(explorer token) sets it."
        )
    flags = "".join(f" {shlex.quote(word)}" for word in reached_by)
    reads = secret_variable(reached_by)
    secret = f", which reads the secret from {reads}" if reads else ""
    return f"\nIt says the token as $TOKEN: set it first, TOKEN=$(explorer token{flags}){secret}."


def reads_secret(variable: str | None) -> str:
    """The line a notice adds after a copied command that reads its secret from `variable`; "" if none."""
    return f"\nIt reads the secret from {variable}." if variable else ""


def secrets_in(outgoing: Outgoing) -> list[str]:
    """Where the body holds a secret, as the HAR redaction finds it (`/password`, `/ldap/bindPassword`,
    its field names and their list, `redaction.is_secret`): a copied command leaves such a body out.

    Args:
        outgoing: the request to be copied.

    Returns:
        The secret fields' places, `/` for a body too deep to look through (as a HAR file takes all
        of it out); none for a body without one, or that is not JSON (a write's body always is).
    """
    if not outgoing.body:
        return []
    try:
        document, _ = parsed(outgoing.body)  # every field, a name given twice too (body_reading)
    except TooDeep:
        return [WHOLE_BODY]
    except ValueError:
        return []
    redaction = Redaction()
    redaction.json(document, "")
    return redaction.places


def left_out(places: Sequence[str]) -> str:
    """The line a notice adds after a copied command whose body was left out for its secrets; "" if none.

    Args:
        places: where the body holds a secret (secrets_in).

    Returns:
        The line, naming the fields (each once), or "" when there are none.
    """
    if not places:
        return ""
    names = list(dict.fromkeys(place.rstrip("/").rpartition("/")[2] for place in places))
    held = ", ".join(visible(name) for name in names if name) or "a field named like a secret"
    return (
        f"\nIts body holds a secret ({held}), so the command does not carry it (a shell's history keeps "
        f"what it runs): it reads the body from stdin ({STDIN}). Paste the body there, then ctrl+d."
    )
