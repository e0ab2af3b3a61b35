"""A write goes at most once per consent, and says what may have happened (issue 36: 3, 4, 5, 12).

What arrived is what counts. For every write path (the library's `Session.send_write`; `explorer post`,
`put`, `patch` and `delete`; the screen's preview and its undo) and every way a server answers
(2xx, 3xx, a 401 about the token with and without `invalid_token`, a Digest challenge, 429, 503,
a connection dropped once the body arrived, no answer at all), the recording server receives the
write at most once for one yes, and never from a read-only session. What each path says after is
held too: refused and not sent again (the token renewed), may have been done (and how to look),
not followed (the status and the Location).
"""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st
from textual.widgets import OptionList, TextArea

from explorer.api.config import Credentials
from explorer.api.config_file import token_cache_dir
from explorer.api.errors import ApiError
from explorer.api.once import CONSENT, Ledger, redirected
from explorer.api.options import Bounds, Clocks
from explorer.api.resource import Resource
from explorer.api.secret import Secret
from explorer.api.session import Session
from explorer.api.token_cache import TokenCache
from explorer.api.tokens import Token
from explorer.api.writes import Outgoing, WritePolicy
from tests.commands.conftest import in_process, script_environment
from tests.conftest import FakeClock
from tests.safety.recording_server import CHALLENGE, ROOT, Arrival, Behaviour, RecordingServer

BODY = b'{"name": "once"}'
PATHS = {"POST": "/groups", "PUT": "/groups/1", "PATCH": "/groups/1", "DELETE": "/groups/1"}
WRITES = tuple(PATHS)
CLIENT, SECRET = "client-id", "client-secret-value"
PUBLIC, PRIVATE = "public-key", "private-key-value"
HANG = 0.3  # seconds a write may go unanswered where the server never answers (`hang`): the file stays quick
DEADLINE = 10.0  # elsewhere: room for a loaded machine
ERROR = {"error": 401, "reason": "Unauthorized", "detail": "You are not authorized for this resource."}

# Each server behaviour of the matrix, by name; `LOCATION` stands for the other origin's address.
LOCATION = "{other}/api/service/v1.0/elsewhere"
ANSWERS: dict[str, Behaviour] = {
    "200": Behaviour(200, body={"id": "made"}),
    "201": Behaviour(201, body={"id": "made"}),
    "202": Behaviour(202, body={"id": "made"}),
    "204": Behaviour(204, body=b""),
    "307": Behaviour(307, {"Location": LOCATION}, b""),
    "308": Behaviour(308, {"Location": LOCATION}, b""),
    "401 invalid_token": Behaviour(401, body=ERROR, invalid_token=True),
    "401 expired token": Behaviour(401, body={**ERROR, "errorCode": "EXPIRED_ACCESS_TOKEN"}),
    "429": Behaviour(429, {"Retry-After": "7"}, {"error": 429, "errorCode": "RATE_LIMITED", "reason": "Too Many"}),
    "503": Behaviour(503, {"Retry-After": "7"}, {"error": 503, "errorCode": "SERVICE_UNAVAILABLE"}),
    "drop": Behaviour(action="drop"),
    "hang": Behaviour(action="hang"),
}
TOKEN_REFUSALS = ("401 invalid_token", "401 expired token")
EXIT_CODES = {"200": 0, "201": 0, "202": 0, "204": 0, "307": 3, "308": 3, "429": 4, "503": 5, "drop": 1, "hang": 1}
EXIT_CODES |= dict.fromkeys(TOKEN_REFUSALS, 4)


def behaviour(name: str, other: RecordingServer) -> Behaviour:
    """The named behaviour, its Location on the other origin."""
    scripted = ANSWERS[name]
    if "Location" in scripted.headers:
        return Behaviour(scripted.status, {"Location": LOCATION.format(other=other.origin)}, scripted.body)
    return scripted


