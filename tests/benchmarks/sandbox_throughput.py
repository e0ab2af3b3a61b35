"""Sandbox throughput under uvicorn on loopback, beside a bare Starlette floor serving the same bytes.

    python tests/benchmarks/sandbox_throughput.py [--seconds 5] [--clients 30] [--rounds 3]
    python tests/benchmarks/sandbox_throughput.py --tokens 30 --seconds 60

Each server runs in its own process; the load comes from this one, over 30 keep-alive
connections, each fetching a 100-item page (the production project's events) as fast as it is
answered. The sandbox and the floor are measured in alternating windows, `--rounds` of each; prints
requests per second and p50/p99 latency for both (median and spread over the rounds), then the
time to create the app in process.

With `--tokens N`, a token-heavy mix instead: N clients asking the token endpoint for tokens, as
fast as they are answered, beside the GET clients, for `--seconds`; prints both rates per 5-second
window, each window's share of the first, and the sandbox's resident memory during the load and
10 s after it stops. Figures, not assertions: nothing here passes or fails.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import os
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


async def one_client(
    port: int, request: bytes, stop: float, latencies: list[float], sizes: list[int], done: list[float] | None = None
) -> None:
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
            if done is not None:
                done.append(time.perf_counter())
            if not head.startswith(b"HTTP/1.1 200"):
                raise RuntimeError(head.decode(errors="replace"))
    finally:
        writer.close()


def token_request(port: int) -> bytes:
    settings = Settings()
    basic = base64.b64encode(f"{settings.client_id}:{settings.client_secret}".encode()).decode()
    body = "grant_type=client_credentials"
    return (
        f"POST /api/oauth/token HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAuthorization: Basic {basic}\r\n"
        f"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {len(body)}\r\n\r\n{body}"
    ).encode()


def get_request(port: int, page: str, token: str) -> bytes:
    return (
        f"GET {page} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAuthorization: Bearer {token}\r\n"
        "Accept: application/json\r\n\r\n"
    ).encode()


async def mixed(port: int, page: str, token: str, clients: int, tokens: int, seconds: float) -> dict[str, list[float]]:
    """When each GET and each token answer came, over `seconds` of both kinds of load at once."""
    gets: list[float] = []
    issued: list[float] = []

    async def timed(request: bytes, done: list[float], stop: float) -> None:
        latencies: list[float] = []
        await one_client(port, request, stop, latencies, [], done)

    started = time.perf_counter()
    stop = started + seconds
    await asyncio.gather(
        *(timed(get_request(port, page, token), gets, stop) for _ in range(clients)),
        *(timed(token_request(port), issued, stop) for _ in range(tokens)),
    )
    return {"gets": [t - started for t in gets], "tokens": [t - started for t in issued]}


def spread(values: list[float], digits: int = 1) -> str:
    return f"median {statistics.median(values):.{digits}f} · spread {min(values):.{digits}f}–{max(values):.{digits}f}"


def resident_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def token_mix(args: argparse.Namespace) -> None:
    sandbox, port = start("sandbox")
    try:
        token, page, _ = asyncio.run(fetch_page(port))
        before = resident_mib(sandbox.pid)
        times = asyncio.run(mixed(port, page, token, args.clients, args.tokens, args.seconds))
        during = resident_mib(sandbox.pid)
        time.sleep(10)
        after = resident_mib(sandbox.pid)
    finally:
        sandbox.terminate()
        sandbox.wait()
    window = 5.0
    count = int(args.seconds // window)
    print(f"{args.tokens} token clients beside {args.clients} GET clients, {args.seconds:.0f} s, per 5 s window:")
    print(f"{'window':>8} {'tokens/s':>9} {'share':>6} {'GETs/s':>8} {'share':>6}")
    rates = {kind: [sum(1 for t in times[kind] if i * window <= t < (i + 1) * window) / window for i in range(count)]
             for kind in ("tokens", "gets")}  # fmt: skip
    for i in range(count):
        tokens, gets = rates["tokens"][i], rates["gets"][i]
        shares = tokens / rates["tokens"][0], gets / rates["gets"][0]
        print(f"{i * window:>6.0f} s {tokens:9.0f} {shares[0]:6.2f} {gets:8.0f} {shares[1]:6.2f}")
    print(f"lowest share of the first window: tokens {min(rates['tokens']) / rates['tokens'][0]:.2f}, "
          f"GETs {min(rates['gets']) / rates['gets'][0]:.2f}")  # fmt: skip
    print(f"sandbox resident memory: {before:.0f} MiB before, {during:.0f} MiB at the end of the load, "
          f"{after:.0f} MiB 10 s after")  # fmt: skip


async def load(port: int, page: str, token: str, clients: int, seconds: float) -> dict[str, float]:
    request = get_request(port, page, token)
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
    parser.add_argument("--rounds", type=int, default=3, help="alternating windows of each server")
    parser.add_argument("--tokens", type=int, default=0, help="token clients: the token-heavy mix instead")
    args = parser.parse_args()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores")
    if args.tokens:
        token_mix(args)
        print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        return

    sandbox, port = start("sandbox")
    token, page, body = asyncio.run(fetch_page(port))
    body_file = Path("/tmp/explorer-bench-page.json")
    body_file.write_bytes(body)
    floor, floor_port = start("floor", page, str(body_file))
    rounds: dict[str, list[dict[str, float]]] = {"sandbox": [], "floor": []}
    try:
        for _ in range(args.rounds):  # alternating windows, so that the machine's moods fall on both alike
            rounds["sandbox"].append(asyncio.run(load(port, page, token, args.clients, args.seconds)))
            rounds["floor"].append(asyncio.run(load(floor_port, page, token, args.clients, args.seconds)))
    finally:
        for process in (sandbox, floor):
            process.terminate()
            process.wait()

    create = []
    for _ in range(20):
        started = time.perf_counter()
        create_app()
        create.append((time.perf_counter() - started) * 1000)

    print(
        f"{args.clients} keep-alive clients, {args.rounds} alternating windows of {args.seconds:.0f} s each, "
        f"GET a 100-item page ({len(body) / 1024:.1f} KiB) on loopback"
    )
    for name, runs in rounds.items():
        for figure in ("rps", "p50", "p99"):
            values = [run[figure] for run in runs]
            print(f"  {name:8} {figure:4} {spread(values)}")
    ratios = [s["rps"] / f["rps"] for s, f in zip(rounds["sandbox"], rounds["floor"], strict=True)]
    print(f"sandbox / floor throughput: {spread(ratios, 2)}")
    print(f"create_app() in process: median {statistics.median(create):.1f} ms over 20")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
