"""A server that keeps every request it receives, and answers as a test scripts it.

The safety suite's witness: what arrived is what counts, not what the client says it sent. It is a
plain HTTP/1.1 server on a loopback socket in a thread of its own (no framework between the bytes
and the record), so a test can also make it do what frameworks will not: close the connection once
a request's body has arrived (`drop`), or never answer (`hang`).

    with RecordingServer() as server:
        server.script("PATCH", "/api/service/v1.0/groups/1", Behaviour(401, invalid_token=True))
        ...  # point the explorer at server.url
        assert len(server.arrivals_with_body("PATCH")) == 1

By default it is a service account's service: `POST /api/oauth/token` gives a fresh token
(`token-1`, `token-2`, …), `POST /api/oauth/revoke` answers 200, a GET answers a small resource with
its `self` link, and a write answers `200` with `{"id": "made"}`. With `digest=True` it is an API
key's: a request without a Digest `Authorization` gets the challenge (401), as the real service does.

With `answers_per_connection=N` it answers N requests on a connection, keeping it open as keep-alive
says, and then closes it on the next request without answering it or saying `Connection: close`:
what a client sees of a server that closed an idle connection just as a request was sent on it.
Each arrival says which connection it came on (`connection`, counted from 1).
"""

from __future__ import annotations

import base64
import contextlib
import json
import socket
import threading
from collections import defaultdict, deque
from dataclasses import dataclass, field, replace
from typing import Literal

ROOT = "/api/service/v1.0"
CHALLENGE = 'Digest realm="MMS Public API", nonce="n0nce", qop="auth", algorithm=MD5'


@dataclass(frozen=True)
class Arrival:
    """One request as it arrived: method, target (path and query), headers (names lower-cased), body."""

    method: str
    target: str
    headers: dict[str, str]
    body: bytes
    connection: int = 0  # which connection it came on, counted from 1 as they were accepted

    @property
    def path(self) -> str:
        return self.target.partition("?")[0]

    @property
    def basic_pair(self) -> tuple[str, str] | None:
        """The (user, password) of a Basic Authorization header, if it carries one."""
        value = self.headers.get("authorization", "")
        if not value.lower().startswith("basic "):
            return None
        user, _, password = base64.b64decode(value[6:]).decode("utf-8", "replace").partition(":")
        return user, password


@dataclass(frozen=True)
class Behaviour:
    """How to answer one request: a status, headers and body; or `drop` (close the connection once
    the request's body has arrived, answering nothing), or `hang` (keep it open, answering nothing)."""

    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes | dict | list | None = None
    action: Literal["answer", "drop", "hang"] = "answer"
    invalid_token: bool = False  # a 401 saying the token is the problem (WWW-Authenticate error="invalid_token")