def carrying(server: RecordingServer, method: str) -> list[Arrival]:
    """The arrivals of the write itself: its body (a DELETE has none: its method and path)."""
    arrived = server.arrivals_of(method, PATHS[method])
    return arrived if method == "DELETE" else [a for a in arrived if a.body == BODY]


def token_requests(server: RecordingServer) -> int:
    return len(server.arrivals_of("POST", "/api/oauth/token"))


def account(
    server: RecordingServer, *, writes: bool = True, clock: FakeClock | None = None, deadline: float = DEADLINE
) -> Session:
    """A service account's session on the recording server, writes on unless said."""
    credentials = Credentials(server.url, client_id=CLIENT, client_secret=Secret(SECRET))
    return Session(
        credentials,
        writes=WritePolicy(writes, "--writes" if writes else "the default"),
        bounds=Bounds(deadline=deadline),
        clocks=Clocks(wall=clock) if clock is not None else None,
    )


def api_key(server: RecordingServer, deadline: float = DEADLINE) -> Session:
    """An API key's session (Digest) on the recording server, writes on."""
    credentials = Credentials(server.url, public_key=PUBLIC, private_key=Secret(PRIVATE))
    return Session(credentials, writes=WritePolicy(True, "--writes"), bounds=Bounds(deadline=deadline))


def deadline_for(name: str) -> float:
    return HANG if name == "hang" else DEADLINE


async def write(session: Session, method: str) -> Resource | ApiError:
    """One consent: the write prepared and sent once; its answer, or the error that came instead."""
    body = b"" if method == "DELETE" else BODY
    try:
        return await session.send_write(await session.prepare_write(method, PATHS[method], body))
    except ApiError as error:
        return error


def said_after(name: str, outcome: Resource | ApiError, other: RecordingServer) -> None:
    """What the library says after each behaviour: the answer as it came, or what may have happened."""
    if name in ("drop", "hang"):
        assert isinstance(outcome, ApiError) and outcome.written == "maybe"
        assert outcome.summary.endswith("the write may have been done")
        assert "Look before sending it again" in (outcome.hint or "")
        assert "HTTPS" not in outcome.summary + (outcome.hint or "")  # the scheme is not blamed
        return
    assert isinstance(outcome, Resource) and outcome.status == ANSWERS[name].status
    if name in ("307", "308"):
        location = LOCATION.format(other=other.origin)
        assert redirected(outcome) == (
            f"{outcome.status} {outcome.reason}: the service points this write to {location}, and says it did "
            "not take it here. The redirect was not followed: nothing was sent there."
        )
        assert other.arrivals == []


# The library: Session.send_write -------------------------------------------------------------------------


@pytest.mark.parametrize("name", ANSWERS)
@pytest.mark.parametrize("method", WRITES)
async def test_a_service_accounts_write_arrives_once_whatever_the_answer(server, other, method, name):
    server.script(method, PATHS[method], behaviour(name, other))
    async with account(server, deadline=deadline_for(name)) as session:
        outcome = await write(session, method)
        assert len(carrying(server, method)) == 1
        said_after(name, outcome, other)
        if name in TOKEN_REFUSALS:  # refused, not sent again; the token renewed after it, for the next
            assert isinstance(outcome, Resource) and outcome.error is not None
            assert outcome.error.written == "no"
            assert outcome.error.hint == (
                "The service refused the token this write carried, and a new token has been got since. "
                "The write was not sent again."
            )
            assert token_requests(server) == 2
            assert session.token_state is not None and session.token_state.refreshes == 1


@pytest.mark.parametrize("name", [name for name in ANSWERS if name not in TOKEN_REFUSALS])
@pytest.mark.parametrize("method", WRITES)
async def test_an_api_keys_write_arrives_once_answering_a_challenge_got_without_its_body(
    digest_server, other, method, name
):
    digest_server.script(method, PATHS[method], behaviour(name, other))
    async with api_key(digest_server, deadline_for(name)) as session:
        outcome = await write(session, method)
    arrived = carrying(digest_server, method)
    assert len(arrived) == 1
    assert arrived[0].headers["authorization"].startswith("Digest ")  # the challenge was answered on it
    challenges = digest_server.arrivals_of("GET", PATHS[method])
    assert [(a.body, "authorization" in a.headers) for a in challenges] == [(b"", False)]
    said_after(name, outcome, other)


