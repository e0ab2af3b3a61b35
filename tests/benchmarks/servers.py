"""Serve the sandbox, or a bare Starlette floor, in a process of its own for a benchmark.

python -m tests.benchmarks.servers sandbox          # prints its port, then serves
python -m tests.benchmarks.servers floor PATH FILE   # serves FILE's bytes at PATH
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]


def serve(kind: str, page: str = "", body_file: str = "") -> None:
    import uvicorn
    from starlette.applications import Starlette
    from starlette.responses import Response
    from starlette.routing import Route

    from explorer.sandbox import Settings, create_app
    from explorer.sandbox.server import bind, config

    if kind == "sandbox":
        app = create_app(Settings(rate_limit=10**9, token_rate_limit=10**9))
    else:
        body = Path(body_file).read_bytes()
        media = "application/vnd.service.2023-01-01+json;charset=utf-8"

        async def endpoint(request):
            return Response(body, media_type=media)

        app = Starlette(routes=[Route(page, endpoint)])
    sock = bind("127.0.0.1", 0)
    print(sock.getsockname()[1], flush=True)
    uvicorn.Server(config(app, quiet=True)).run(sockets=[sock])


def start(kind: str, *arguments: str) -> tuple[subprocess.Popen, int]:
    """The server process and its port; terminate it when done."""
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.benchmarks.servers", kind, *arguments],
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    assert process.stdout is not None
    return process, int(process.stdout.readline())


def first_project(base: str) -> str:
    """The ID of the sandbox's first project, asked with its API key (no token spent)."""
    from explorer.sandbox import Settings
    from explorer.sandbox.links import API_ROOT

    settings = Settings()
    auth = httpx.DigestAuth(settings.public_key, settings.private_key)
    return str(httpx.get(base + API_ROOT + "/groups", auth=auth).json()["results"][0]["id"])


if __name__ == "__main__":
    serve(*sys.argv[1:])
