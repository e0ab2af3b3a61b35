"""A read that met a connection the server had just closed, sent once more on a new one.

A server closes a keep-alive connection it has not heard from for a while (uvicorn after 5 s, many
proxies after a minute), and says nothing: the client learns it only when it sends the next request
on that connection and the answer never comes ("Server disconnected without sending a response", or
a reset). The request may have gone out just as the server closed. A read (GET, HEAD, OPTIONS) is
safe to send again, and so is a request of the credentials' own (the token endpoint, revoke):
`Reconnecting` sends such a request once more, at once, when it failed so on a connection that
served a request before. The pool has dropped that connection, so it goes on a new one, or on another
idle one; should that one have been closed too, it goes again, until it has been sent on a new
connection (MAX_SENDINGS in all). Nobody above the transport sees the tries that failed: the log,
the rate-limit count and the HAR hold the one request and the one answer.

A write (POST, PUT, PATCH, DELETE, any other method) is never sent again here: the same failure is
said as today, the write may have been done (once.py). A failure on a new connection (the service is
down, refuses, or breaks every answer) is said as it is, not tried again.

Whether the connection was new is what httpcore's `trace` extension tells: a new one is connected
(`connection.connect_tcp`) before the request goes; a pooled one is not.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import httpx

from explorer.api.once import is_write

# What a connection the server closed while it was idle fails with, when a request is sent on it.
CLOSED = (httpx.RemoteProtocolError, httpx.ReadError, httpx.WriteError, httpx.ConnectError)
MAX_SENDINGS = 4  # a read sent at most this often: idle connections the server closed, then a new one
TRACE = "trace"  # httpcore's extension: a callback told each step of sending a request

Trace = Callable[[str, dict[str, Any]], Awaitable[None]]


class Connecting:
    """What one sending of a request did: whether it opened a new connection, and whether it went at all."""

    def __init__(self, passed_on: Trace | None) -> None:
        self.passed_on = passed_on  # a trace the request carried already, told everything too
        self.connected = False  # a new connection was opened for it
        self.went = False  # it got as far as a connection: a new one, or one from the pool

    async def __call__(self, event: str, info: dict[str, Any]) -> None:
        """Pass on httpcore's trace events (`connection.connect_tcp.started`, `http11.send_request_headers.started`)."""
        self.went = True
        if event.startswith("connection.connect_"):
            self.connected = True
        if self.passed_on is not None:
            await self.passed_on(event, info)

    @property
    def reused(self) -> bool:
        """Whether it was sent on a connection that served a request before."""
        return self.went and not self.connected


class Reconnecting(httpx.AsyncBaseTransport):
    """A transport whose reads survive a keep-alive connection the server closed (see the module).

    Args:
        transport: What sends the requests: the network's httpx transport. A transport without
            connections (httpx.MockTransport) says nothing of them, and nothing is sent again.
    """

    def __init__(self, transport: httpx.AsyncBaseTransport) -> None:
        self.transport = transport

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        """The answer; a read that failed on a closed pooled connection sent again, on another.

        Args:
            request: The request to send.

        Returns:
            The answer, its body still to be read.

        Raises:
            httpx.TransportError: What the transport raised, when the request is a write, or failed
                on a new connection, or failed MAX_SENDINGS times.
        """
        if is_write(request):
            return await self.transport.handle_async_request(request)
        given: Trace | None = request.extensions.get(TRACE)
        for _ in range(MAX_SENDINGS - 1):
            tried = Connecting(given)
            request.extensions[TRACE] = tried
            try:
                return await self.transport.handle_async_request(request)
            except CLOSED:
                if not tried.reused:
                    raise
            finally:
                restore(request, given)
            # The pool dropped the closed connection as it failed: the next sending goes on another.
        return await self.transport.handle_async_request(request)

    async def aclose(self) -> None:
        """Close the transport it wraps."""
        await self.transport.aclose()


def restore(request: httpx.Request, given: Trace | None) -> None:
    """Put back the trace the request carried before (or none), for whatever sends it next."""
    if given is None:
        request.extensions.pop(TRACE, None)
    else:
        request.extensions[TRACE] = given