@pytest.mark.parametrize("method", WRITES)
async def test_a_digest_challenge_to_the_write_itself_is_not_answered_by_sending_it_again(digest_server, method):
    digest_server.script(method, PATHS[method], Behaviour(401, {"WWW-Authenticate": CHALLENGE}, ERROR))
    async with api_key(digest_server) as session:
        outcome = await write(session, method)
        assert isinstance(outcome, Resource) and outcome.status == 401
        assert len(carrying(digest_server, method)) == 1
        again = await write(session, method)  # a second yes: a second sending, answered
    assert isinstance(again, Resource) and again.status == (204 if method == "DELETE" else 200)
    assert len(carrying(digest_server, method)) == 2


async def test_a_write_whose_challenge_does_not_come_is_not_sent_without_credentials(server):
    async with api_key(server) as session:  # a service that answers a GET without credentials
        outcome = await write(session, "POST")
    assert isinstance(outcome, ApiError) and (outcome.kind, outcome.written) == ("digest", "no")
    assert outcome.summary == (
        f"Not sent: no Digest challenge came for the API key to answer (GET {server.url}/groups without "
        "credentials was answered 200)"
    )
    assert server.arrivals_of("POST") == []


async def test_a_token_that_cannot_be_renewed_after_a_refused_write_is_said_and_the_write_not_sent_again(server):
    token = {"access_token": "token-1", "token_type": "Bearer", "expires_in": 3600}
    server.script("POST", "/api/oauth/token", Behaviour(200, body=token), Behaviour(503, body={"error": 503}))
    server.script("PATCH", "/groups/1", Behaviour(401, body=ERROR, invalid_token=True))
    async with account(server) as session:
        outcome = await write(session, "PATCH")
    assert isinstance(outcome, Resource) and outcome.error is not None
    assert outcome.error.hint == (
        "The service refused the token this write carried, and a new one could not be got just now (503 Service "
        "Unavailable · JSON, but not an error document). The write was not sent again."
    )
    assert len(carrying(server, "PATCH")) == 1


async def test_a_plain_401_on_a_token_older_than_ten_seconds_is_not_sent_again(server, clock):
    async with account(server, clock=clock) as session:
        await session.fetch("/groups/1")  # a token, issued now
        clock.advance(20)
        server.script("PATCH", "/groups/1", Behaviour(401, body=ERROR))
        outcome = await write(session, "PATCH")
        assert len(carrying(server, "PATCH")) == 1
        assert isinstance(outcome, Resource) and outcome.error is not None and outcome.error.written == "no"
        assert token_requests(server) == 2  # renewed after it, without the write
        assert server.arrivals_of("PATCH")[0].headers["authorization"] == "Bearer token-1"
        again = await write(session, "PATCH")  # the person's second yes: with the new token
    assert isinstance(again, Resource) and again.status == 200
    assert [a.headers["authorization"] for a in carrying(server, "PATCH")] == ["Bearer token-1", "Bearer token-2"]


async def test_a_token_near_its_end_is_renewed_before_a_write_not_after_a_refusal(clock):
    with RecordingServer(token_lifetime=3600) as server:
        async with account(server, clock=clock) as session:
            await session.fetch("/groups/1")
            clock.advance(3600 - 200)  # 200 s left: enough for a read, not for a write
            await session.fetch("/groups/1")
            assert token_requests(server) == 1
            await write(session, "PATCH")
    assert token_requests(server) == 2
    assert [a.headers["authorization"] for a in carrying(server, "PATCH")] == ["Bearer token-2"]


