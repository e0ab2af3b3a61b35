"""What the explorer's client costs: requests per second through Session.fetch, beside bare httpx.

    python tests/benchmarks/client_throughput.py [--seconds 2] [--rounds 5] [--concurrency 10]

The sandbox is served by uvicorn in its own process. In this process, the same load runs twice
against it: through a bare httpx.AsyncClient with a fixed Bearer header, and through a Session
(its auth flow, hooks, rate-limit state and Resource). Two resources: a small entity, where the
client's own work weighs most, and a 100-item page. The two clients take turns, round after
round, so a drift in the machine's speed falls on both. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402

from explorer.api.config import Credentials  # noqa: E402
from explorer.api.secret import Secret  # noqa: E402
from explorer.api.session import Session  # noqa: E402
from explorer.sandbox import Settings  # noqa: E402
from explorer.sandbox.links import API_ROOT  # noqa: E402
from tests.benchmarks.servers import first_project, start  # noqa: E402

SANDBOX = Settings()


async def run_for(seconds: float, concurrency: int, one: callable) -> tuple[float, float]:
    """Requests per second, and this process's CPU milliseconds per request, with `concurrency`
    tasks each calling `one` until time is up."""
    done = 0
    stop = time.perf_counter() + seconds
    cpu = time.process_time()

    async def worker() -> None:
        nonlocal done
        while time.perf_counter() < stop:
            await one()
            done += 1

    started = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(concurrency)))
    return done / (time.perf_counter() - started), (time.process_time() - cpu) / done * 1000


async def measure(base: str, path: str, seconds: float, concurrency: int, rounds: int) -> list[tuple[float, float]]:
    """Each client's median requests per second and CPU ms per request, over alternating rounds."""
    credentials = Credentials(
        base + API_ROOT,
        client_id=SANDBOX.client_id,
        client_secret=Secret(SANDBOX.client_secret),
        rate_limit=10**9,
    )
    async with Session(credentials) as session:
        await session.fetch(path)  # the token, and a warm pool
        token = session.auth.token.value.reveal()

        async def through_session() -> None:
            resource = await session.fetch(path)
            assert resource.status == 200

        async with httpx.AsyncClient(headers={"Authorization": f"Bearer {token}"}) as bare:
            url = base + API_ROOT + path

            async def through_httpx() -> None:
                response = await bare.get(url)
                assert response.status_code == 200

            await run_for(0.5, concurrency, through_httpx)
            await run_for(0.5, concurrency, through_session)
            floors, ours = [], []
            for _ in range(rounds):
                floors.append(await run_for(seconds, concurrency, through_httpx))
                ours.append(await run_for(seconds, concurrency, through_session))
    return [(statistics.median(r for r, _ in runs), statistics.median(c for _, c in runs)) for runs in (floors, ours)]


async def in_memory(requests: int = 5000) -> tuple[float, float]:
    """Microseconds a request costs each client with no network at all: the client's own work."""
    body = b'{"links":[{"href":"https://h.example/x","rel":"self"}],"results":[],"totalCount":0}'

    def answer(request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/token"):
            return httpx.Response(200, json={"access_token": "t", "token_type": "Bearer", "expires_in": 3600})
        return httpx.Response(200, content=body, headers={"content-type": "application/json"})

    credentials = Credentials(
        "https://h.example/api/service/v1.0", client_id="c", client_secret=Secret("s"), rate_limit=10**9
    )
    path = "/groups/0123456789abcdef01234567/events"
    async with (
        Session(credentials, transport=httpx.MockTransport(answer)) as session,
        httpx.AsyncClient(transport=httpx.MockTransport(answer), headers={"Authorization": "Bearer t"}) as bare,
    ):
        await session.fetch(path)
        timings: dict[str, list[float]] = {"httpx": [], "Session": []}
        for _ in range(5):
            for name, one in (
                ("httpx", lambda: bare.get("https://h.example/api/service/v1.0" + path)),
                ("Session", lambda: session.fetch(path)),
            ):
                started = time.perf_counter()
                for _ in range(requests // 5):
                    await one()
                timings[name].append((time.perf_counter() - started) / (requests // 5) * 1e6)
    return statistics.median(timings["httpx"]), statistics.median(timings["Session"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="per round and client")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--concurrency", type=int, default=10)
    args = parser.parse_args()
    server, port = start("sandbox")
    try:
        base = f"http://127.0.0.1:{port}"
        project = first_project(base)
        print(
            f"{args.concurrency} concurrent requests, {args.rounds} alternating rounds of {args.seconds:g} s "
            "per client (medians), uvicorn sandbox on loopback"
        )
        print(
            f"{'':24} {'httpx req/s':>11} {'Session':>8} {'cost':>6}   "
            f"{'CPU ms/req httpx':>16} {'Session':>8} {'cost':>6}"
        )
        for name, path in (
            ("entity /groups/{id}", f"/groups/{project}"),
            ("100-item page", f"/groups/{project}/events"),
        ):
            (floor, floor_cpu), (ours, our_cpu) = asyncio.run(
                measure(base, path, args.seconds, args.concurrency, args.rounds)
            )
            print(
                f"{name:24} {floor:11.0f} {ours:8.0f} {1 - ours / floor:6.1%}   "
                f"{floor_cpu:16.3f} {our_cpu:8.3f} {our_cpu / floor_cpu - 1:6.1%}"
            )
    finally:
        server.terminate()
        server.wait()
    bare, ours = asyncio.run(in_memory())
    print(
        f"in memory (no network): httpx {bare:.0f} us, Session {ours:.0f} us a request: "
        f"the client adds {ours - bare:.0f} us"
    )


if __name__ == "__main__":
    main()
