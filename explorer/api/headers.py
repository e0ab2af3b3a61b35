"""Headers a user adds to requests (`explorer get -H 'Name: value'`), and the ones they may not set.

The explorer sets the credentials itself, for its own origin only, and httpx frames the request;
a header that would override either is refused rather than sent where it does harm. So are the
headers that ask a service to take a request as another method (`X-HTTP-Method-Override: DELETE` on
a GET): a read stays a read, and a write is the method its preview shows, so that what was consented
to is what the service does.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from urllib.parse import quote

# Headers some services (and frameworks in front of them) honour as the request's real method.
METHOD_OVERRIDES = ("x-http-method-override", "x-http-method", "x-method-override")
OVERRIDE_WHY = (
    "it asks the service to take the request as another method (a GET as a DELETE): "
    "a read stays a read, and a write goes as the method its preview shows"
)
REFUSED = {
    "authorization": "the explorer sends the credentials itself, to its own origin only",
    "cookie": "the API takes no cookies, and a cookie is a credential",
    "host": "the host is the URL's",
    "content-length": "httpx frames the request",
    "transfer-encoding": "httpx frames the request",
    "connection": "httpx manages the connection",
    **dict.fromkeys(METHOD_OVERRIDES, OVERRIDE_WHY),
}
NAME = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")  # a token, as RFC 9110 names a field


def header_pair(text: str) -> tuple[str, str]:
    """`Accept: application/vnd.atlas.2024-08-05+json` as (name, value); ValueError saying why not."""
    name, colon, value = text.partition(":")
    name, value = name.strip(), value.strip()
    if not colon or not NAME.fullmatch(name):
        raise ValueError(f"{text!r} is not NAME: VALUE")
    if any(ord(c) < 32 and c != "\t" or ord(c) == 127 for c in value):
        raise ValueError(f"the value of {name} has a control character")
    foreign = next((c for c in value if not c.isascii()), None)
    if foreign is not None and "\ud800" <= foreign <= "\udfff":  # a byte of the command line that was not UTF-8
        raise ValueError(f"the value of {name} is not UTF-8 text: header values carry ASCII only")
    if foreign is not None:  # httpx would fail encoding it: HTTP header values are ASCII
        raise ValueError(
            f"the value of {name} has {foreign!r}, which is not ASCII: header values carry ASCII only; "
            f"send it percent-encoded ({foreign!r} is {quote(foreign)}) if the service decodes that"
        )
    # Read as a server may read it: CGI, WSGI and Rack make `_` and `-` one (HTTP_X_HTTP_METHOD_OVERRIDE).
    why = REFUSED.get(name.lower().replace("_", "-"))
    if why:
        raise ValueError(f"{name} cannot be set: {why}")
    return name, value


def checked_headers(headers: Mapping[str, str]) -> dict[str, str]:
    """Headers given to a session (the library's, the command line's), each checked as `header_pair` checks it.

    Args:
        headers: Names and values, as `Session(headers=…)` takes them.

    Returns:
        The same headers, as a dict.

    Raises:
        ValueError: Saying why one of them cannot be sent (`header_pair`).
    """
    return dict(header_pair(f"{name}: {value}") for name, value in headers.items())