@pytest.mark.parametrize("method", WRITES)
async def test_a_read_only_session_sends_no_write_and_no_token_request(server, method):
    async with account(server, writes=False) as session:
        outcome = await write(session, method)
    assert isinstance(outcome, ApiError) and outcome.kind == "read-only"
    assert server.arrivals_of(method, PATHS[method]) == []
    assert token_requests(server) == 0


@pytest.mark.parametrize("method", ["post", "Delete", "pAtCh"])
async def test_a_read_only_session_sends_no_write_whatever_the_case_of_its_method(server, method):
    """An Outgoing a script built with its method in lower case went past the read-only check (httpx sends
    "post" as POST). Now refused by `send`, and at the wire whatever built the request."""
    async with account(server, writes=False) as session:
        with pytest.raises(ApiError) as refused:
            await session.send_write(Outgoing(method, server.url + "/groups/1", (), BODY))
        with pytest.raises(ApiError) as at_the_wire:
            await session.client.request(method, server.url + "/groups/1", content=BODY)
    assert refused.value.kind == at_the_wire.value.kind == "read-only"
    assert [a for a in server.arrivals if a.path.startswith(ROOT)] == []  # the token's own requests aside


@pytest.mark.parametrize("method", ["PURGE", "merge", "LOCK"])
async def test_a_method_that_is_not_a_read_is_a_write(server, method):
    """A library caller's fetch(method="PURGE") went out from a read-only session, and could be retried: every
    method but GET, HEAD and OPTIONS is a write, refused read-only and sent once (for one fetch) when writes are on."""
    async with account(server, writes=False) as session:
        with pytest.raises(ApiError) as refused:
            await session.fetch("/groups/1", method=method)
    assert refused.value.kind == "read-only"
    server.script(method.upper(), "/groups/1", Behaviour(401, invalid_token=True), Behaviour(200))
    async with account(server) as session:
        answer = await session.fetch("/groups/1", method=method)
    assert answer.status == 401
    assert len(server.arrivals_of(method, "/groups/1")) == 1


async def test_a_write_that_did_not_come_through_a_consent_is_refused_before_it_leaves(server):
    async with account(server) as session:
        with pytest.raises(ApiError) as refused:
            await session.client.post(server.url + "/groups", content=BODY)
    assert refused.value.kind == "once" and refused.value.written == "no"
    assert carrying(server, "POST") == []


def test_the_ledger_lets_a_write_go_once_for_its_consent():
    ledger = Ledger()
    request = httpx.Request("PATCH", "https://service.invalid/api/service/v1.0/groups/1", content=BODY)
    ticket = ledger.consent(request)
    ledger.sending(request)
    with pytest.raises(ApiError) as again:
        ledger.sending(request)  # an auth flow asking to send it again, say
    assert again.value.summary == (
        "Not sent again: PATCH https://service.invalid/api/service/v1.0/groups/1 went once already, for one yes"
    )
    assert (ticket.sent, ledger.writes_sent, request.extensions[CONSENT] is ticket) == (True, 1, True)
    ledger.sending(httpx.Request("GET", "https://service.invalid/api/service/v1.0/groups/1"))  # reads go freely


# The commands: explorer post, put, patch, delete -------------------------------------------------


def command_line(method: str, *more: str) -> list[str]:
    data = [] if method == "DELETE" else ["--data", BODY.decode()]
    return [method.lower(), PATHS[method], *data, "--writes", "--yes", *more]


def account_environment(server: RecordingServer) -> dict[str, str]:
    return script_environment(
        {"EXPLORER_BASE_URL": server.url, "EXPLORER_CLIENT_ID": CLIENT, "EXPLORER_CLIENT_SECRET": SECRET}
    )