class RecordingServer:
    """The server (see the module). `url` is its API root; `arrivals` every request, in order."""

    def __init__(
        self, *, digest: bool = False, token_lifetime: int = 3600, answers_per_connection: int | None = None
    ) -> None:
        self.digest = digest
        self.token_lifetime = token_lifetime
        self.answers_per_connection = answers_per_connection
        self.connections = 0
        self.arrivals: list[Arrival] = []
        self.scripts: dict[tuple[str, str], deque[Behaviour]] = defaultdict(deque)
        self.tokens = 0
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.sock.settimeout(0.2)  # here, not in serve: a test may end (and close it) before serve starts
        self.origin = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        self.url = self.origin + ROOT
        self.lock = threading.Lock()
        self.closing = threading.Event()
        self.thread = threading.Thread(target=self.serve, daemon=True)

    def __enter__(self) -> RecordingServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.closing.set()
        with contextlib.suppress(OSError):  # wakes the waiting accept() at once, not at its next 0.2 s
            self.sock.shutdown(socket.SHUT_RDWR)
        self.sock.close()
        self.thread.join(5)

    # What a test says and asks ---------------------------------------------------------------------

    def script(self, method: str, path: str, *behaviours: Behaviour) -> None:
        """Answer the next requests for `method` `path` (a path under the root, or absolute) so, in order."""
        key = (method.upper(), path if path.startswith("/api/") else ROOT + path)
        self.scripts[key].extend(behaviours)

    def arrivals_of(self, method: str, path: str | None = None) -> list[Arrival]:
        """Every arrival of this method (and path under the root, or absolute), in order."""
        full = None if path is None else path if path.startswith("/api/") else ROOT + path
        with self.lock:
            return [a for a in self.arrivals if a.method == method.upper() and (full is None or a.path == full)]

    def arrivals_with_body(self, method: str, body: bytes | None = None) -> list[Arrival]:
        """Every arrival of this method that carried a body (this body, when one is given)."""
        return [a for a in self.arrivals_of(method) if a.body and (body is None or a.body == body)]

    def secrets_seen(self) -> set[str]:
        """Every password that arrived in a Basic Authorization header (the token endpoint's)."""
        with self.lock:
            return {pair[1] for a in self.arrivals if (pair := a.basic_pair)}

    # The server ------------------------------------------------------------------------------------

    def serve(self) -> None:
        while not self.closing.is_set():
            try:
                connection, _ = self.sock.accept()
            except (TimeoutError, OSError):
                continue
            with self.lock:
                self.connections += 1
                number = self.connections
            threading.Thread(target=self.converse, args=(connection, number), daemon=True).start()

    def converse(self, connection: socket.socket, number: int = 0) -> None:
        """Answer the requests of one connection, in turn, until it closes, a behaviour drops it, or
        it has had its `answers_per_connection`."""
        reader = connection.makefile("rb")
        answered = 0
        try:
            while not self.closing.is_set():
                arrival = read_request(reader)
                if arrival is None:
                    return
                arrival = replace(arrival, connection=number)
                with self.lock:
                    self.arrivals.append(arrival)
                if self.answers_per_connection is not None and answered >= self.answers_per_connection:
                    return  # closed as it came, unanswered: as an idle connection the server had closed
                answered += 1
                behaviour = self.behaviour_for(arrival)
                if behaviour.action == "drop":
                    return
                if behaviour.action == "hang":
                    self.closing.wait(120)
                    return
                connection.sendall(response_bytes(behaviour))
        except OSError:
            return
        finally:
            reader.close()
            connection.close()

    def behaviour_for(self, arrival: Arrival) -> Behaviour:
        with self.lock:
            scripted = self.scripts.get((arrival.method, arrival.path))
            if scripted:
                return scripted.popleft()
        if arrival.path == "/api/oauth/token":
            with self.lock:
                self.tokens += 1
                value = f"token-{self.tokens}"
            return Behaviour(
                200, body={"access_token": value, "token_type": "Bearer", "expires_in": self.token_lifetime}
            )
        if arrival.path == "/api/oauth/revoke":
            return Behaviour(200, body=b"")
        if self.digest and not arrival.headers.get("authorization", "").startswith("Digest "):
            return Behaviour(401, {"WWW-Authenticate": CHALLENGE}, {"error": 401, "errorCode": "UNAUTHORIZED"})
        if arrival.method == "GET":
            self_link = {"rel": "self", "href": self.origin + arrival.target}
            return Behaviour(200, body={"id": "entity", "name": "entity", "links": [self_link]})
        if arrival.method == "DELETE":
            return Behaviour(204, body=b"")
        return Behaviour(200, body={"id": "made", "links": [{"rel": "self", "href": self.origin + arrival.path}]})


def read_request(reader: object) -> Arrival | None:
    """One request from the connection (its whole body, by Content-Length or chunks), or None at its end."""
    line = reader.readline()  # type: ignore[attr-defined]
    if not line.strip():
        return None
    method, target, _ = line.decode("latin-1").split(" ", 2)
    headers: dict[str, str] = {}
    while (header := reader.readline()) not in (b"\r\n", b"\n", b""):  # type: ignore[attr-defined]
        name, _, value = header.decode("latin-1").partition(":")
        headers[name.strip().lower()] = value.strip()
    if headers.get("transfer-encoding", "").lower() == "chunked":
        body = b""
        while size := int(reader.readline().split(b";")[0], 16):  # type: ignore[attr-defined]
            body += reader.read(size)  # type: ignore[attr-defined]
            reader.readline()  # type: ignore[attr-defined]
        reader.readline()  # type: ignore[attr-defined]
    else:
        body = reader.read(int(headers.get("content-length", "0") or 0))  # type: ignore[attr-defined]
    return Arrival(method.upper(), target, headers, body)


def response_bytes(behaviour: Behaviour) -> bytes:
    body = behaviour.body
    if isinstance(body, dict | list):
        body = json.dumps(body).encode()
    body = body or b""
    headers = {"Content-Type": "application/json", **behaviour.headers}
    if behaviour.invalid_token:
        headers["WWW-Authenticate"] = 'Bearer error="invalid_token"'
    head = f"HTTP/1.1 {behaviour.status} {REASONS.get(behaviour.status, 'Status')}\r\n"
    head += "".join(f"{name}: {value}\r\n" for name, value in headers.items())
    head += f"Content-Length: {len(body)}\r\n\r\n"
    return head.encode("latin-1") + body


REASONS = {
    200: "OK", 201: "Created", 202: "Accepted", 204: "No Content", 301: "Moved Permanently", 302: "Found",
    307: "Temporary Redirect", 308: "Permanent Redirect", 400: "Bad Request", 401: "Unauthorized",
    404: "Not Found", 409: "Conflict", 429: "Too Many Requests", 500: "Internal Server Error",
    503: "Service Unavailable",
}  # fmt: skip
