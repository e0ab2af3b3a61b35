"""A write goes at most once per consent: the ledger every write passes through on its way out.

A consent is one call of `Session.send_write`: the preview's yes on the screen, the yes (or its flag) of a
command, a script's call. `Ledger.consent` gives it a ticket, which the write's request carries;
the session's request hook shows every request to the ledger as it goes out (`Ledger.sending`). A
request with a write method goes only with a ticket that has not gone yet: a second sending of the
same write, by whatever part of the client (an auth flow answering a challenge or renewing a token,
a retry), is refused before it leaves, and so is a write that came through no consent. The
credentials' own requests (the token endpoint, revoke) are marked as theirs (`CREDENTIALS_REQUEST`) and are not
writes.

The auth flows never ask for a second sending (auth.py): a token near its end is renewed *before*
a write; a write refused for its token comes back refused, the token renewed after it and the write
not sent again (`token_refused`); a Digest challenge is got by a request without a body.

What may have happened is said here too, in one wording for the library, the commands and the
screen: a write that went and whose answer did not come may have been done (`may_have_gone`); a 3xx
to a write is not followed, and nothing is sent where it points (`redirected`).
"""

from __future__ import annotations

from dataclasses import dataclass

import httpx

from explorer.api.errors import ApiError
from explorer.api.resource import Resource
from explorer.api.unsafe_characters import visible
from explorer.api.writes import is_write_method

CONSENT = "explorer.consent"  # a request's extension: the Ticket of the write it is
CREDENTIALS_REQUEST = "explorer.credentials"  # a request's extension: one of the credentials' own (token, revoke)
TOKEN_REFUSED = "explorer.token_refused"  # a write's extension: its 401 was about the token it carried

# Failures that leave before anything of the request went out: no connection, no TLS, no room in the pool.
BEFORE_SENDING = (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout, httpx.UnsupportedProtocol)


@dataclass
class Ticket:
    """One consent to one write: where it goes, and whether it went (`sent`)."""

    method: str
    url: str
    sent: bool = False


class Ledger:
    """Every write a session was given consent for, and whether it went (see the module).

    The session keeps one (`Session.ledger`) and shows it every request as it goes out.
    """

    def __init__(self) -> None:
        self.writes_sent = 0  # writes that went out, one per consent at most

    def consent(self, request: httpx.Request) -> Ticket:
        """A ticket for this write, carried by the request: it may go once.

        Args:
            request: The write, built and not sent yet.

        Returns:
            The ticket, which says afterwards whether the write went.
        """
        ticket = Ticket(request.method, str(request.url))
        request.extensions[CONSENT] = ticket
        return ticket

    def sending(self, request: httpx.Request) -> None:
        """Let a request go, or refuse it: a write goes only with its ticket, and only once.

        Args:
            request: The request about to go out (any: a read, a token request, a write).

        Raises:
            ApiError: (kind "once") when it is a write with no ticket, or whose ticket went
                already: nothing of it is sent.
        """
        if not is_write(request):
            return
        ticket = request.extensions.get(CONSENT)
        if not isinstance(ticket, Ticket):
            raise ApiError(
                "once",
                f"Not sent: {request.method} is a write, and a write goes only after a yes (Session.send_write)",
                method=request.method,
                url=str(request.url),
                hint="Nothing was sent. Prepare the write (Session.prepare_write) and send it with Session.send_write.",
                written="no",
            )
        if ticket.sent:
            raise ApiError(
                "once",
                f"Not sent again: {request.method} {request.url} went once already, for one yes",
                method=request.method,
                url=str(request.url),
                hint="A write goes at most once for each yes: look whether it was done before sending it again.",
                written="no",
            )
        ticket.sent = True
        self.writes_sent += 1


def is_write(request: httpx.Request) -> bool:
    """Whether a request is a write (any method but GET, HEAD and OPTIONS) that is not one of the credentials' own."""
    return is_write_method(request.method) and not request.extensions.get(CREDENTIALS_REQUEST)


def may_have_gone(error: ApiError, failure: BaseException | None) -> ApiError:
    """A write's failure without an answer, said as what it may mean: done, or not.

    Args:
        error: The failure as the session said it for any request (timeout, connect, too-large).
        failure: What failed below HTTP (httpx's exception), None for the deadline or a body too large.

    Returns:
        `error` itself when nothing of the write went (no connection was made); otherwise an
            error saying the write may have been done and how to look, never blaming the scheme.
    """
    if isinstance(failure, BEFORE_SENDING):
        error.written = "no"
        return error
    method, url = error.method or "", error.url or ""
    if error.kind == "too-large":
        what = f"{method} {url} went, and its answer was too large to read"
    elif error.kind == "timeout":
        what = f"{method} {url} went, and no whole answer came in time"
    else:
        what = f"{method} {url} went, and the connection ended before its answer"
    return ApiError(
        error.kind,
        f"{what}: the write may have been done",
        method=error.method,
        url=error.url,
        hint=look_before(method, f"GET {url}"),
        sent=error.sent,
        setting=error.setting,
        written="maybe",
    )


def look_before(method: str, reading: str) -> str:
    """The hint of a write that may have been done: look first, and how.

    Args:
        method: The write's method.
        reading: How the caller reads what it wrote (`GET URL`, `explorer get /groups/1`).

    Returns:
        One or two sentences: look before sending it again, and what the reading shows.
    """
    if method == "POST":
        shows = f"{reading} lists what is there, with what it made if it was done"
    elif method == "DELETE":
        shows = f"{reading} answers 404 if it was done"
    else:
        shows = f"{reading} shows whether it holds what was sent"
    return f"Look before sending it again, or it may be done twice: {shows}."


def token_refused(error: ApiError, renewal: ApiError | None) -> None:
    """Say on a write's 401 that its token was refused, the write not sent again, and the token renewed.

    Args:
        error: The 401's error (the answer's `resource.error`), its hint replaced here.
        renewal: Why the token could not be renewed just now, or None when it was.
    """
    if renewal is None:
        renewed = "a new token has been got since"
    else:
        renewed = f"a new one could not be got just now ({visible(renewal.line())})"
    error.hint = f"The service refused the token this write carried, and {renewed}. The write was not sent again."
    error.setting = None  # not the credentials: they got a new token
    error.written = "no"


def redirected(resource: Resource) -> str | None:
    """What a 3xx answer to a write says, in one line; None for any other answer.

    Args:
        resource: A write's answer.

    Returns:
        The status, where it points (each character visible) and that nothing was sent there; None
            when the answer is not a 3xx to a write.
    """
    if not is_write_method(resource.method) or not 300 <= resource.status < 400:
        return None
    location = resource.headers.get("location")
    where = f"points this write to {visible(location)}" if location else "points this write elsewhere, naming no place"
    done = (
        "and says it did not take it here"
        if resource.status in (307, 308)
        else "and whether it took it here, only reading the resource tells"
    )
    return (
        f"{resource.status} {resource.reason}: the service {where}, {done}. "
        "The redirect was not followed: nothing was sent there."
    )
