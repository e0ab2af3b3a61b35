"""What a session knows of the API's shape: its description, and the media type each request asks for.

The description (an OpenAPI document, `Credentials.openapi`) is loaded once, on first need, off the event
loop; one that cannot be used leaves `problem` saying why and the session goes on without it. None
given, one can be found (`discover`) where the API's own origin may publish it (WELL_KNOWN: the
sandbox's /openapi.json), once a session and quietly: nothing there is no problem to tell. The
Accept a request carries follows from it and from the base URL: the vendor's versioned media type
where the API is versioned (the real service's /api/<vendor>/v2), else plain JSON.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from pathlib import Path

import httpx

from explorer.api.description import Description, DescriptionError, download, from_bytes
from explorer.api.description import load as load_description
from explorer.api.errors import ApiError
from explorer.api.urls import origin_of
from explorer.api.versions import accept_for, vendor_of

# Where a service may publish its description on its own origin when none is given: the sandbox's.
# The real service publishes its own at an address of its documentation, on another origin: given
# with Credentials.openapi, never guessed. Only the API's origin is asked, never with credentials.
WELL_KNOWN = ("/openapi.json",)


class DescriptionLoader:
    """The description of one session's API (from `source`, if any) and the version it pins.

    `headers` are the user's own (`explorer get -H`): they go with the description's request only
    when it is on the API's origin, as they go to that origin only.
    """

    def __init__(
        self,
        base_url: httpx.URL,
        source: str | None,
        api_version: str | None,
        cache: Path,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        self.base_url = base_url
        self.source = source
        self.api_version = api_version
        self.cache = cache
        self.headers = dict(headers or {})
        self.description: Description | None = None  # once loaded
        self.problem: ApiError | None = None  # why the one given cannot be used
        self.loading: asyncio.Future[Description | None] | None = None

    async def described(self, client: httpx.AsyncClient) -> Description | None:
        """The description, loaded with `client` the first time it is asked for; None without one.

        Without a source, the one `discover` found, once it has looked (awaited while it looks).
        """
        if self.loading is None:
            if self.source is None:
                return None
            self.loading = asyncio.ensure_future(self.read(self.source, client))
        return await asyncio.shield(self.loading)

    async def discover(self, client: httpx.AsyncClient) -> Description | None:
        """None given, the description the API's origin publishes where services put theirs (WELL_KNOWN).

        Asked once a session, with a GET without credentials to the API's own origin only, bounded as
        any description's load; an answer that is not there (a 404), not JSON or not an OpenAPI 3
        description means there is none, and nothing is said of it (`problem` stays None).

        Args:
            client: The session's client (its timeout, its size guard, its log).

        Returns:
            The description: the one given (loaded if it is not yet), or the one found; None when
            there is none.
        """
        if self.source is None and self.loading is None:
            self.loading = asyncio.ensure_future(self.find(client))
        return await self.described(client)

    async def find(self, client: httpx.AsyncClient) -> Description | None:
        """The first description found at a WELL_KNOWN path of the API's origin, or None; never raises."""
        for path in WELL_KNOWN:
            url = str(self.base_url.copy_with(path=path, query=None, fragment=None))
            try:
                data = await download(url, client, self.headers_for(url))
                if not data.lstrip().startswith(b"{"):
                    continue  # a page, not JSON: no description here
                self.description = await asyncio.to_thread(from_bytes, url, data, self.cache)
            except Exception:  # not there, not a description, not reachable: none, said by nobody
                continue
            return self.description
        return None

    async def read(self, source: str, client: httpx.AsyncClient) -> Description | None:
        """Load the description from `source`; a problem is kept to be told, never raised."""
        try:
            self.description = await load_description(source, client, self.cache, self.headers_for(source))
        except DescriptionError as problem:
            self.problem = problem
        except Exception as error:
            self.problem = DescriptionError(source, f"{type(error).__name__}: {error}")
        return self.description

    def headers_for(self, source: str) -> dict[str, str]:
        """The user's headers a description at `source` is sent: all of them on the API's origin, none elsewhere
        (nor for a file); its Accept is the description's own, whatever the user's."""
        if not source.startswith(("https://", "http://")):
            return {}
        try:
            elsewhere = origin_of(httpx.URL(source)) != origin_of(self.base_url)
        except httpx.InvalidURL:  # said by the load, which fetches nothing
            return {}
        return {} if elsewhere else {name: value for name, value in self.headers.items() if name.lower() != "accept"}

    @property
    def vendor(self) -> str | None:
        """The name this API's versioned media types carry: from its root (/api/<vendor>/v2), or its description."""
        description = self.description
        return vendor_of(self.base_url.path) or (description.vendor if description else None)

    def accept(self, path: str, method: str = "GET") -> str:
        """The Accept for a request: the vendor's media type where the API is versioned (its root is
        /api/<vendor>/v2, or the description's media types name a vendor), else plain JSON.

        Only under the API root, or on a path the description documents in versions: the real
        service's v1.0 paths and its address lookup (/api/private/ipinfo) are not versioned.

        The version: Credentials.api_version (pinned) if given; else the newest the description documents for
        this operation; else the default.
        """
        description = self.description
        vendor = self.vendor
        operation = description.operation(path, method) if description is not None else None
        root = self.base_url.path.rstrip("/")
        if not (path == root or path.startswith(root + "/") or (operation and operation.versions)):
            vendor = None
        version = self.api_version
        if vendor and version is None and operation is not None:
            version = operation.newest_version
        return accept_for(vendor, version)