@pytest.mark.parametrize("name", ANSWERS)
@pytest.mark.parametrize("method", WRITES)
def test_each_write_command_sends_its_write_once_whatever_the_answer(server, other, method, name):
    server.script(method, PATHS[method], behaviour(name, other))
    run = in_process(
        command_line(method, "--no-token-cache", "--deadline", str(deadline_for(name))), account_environment(server)
    )
    assert len(carrying(server, method)) == 1
    assert run.code == EXIT_CODES[name]
    command = f"explorer {method.lower()}"
    if name in TOKEN_REFUSALS:
        assert run.err.splitlines()[-2:] == [
            f"{command}: 401 Unauthorized · You are not authorized for this resource."
            if name == "401 invalid_token"
            else f"{command}: 401 Unauthorized · EXPIRED_ACCESS_TOKEN: You are not authorized for this resource.",
            "hint: The service refused the token this write carried, and a new token has been got since. The write "
            "was not sent again. Run the same command again to send it.",
        ]
    elif name in ("307", "308"):
        status = f"{name} {'Temporary' if name == '307' else 'Permanent'} Redirect"
        assert run.err.splitlines() == [
            f"{command}: {status}: the service points this write to {LOCATION.format(other=other.origin)}, and "
            "says it did not take it here. The redirect was not followed: nothing was sent there.",
            "hint: If the service has moved there, point the base URL (or the target) to it and send the write again.",
        ]
        assert other.arrivals == []
    elif name in ("drop", "hang"):
        how = {"POST": "lists what is there, with what it made if it was done", "DELETE": "answers 404 if it was done"}
        slow = " If the service is only slow, --deadline SECONDS allows more." if name == "hang" else ""
        assert run.err.splitlines()[-1] == (
            "hint: Look before sending it again, or it may be done twice: explorer get "
            f"{PATHS[method]} {how.get(method, 'shows whether it holds what was sent')}.{slow}"
        )
        assert run.err.splitlines()[0].endswith("the write may have been done")
        assert "HTTPS" not in run.err and "base URL" not in run.err


@pytest.mark.parametrize("method", WRITES)
def test_a_write_command_without_writes_on_sends_nothing(server, method):
    arguments = [argument for argument in command_line(method) if argument != "--writes"]
    run = in_process(arguments, account_environment(server))
    assert run.code == 2
    assert server.arrivals_of(method, PATHS[method]) == [] and token_requests(server) == 0


def test_a_command_whose_cached_token_is_refused_with_a_plain_401_does_not_send_again(server):
    now = time.time()
    origin = server.origin + "/"
    TokenCache(token_cache_dir(), origin, CLIENT, Secret(SECRET)).save(Token(Secret("token-0"), now - 20, now + 3000))
    server.script("PATCH", "/groups/1", Behaviour(401, body=ERROR))
    run = in_process(command_line("PATCH"), account_environment(server))
    assert run.code == 4
    assert [a.headers["authorization"] for a in carrying(server, "PATCH")] == ["Bearer token-0"]
    assert token_requests(server) == 1  # renewed, once, after the refusal
    assert "The write was not sent again. Run the same command again to send it." in run.err


@pytest.mark.parametrize("method", WRITES)
def test_an_api_key_write_command_sends_its_body_once(digest_server, method):
    environment = script_environment(
        {"EXPLORER_BASE_URL": digest_server.url, "EXPLORER_PUBLIC_KEY": PUBLIC, "EXPLORER_PRIVATE_KEY": PRIVATE}
    )
    run = in_process(command_line(method), environment)
    assert run.code == 0
    assert len(carrying(digest_server, method)) == 1


# The screen: the preview's Enter, and the undo ------------------------------------------------------


async def open_patch(explorer, body: str) -> None:
    """On /groups/1: a, PATCH, this body in the editor."""
    from explorer.tui.screens.act import ActScreen
    from explorer.tui.screens.editor import EditorScreen

    await explorer.go_to("/groups/1")
    await explorer.until(lambda: (shown := explorer.screen.current_resource()) is not None and shown.url.endswith("/1"))
    await explorer.pilot.press("a")
    await explorer.until_screen(ActScreen)
    options = explorer.app.screen.query_one(OptionList)
    labels = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
    options.highlighted = next(i for i, label in enumerate(labels) if label.startswith("PATCH"))
    await explorer.pilot.press("enter")
    await explorer.until_screen(EditorScreen)
    explorer.app.screen.query_one(TextArea).text = body


