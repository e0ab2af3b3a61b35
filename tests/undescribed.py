"""A service that publishes no API description where the explorer looks for one when none is given.

The sandbox, its `/openapi.json` answered with a 404 in the service's error shape: what a service that
publishes its description elsewhere, or nowhere, answers there.
"""

from __future__ import annotations

from typing import Any

from starlette.responses import JSONResponse

NOT_FOUND = {"detail": "Cannot find resource /openapi.json.", "error": 404, "errorCode": "RESOURCE_NOT_FOUND"}


class Undescribed:
    """An ASGI app: `app` as it is, but for its `/openapi.json`, a 404."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.state = app.state

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["path"] == "/openapi.json":
            await JSONResponse(NOT_FOUND, 404)(scope, receive, send)
            return
        await self.app(scope, receive, send)
