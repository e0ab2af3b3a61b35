"""What a server may send: a body's decoded size, bounded as it streams.

A server the explorer is pointed at may be broken or hostile. A gzip "bomb" of 1 MB decodes to
1 GB; httpx would decode it whole into memory. `GuardedTransport` wraps the transport the session
uses and counts, as each raw chunk arrives and before httpx decodes it, both the bytes received
and what they decode to (with a bounded decompressor of its own, so the count never holds more
than a few hundred kilobytes). Past `max_body` decoded bytes, or a compressed-to-decoded ratio
above `MAX_RATIO` once a megabyte has been decoded, the answer is dropped and the request fails
with `BodyTooLarge`, which the session turns into an `ApiError` naming the limit.

`service_transport` is the transport under the guard: to the service, through the proxy the
environment names for it (so a proxy's answers are bounded too).
"""

from __future__ import annotations

import ssl
import urllib.request
import zlib
from collections.abc import AsyncIterator
from typing import Any

import httpx

from explorer.api.errors import ConfigError
from explorer.api.unsafe_characters import visible
from explorer.api.urls import is_loopback

MAX_BODY = 64 * 1024 * 1024  # decoded bytes of one answer (Bounds.max_body)
MAX_RATIO = 200  # decoded ÷ received: JSON compresses 5–30×, a bomb 1000×
RATIO_AFTER = 1024 * 1024  # the ratio is judged once this much is decoded: tiny bodies compress oddly
PIECE = 256 * 1024  # the most the counting decompressor makes at once


class BodyTooLarge(httpx.DecodingError):
    """An answer past a limit: its decoded size, or its compression ratio."""


class GuardedTransport(httpx.AsyncBaseTransport):
    """The session's transport, each answer's body counted as it streams (see the module)."""

    def __init__(self, transport: httpx.AsyncBaseTransport, max_body: int = MAX_BODY) -> None:
        self.transport = transport
        self.max_body = max_body

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        """The answer, its body counted as it streams (GuardedStream)."""
        response = await self.transport.handle_async_request(request)
        if not isinstance(response.stream, httpx.AsyncByteStream):
            raise TypeError(f"{type(self.transport).__name__} answered with a stream it cannot read asynchronously")
        stream = GuardedStream(response.stream, request, response.headers.get("content-encoding", ""), self.max_body)
        return httpx.Response(
            status_code=response.status_code,
            headers=response.headers,
            stream=stream,
            extensions=response.extensions,
        )

    async def aclose(self) -> None:
        """Close the transport it guards."""
        await self.transport.aclose()


class GuardedStream(httpx.AsyncByteStream):
    """The raw bytes as received, unchanged; their decoded size counted beside them."""

    def __init__(self, stream: httpx.AsyncByteStream, request: httpx.Request, encoding: str, max_body: int) -> None:
        self.stream = stream
        self.request = request
        self.max_body = max_body
        self.received = 0
        self.decoded = 0
        self.codings = [coding.strip().lower() for coding in encoding.split(",") if coding.strip()]
        self.counter = counter_for(self.codings)

    async def __aiter__(self) -> AsyncIterator[bytes]:
        async for chunk in self.stream:
            self.count(chunk)
            yield chunk

    def count(self, chunk: bytes) -> None:
        """Count a raw chunk: what it decodes to, by the answer's content encodings."""
        self.received += len(chunk)
        if len(self.codings) > 1 and set(self.codings) & COMPRESSED:
            raise BodyTooLarge(f"the answer is compressed more than once ({', '.join(self.codings)}): not read",
                               request=self.request)  # fmt: skip
        if self.counter is None:
            self.decoded += len(chunk)
        else:
            data = chunk
            while data:
                try:
                    out = self.counter.decompress(data, PIECE)
                except zlib.error:
                    if self.codings == ["deflate"] and self.decoded == 0 and self.received == len(chunk):
                        self.counter = zlib.decompressobj(-zlib.MAX_WBITS)  # raw deflate, as httpx also takes
                        continue
                    self.counter = None  # not what it says it is: httpx's own decoder will say so
                    break
                self.decoded += len(out)
                self.check()
                data = self.counter.unconsumed_tail
        self.check()

    def check(self) -> None:
        """Raise BodyTooLarge past max_body, or past MAX_RATIO once RATIO_AFTER is decoded."""
        if self.decoded > self.max_body:
            received = f", from {size(self.received)} received" if self.received < self.decoded else ""
            raise BodyTooLarge(
                f"the answer is larger than {size(self.max_body)} (the body limit){received}",
                request=self.request,
            )
        if self.decoded > RATIO_AFTER and self.decoded > MAX_RATIO * max(self.received, 1):
            raise BodyTooLarge(
                f"the answer decodes to more than {MAX_RATIO} times its compressed size "
                f"({size(self.received)} made {size(self.decoded)} so far): a compression bomb",
                request=self.request,
            )

    async def aclose(self) -> None:
        """Close the stream it counts."""
        await self.stream.aclose()


COMPRESSED = {"gzip", "x-gzip", "deflate", "br", "zstd"}


def counter_for(codings: list[str]) -> Any:
    """A decompressor for a gzip or deflate body (counted decoded), None for identity or others
    (counted as received: httpx decodes only gzip and deflate without optional packages)."""
    if codings == ["gzip"] or codings == ["x-gzip"]:
        return zlib.decompressobj(zlib.MAX_WBITS | 16)
    if codings == ["deflate"]:
        return zlib.decompressobj()
    return None


def size(count: int) -> str:
    """64 MB, 1.5 MB, 800 KB, 12 bytes."""
    if count >= 1024 * 1024:
        return f"{count / (1024 * 1024):.3g} MB"
    if count >= 1024:
        return f"{count / 1024:.3g} KB"
    return f"{count} bytes"


def environment_proxy(url: httpx.URL) -> str | None:
    """The proxy the environment names for `url` (https_proxy, http_proxy, all_proxy, less no_proxy); none
    for this machine (a loopback host), whatever the environment says: plain http, allowed to loopback
    alone, would carry the credentials to the proxy in clear.

    The session builds the one transport it guards with this proxy: httpx left to read the environment
    would mount proxy transports of its own, past the guard, and a bomb through a proxy would be read whole.
    """
    if is_loopback(url.host):  # this machine: never through another, which plain http would reach in clear
        return None
    proxies = urllib.request.getproxies_environment()
    # proxy_bypass_environment: in the standard library on every platform, not in typeshed's stubs.
    if urllib.request.proxy_bypass_environment(url.host, proxies):  # type: ignore[attr-defined]
        return None
    return proxies.get(url.scheme) or proxies.get("all")


def service_transport(base_url: httpx.URL, verify: ssl.SSLContext | bool) -> httpx.AsyncHTTPTransport:
    """The transport to the service: through the proxy the environment names for it, if any.

    Raises ConfigError when that proxy cannot be used (a socks5:// one needs httpx[socks]); the error
    names the proxy's scheme only, since a proxy URL may carry a password.
    """
    proxy = environment_proxy(base_url)
    try:
        return httpx.AsyncHTTPTransport(verify=verify, proxy=proxy)
    except (ImportError, ValueError, httpx.InvalidURL):
        scheme = (proxy or "").partition(":")[0]
        raise ConfigError(
            f"The proxy the environment names for {base_url.host} cannot be used: "
            f"a {visible(scheme[:20])}: proxy is not one this explorer can use",
            hint="Set https_proxy to an http:// or https:// proxy, or add the host to no_proxy.",
        ) from None
