"""Sandbox throughput under uvicorn on loopback, beside a bare Starlette floor serving the same bytes.

    python tests/benchmarks/sandbox_throughput.py [--seconds 5] [--clients 30]

Each server runs in its own process; the load comes from this one, over 30 keep-alive
connections, each fetching a 100-item page (the production project's events) as fast as it is
answered. Prints requests per second and p50/p99 latency for both, then the time to create the
app in process. Figures, not assertions: nothing here passes or fails.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from explorer.sandbox import Settings, create_app  # noqa: E402
from tests.benchmarks.servers import start  # noqa: E402

API = "/api/service/v1.0"


async def fetch_page(port: int) -> tuple[str, str, bytes]:
    """A token, the path of a 100-item page, and its body as the sandbox serves it."""
    import httpx

    settings = Settings()
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as client:
        token = (
            await client.post(
                "/api/oauth/token",
                auth=(settings.client_id, settings.client_secret),
                data={"grant_type": "client_credentials"},
            )
        ).json()["access_token"]
        headers = {"Authorization": f"Bearer {token}"}
        groups = (await client.get(API + "/groups", headers=headers)).json()["results"]
        project = next(g["id"] for g in groups if g["name"] == "production")
        page = f"{API}/groups/{project}/events"
        response = await client.get(page, headers=headers)
        assert response.status_code == 200 and len(response.json()["results"]) == 100
        return token, page, response.content


async def one_client(port: int, request: bytes, stop: float, latencies: list[float], sizes: list[int]) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        while time.perf_counter() < stop:
            started = time.perf_counter()
            writer.write(request)
            head = await reader.readuntil(b"\r\n\r\n")
            length = next(
                int(line.split(b":")[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:")
            )
            body = await reader.readexactly(length)
            latencies.append(time.perf_counter() - started)
            sizes.append(len(body))
            if not head.startswith(b"HTTP/1.1 200"):
                raise RuntimeError(head.decode(errors="replace"))
    finally:
        writer.close()


async def load(port: int, page: str, token: str, clients: int, seconds: float) -> dict[str, float]:
    request = (
        f"GET {page} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAuthorization: Bearer {token}\r\n"
        "Accept: application/json\r\n\r\n"
    ).encode()
    warm: list[float] = []
    await asyncio.gather(*(one_client(port, request, time.perf_counter() + 1.0, warm, []) for _ in range(clients)))
    latencies: list[float] = []
    sizes: list[int] = []
    started = time.perf_counter()
    await asyncio.gather(*(one_client(port, request, started + seconds, latencies, sizes) for _ in range(clients)))
    elapsed = time.perf_counter() - started
    ordered = sorted(latencies)
    return {
        "rps": len(latencies) / elapsed,
        "p50": statistics.median(ordered) * 1000,
        "p99": ordered[int(len(ordered) * 0.99) - 1] * 1000,
        "bytes": statistics.mean(sizes),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--clients", type=int, default=30)
    args = parser.parse_args()

    sandbox, port = start("sandbox")
    try:
        token, page, body = asyncio.run(fetch_page(port))
        sandbox_figures = asyncio.run(load(port, page, token, args.clients, args.seconds))
    finally:
        sandbox.terminate()
        sandbox.wait()
    body_file = Path("/tmp/explorer-bench-page.json")
    body_file.write_bytes(body)
    floor, port = start("floor", page, str(body_file))
    try:
        floor_figures = asyncio.run(load(port, page, token, args.clients, args.seconds))
    finally:
        floor.terminate()
        floor.wait()

    create = []
    for _ in range(20):
        started = time.perf_counter()
        create_app()
        create.append((time.perf_counter() - started) * 1000)

    print(
        f"{args.clients} keep-alive clients, {args.seconds:.0f} s each, GET a 100-item page "
        f"({sandbox_figures['bytes'] / 1024:.1f} KiB) on loopback"
    )
    print(f"{'':10} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8}")
    for name, figures in (("sandbox", sandbox_figures), ("floor", floor_figures)):
        print(f"{name:10} {figures['rps']:8.0f} {figures['p50']:8.1f} {figures['p99']:8.1f}")
    print(f"sandbox / floor throughput: {sandbox_figures['rps'] / floor_figures['rps']:.2f}")
    print(f"create_app() in process: median {statistics.median(create):.1f} ms over 20")
    print(json.dumps({"sandbox": sandbox_figures, "floor": floor_figures, "create_ms": statistics.median(create)}))


if __name__ == "__main__":
    main()