async def yes(explorer) -> None:
    """From the editor: ctrl+s, then Enter in the preview (one yes)."""
    from explorer.tui.screens.editor import EditorScreen
    from explorer.tui.screens.preview import PreviewScreen

    await explorer.until_screen(EditorScreen)
    await explorer.pilot.press("ctrl+s")
    await explorer.until_screen(PreviewScreen)
    await explorer.pilot.press("enter")


def editor_says(explorer) -> str:
    from explorer.tui.screens.editor import EditorScreen

    if not isinstance(explorer.app.screen, EditorScreen):
        return ""
    return str(explorer.app.screen.query_one("#problems").render())


@pytest.mark.screen
async def test_each_enter_in_the_preview_sends_the_write_once_and_the_screen_says_what_happened(clock, other):
    """One yes after another, each answered its own way: a 401 about the token, a 307, a connection
    dropped once the body came, a 200; then the undo, refused for its token. Each yes sends one body."""
    from explorer.tui.screens.editor import EditorScreen
    from tests.tui.conftest import explorer_on

    with RecordingServer() as server:
        server.script(
            "PATCH",
            "/groups/1",
            behaviour("401 invalid_token", other),
            behaviour("307", other),
            behaviour("drop", other),
            behaviour("200", other),
            behaviour("401 invalid_token", other),  # the undo's
        )
        async with explorer_on(account(server), clock) as explorer:
            await open_patch(explorer, BODY.decode())
            await yes(explorer)
            await explorer.until(lambda: "PATCH · 401 Unauthorized: refused" in explorer.toasts())
            await explorer.until(
                lambda: (
                    "The service refused the token this write carried, and a new token has been got since. The "
                    "write was not sent again. ctrl+s, then Enter, sends it again." in editor_says(explorer)
                )
            )
            assert (len(carrying(server, "PATCH")), token_requests(server)) == (1, 2)

            await yes(explorer)  # sends it again: the second yes
            redirect = f"307 Temporary Redirect: the service points this write to {LOCATION.format(other=other.origin)}"
            await explorer.until(lambda: redirect in explorer.toasts())
            await explorer.until(
                lambda: "nothing was sent there. ctrl+s, then Enter, sends it again" in editor_says(explorer)
            )
            assert len(carrying(server, "PATCH")) == 2 and other.arrivals == []

            await yes(explorer)
            await explorer.until(
                lambda: (
                    "went, and the connection ended before its answer: the write may have been done"
                    in explorer.toasts()
                )
            )
            assert "The Log pane (4) shows what went." in explorer.toasts() and "HTTPS" not in explorer.toasts()
            assert len(carrying(server, "PATCH")) == 3
            assert ": done" not in explorer.toasts()  # never said of a write refused, redirected or unanswered

            await yes(explorer)
            await explorer.until(lambda: "PATCH · 200 OK: done" in explorer.toasts())
            assert len(carrying(server, "PATCH")) == 4

            await explorer.pilot.press("u")  # the undo: through the same preview, the same send, the same ledger
            await explorer.until_screen(EditorScreen)
            assert json.loads(explorer.app.screen.query_one(TextArea).text) == {"name": "entity"}
            await yes(explorer)
            await explorer.until(lambda: "The write was not sent again." in editor_says(explorer))
            undone = [a for a in server.arrivals_of("PATCH") if json.loads(a.body) == {"name": "entity"}]
            assert len(undone) == 1 and len(server.arrivals_of("PATCH")) == 5


# Any sequence of answers: one body at most for each yes -----------------------------------------------


SEQUENCE_BEHAVIOURS = (
    "200", "201", "204", "307", "401 token", "401 plain", "401 challenge", "429", "503", "drop", "timeout", "refused",
)  # fmt: skip


