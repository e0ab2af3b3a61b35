"""create_app(settings) -> the sandbox as one Starlette application.

In process: `httpx.AsyncClient(transport=httpx.ASGITransport(app=create_app()))`.
Over the network: `explorer sandbox`, which serves the same app with uvicorn.
"""

from __future__ import annotations

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from explorer.sandbox import control, oauth
from explorer.sandbox.api_middleware import ApiMiddleware
from explorer.sandbox.documents import ApiProblem, problem_response
from explorer.sandbox.links import API_ROOT, DESCRIPTION_PATH
from explorer.sandbox.openapi import REVOKE_PATH, TOKEN_PATH, description
from explorer.sandbox.resources import LEGACY_ROUTES, ROUTES
from explorer.sandbox.resources.root import IPINFO_PATH, ipinfo
from explorer.sandbox.settings import Settings
from explorer.sandbox.state import Sandbox


async def api_problem(request: Request, exc: Exception) -> Response:
    if not isinstance(exc, ApiProblem):  # registered for ApiProblem alone: anything else goes on up
        raise exc
    return problem_response(request, exc)


async def http_problem(request: Request, exc: Exception) -> Response:
    """Starlette's own 404 and 405, as the service's error documents."""
    if not isinstance(exc, HTTPException):  # registered for HTTPException alone
        raise exc
    path = request.url.path
    if exc.status_code == 405:
        allowed = sorted((exc.headers or {}).get("Allow", "").replace(" ", "").split(","))
        problem = ApiProblem(
            405,
            "METHOD_NOT_ALLOWED",
            f"Method {request.method} is not allowed on {path}. Allowed: {', '.join(allowed)}.",
            [request.method, path],
            {"Allow": ", ".join(allowed)},
        )
    elif exc.status_code == 404:
        hint = "" if path.startswith(API_ROOT) else f" The API starts at {API_ROOT}."
        problem = ApiProblem(404, "RESOURCE_NOT_FOUND", f"Cannot find resource {path}.{hint}", [path])
    else:
        problem = ApiProblem(exc.status_code, "INVALID_REQUEST", str(exc.detail), [])
    return problem_response(request, problem)


def create_app(settings: Settings | None = None) -> Starlette:
    """A new sandbox with its own data, tokens, limits and faults."""
    sandbox = Sandbox(settings or Settings())
    routes = [
        Route(TOKEN_PATH, oauth.token, methods=["POST"]),
        Route(REVOKE_PATH, oauth.revoke, methods=["POST"]),
        Route(DESCRIPTION_PATH, description, methods=["GET"]),
        Route(IPINFO_PATH, ipinfo, methods=["GET"]),
        *LEGACY_ROUTES,
        *ROUTES,
    ]
    if sandbox.settings.control:
        routes += control.ROUTES
    app = Starlette(
        routes=routes,
        middleware=[Middleware(ApiMiddleware, sandbox=sandbox)],
        exception_handlers={ApiProblem: api_problem, HTTPException: http_problem},
    )
    app.router.redirect_slashes = False
    app.state.sandbox = sandbox
    return app
