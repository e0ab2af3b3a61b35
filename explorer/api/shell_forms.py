"""A request as a command to paste into a shell: curl, or explorer. What the screen copies (`Y`, `C`,
the editor's ctrl+o and ctrl+g) and `--dry-run` prints.

Both say the request as it went: every header that was sent, credentials as shell variables
($TOKEN, or $PUBLIC_KEY:$PRIVATE_KEY for Digest), never their values. Where credentials went is
read from the request itself (its `Authorization: Bearer ***` or `Digest ***`), so a request to
another origin, which carried none, is copied without any.

    outgoing = sent(resource)          # the GET that made what is in view
    as_curl(outgoing, session.credentials.ca_bundle)  # curl --cacert CA -H "Authorization: Bearer $TOKEN" … URL
    as_command(outgoing, base_url, session.reached_by)   # explorer get /groups --demo -H 'Accept: …'
    secret_variable(session.reached_by)  # EXPLORER_CLIENT_SECRET: where that command reads the secret
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence

from explorer.api.headers import REFUSED
from explorer.api.resource import Resource
from explorer.api.writes import Outgoing

# Left to curl: the host and framing, which it works out itself; the encodings httpx accepts, which
# curl would print compressed; and credentials, said as variables instead.
SKIPPED_IN_CURL = {"host", "accept-encoding", "connection", "content-length", "authorization", "cookie"}
# Left to explorer: what it refuses from -H (credentials, framing), what it always sends, and the
# Content-Type its --data sets.
SKIPPED_IN_COMMAND = {*REFUSED, "user-agent", "accept-encoding", "content-type"}


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
    $PUBLIC_KEY:$PRIVATE_KEY (Digest); never a credential's value. `ca_bundle`, the authority the
    session trusts (a sandbox's own), goes as --cacert: without it curl refuses the certificate."""
    parts = ["curl"] if outgoing.method == "GET" else ["curl", "-X", outgoing.method]
    if ca_bundle:
        parts += ["--cacert", shlex.quote(ca_bundle)]
    parts += credentials_in_curl(outgoing)
    for name, value in outgoing.headers:
        if name.lower() not in SKIPPED_IN_CURL:
            parts += ["-H", shlex.quote(f"{name.title()}: {value}")]
    if outgoing.body:
        parts += ["--data-raw", shlex.quote(outgoing.body_text)]
    parts.append(shlex.quote(outgoing.url))
    return " ".join(parts)


def as_command(outgoing: Outgoing, base_url: str, reached_by: Sequence[str] = ()) -> str:
    """The request as an `explorer` command (`explorer get /groups --demo -H 'Accept: …'`, `explorer
    patch /groups/1 --profile lab --data '{…}' --writes`): the path under the base URL when it is
    under it, the flags that reach the same service from a shell (`reached_by`: Session.reached_by),
    the headers explorer would not send by itself, and --writes, which a write needs to be sent."""
    target, base = outgoing.url, base_url.rstrip("/")
    if target == base or target.startswith(base + "/"):  # the API root itself is `/`
        target = target[len(base) :] or "/"
    parts = ["explorer", outgoing.method.lower(), shlex.quote(target), *map(shlex.quote, reached_by)]
    for name, value in outgoing.headers:
        if name.lower() not in SKIPPED_IN_COMMAND:
            parts += ["-H", shlex.quote(f"{name.title()}: {value}")]
    if outgoing.body:
        parts += ["--data", shlex.quote(outgoing.body_text)]
    return " ".join(parts if outgoing.method == "GET" else [*parts, "--writes"])


def secret_variable(reached_by: Sequence[str]) -> str | None:
    """The environment variable a command reached by these flags reads its secret from: a service
    account's (--client-id) or an API key's (--public-key); None when a profile or the demo says it."""
    if "--client-id" in reached_by:
        return "EXPLORER_CLIENT_SECRET"
    if "--public-key" in reached_by:
        return "EXPLORER_PRIVATE_KEY"
    return None


def reads_secret(variable: str | None) -> str:
    """The line a notice adds after a copied command that reads its secret from `variable`; "" if none."""
    return f"\nIt reads the secret from {variable}." if variable else ""