@dataclass
class Scripted:
    """A service on an httpx.MockTransport answering each write as the next behaviour says, counting every
    write that reaches it (`attempts`) and every one whose body arrived (`arrived`)."""

    digest: bool
    behaviour: str = "200"
    attempts: int = 0
    arrived: int = 0
    tokens: int = 0

    def __call__(self, request: httpx.Request) -> httpx.Response:
        if request.url.path == "/api/oauth/token":
            self.tokens += 1
            return httpx.Response(
                200, json={"access_token": f"token-{self.tokens}", "token_type": "Bearer", "expires_in": 3600}
            )
        if request.url.path == "/api/oauth/revoke":
            return httpx.Response(200)
        challenge = {"WWW-Authenticate": CHALLENGE}
        if self.digest and not request.headers.get("authorization", "").startswith("Digest "):
            return httpx.Response(401, headers=challenge, json=ERROR)
        if request.method == "GET":
            return httpx.Response(200, json={"id": "entity"})
        self.attempts += 1
        if self.behaviour == "refused":  # before any byte: nothing arrived
            raise httpx.ConnectError("[Errno 111] Connection refused", request=request)
        self.arrived += 1
        match self.behaviour:
            case "drop":
                raise httpx.RemoteProtocolError("Server disconnected without sending a response.", request=request)
            case "timeout":
                raise httpx.ReadTimeout("timed out", request=request)
            case "307":
                return httpx.Response(307, headers={"Location": "https://elsewhere.invalid/x"})
            case "401 token":
                return httpx.Response(401, headers={"WWW-Authenticate": 'Bearer error="invalid_token"'}, json=ERROR)
            case "401 plain":
                return httpx.Response(401, json=ERROR)
            case "401 challenge":
                return httpx.Response(401, headers=challenge, json=ERROR)
            case "429" | "503":
                return httpx.Response(int(self.behaviour), headers={"Retry-After": "1"}, json={"error": 1})
            case status:
                return httpx.Response(int(status), json={"id": "made"})


async def consents(digest: bool, writes: bool, steps: list[tuple[str, str, float]]) -> None:
    """Each step a clock's move, then one consent to one write answered as scripted: checked as it goes."""
    clock = FakeClock()

    async def sleep(seconds: float) -> None:
        clock.advance(seconds)

    scripted = Scripted(digest)
    who = {"public_key": PUBLIC, "private_key": Secret(PRIVATE)} if digest else {"client_id": CLIENT}
    secret = {} if digest else {"client_secret": Secret(SECRET)}
    credentials = Credentials("https://service.invalid" + ROOT, **who, **secret)  # type: ignore[arg-type]
    policy = WritePolicy(writes, "--writes" if writes else "the default")
    async with Session(
        credentials, transport=httpx.MockTransport(scripted), writes=policy, clocks=Clocks(wall=clock, sleep=sleep)
    ) as session:
        for method, behaviour, wait in steps:
            clock.advance(wait)
            scripted.behaviour = behaviour
            attempts, arrived = scripted.attempts, scripted.arrived
            outcome = await write(session, method)
            assert scripted.attempts - attempts <= (1 if writes else 0)  # handed to the network once at most
            went = scripted.arrived - arrived
            if isinstance(outcome, ApiError) and outcome.written == "maybe":
                assert went == 1  # "may have been done" only of a write that went
            if went and behaviour in ("drop", "timeout"):
                assert isinstance(outcome, ApiError) and outcome.written == "maybe"
    assert scripted.attempts <= (len(steps) if writes else 0)


@given(
    digest=st.booleans(),
    writes=st.booleans(),
    steps=st.lists(
        st.tuples(st.sampled_from(WRITES), st.sampled_from(SEQUENCE_BEHAVIOURS), st.floats(0, 4000)),
        min_size=1,
        max_size=6,
    ),
)
def test_any_sequence_of_answers_gets_at_most_one_body_for_each_yes(digest, writes, steps):
    asyncio.run(consents(digest, writes, steps))
