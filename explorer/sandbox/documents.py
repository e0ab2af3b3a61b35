"""Response documents: JSON as the service writes it, envelopes, error documents, common headers.

Every response of the sandbox is built here, so the conventions of the specification
(pretty printing, envelopes, the vendor media type, the headers of a success) hold everywhere.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from email.utils import formatdate
from functools import lru_cache
from http import HTTPStatus
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from explorer import __version__
from explorer.sandbox.pages import Page

VENDOR = "service"
DEFAULT_VERSION = "2023-01-01"
GIT_HASH = "5d1f0c2a9e8b7d6c5b4a39281706f5e4d3c2b1a0"
SERVICE_VERSION = f"gitHash={GIT_HASH}; versionString=sandbox-{__version__}"
HSTS_LONG = "max-age=31536000; includeSubdomains"
HSTS_SHORT = "max-age=300"
BOOLEANS = {"true": True, "false": False}


def media_type(version: str) -> str:
    """The vendor media type of a success, e.g. application/vnd.service.2023-01-01+json."""
    return f"application/vnd.{VENDOR}.{version}+json;charset=utf-8"


def reason(status: int) -> str:
    return HTTPStatus(status).phrase


class ApiProblem(Exception):
    """A failure that the API reports as the five-field error document of spec 2.4."""

    def __init__(
        self,
        status: int,
        error_code: str,
        detail: str,
        parameters: Iterable[Any] = (),
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(detail)
        self.status = status
        self.error_code = error_code
        self.detail = detail
        self.parameters = list(parameters)
        self.headers = headers or {}

    def document(self) -> dict[str, Any]:
        return {
            "detail": self.detail,
            "error": self.status,
            "errorCode": self.error_code,
            "parameters": self.parameters,
            "reason": reason(self.status),
        }


class Format:
    """How the client asked for its JSON: `pretty` and `envelope` (spec 4.1)."""

    __slots__ = ("pretty", "envelope")

    def __init__(self, pretty: bool = False, envelope: bool = False) -> None:
        self.pretty = pretty
        self.envelope = envelope

    @classmethod
    def lenient(cls, request: Request) -> Format:
        """The format asked for, ignoring values that are not booleans (they are reported elsewhere)."""
        query = request.query_params
        return cls(
            pretty=BOOLEANS.get(query.get("pretty", "").lower(), False),
            envelope=BOOLEANS.get(query.get("envelope", "").lower(), False),
        )

    def dump(self, document: Any, status: int) -> bytes:
        if isinstance(document, Page):
            if not self.pretty:
                return document.compact(status if self.envelope else None)
            document = document.document()
        if self.envelope:
            document = envelop(document, status)
        if self.pretty:
            text = json.dumps(document, indent=2, separators=(",", " : "), ensure_ascii=False)
        else:
            text = json.dumps(document, separators=(",", ":"), ensure_ascii=False)
        return text.encode("utf-8")


def envelop(document: Any, status: int) -> Any:
    """Spec 2.6: an entity becomes {status, content}; a list only gains `status`."""
    if isinstance(document, dict) and "results" in document:
        return {**document, "status": status}
    return {"status": status, "content": document}


@lru_cache(maxsize=4)
def http_date(second: int) -> str:
    return formatdate(second, usegmt=True)


def common_headers(clock_now: float) -> dict[str, str]:
    """The headers of spec 4.4 that do not depend on the body."""
    return {
        "Date": http_date(int(clock_now)),
        "Strict-Transport-Security": HSTS_LONG,
        "Vary": "Accept-Encoding",
        "Referrer-Policy": "strict-origin-when-cross-origin",
        "X-Permitted-Cross-Domain-Policies": "none",
        "X-Content-Type-Options": "nosniff",
        "X-Frame-Options": "DENY",
        "X-Service-Version": SERVICE_VERSION,
    }


def json_response(
    request: Request,
    document: Any,
    *,
    status: int = 200,
    version: str = DEFAULT_VERSION,
    fmt: Format | None = None,
) -> Response:
    """A success: the document in the vendor media type, with the headers of spec 4.4."""
    fmt = fmt or Format.lenient(request)
    return Response(
        fmt.dump(document, status),
        status_code=status,
        headers=common_headers(request.app.state.sandbox.clock()),
        media_type=media_type(version),
    )


def problem_response(request: Request, problem: ApiProblem) -> Response:
    """A failure as the five-field document, in plain application/json like the real service."""
    headers = common_headers(request.app.state.sandbox.clock())
    headers["X-Error-Code"] = problem.error_code
    headers.update(problem.headers)
    return Response(
        Format.lenient(request).dump(problem.document(), problem.status),
        status_code=problem.status,
        headers=headers,
        media_type="application/json",
    )
