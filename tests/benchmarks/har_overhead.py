"""What --har costs a session: requests per second with and without a recording, and the file's size.

    python tests/benchmarks/har_overhead.py [--rounds 5] [--requests 200]

The sandbox is served by uvicorn in its own process. Two sessions fetch the same 100-item page
(about 60 KB) one request after another: one as usual, one writing each exchange to a HAR file,
redacted. They take turns, round after round, so a drift in the machine's speed falls on both.
Prints medians, the range, and the machine's load; asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))


from explorer.api.config import Credentials  # noqa: E402
from explorer.api.har import HarRecorder  # noqa: E402
from explorer.api.secret import Secret  # noqa: E402
from explorer.api.session import Session  # noqa: E402
from explorer.sandbox import Settings  # noqa: E402
from explorer.sandbox.links import API_ROOT  # noqa: E402
from tests.benchmarks.servers import first_project, start  # noqa: E402

SANDBOX = Settings()


async def rate(session: Session, path: str, requests: int) -> float:
    started = time.perf_counter()
    for _ in range(requests):
        assert (await session.fetch(path)).status == 200
    return requests / (time.perf_counter() - started)


async def measure(base: str, path: str, rounds: int, requests: int, har: Path) -> tuple[list[float], list[float]]:
    credentials = Credentials(
        base + API_ROOT, client_id=SANDBOX.client_id, client_secret=Secret(SANDBOX.client_secret), rate_limit=10**9
    )
    async with Session(credentials) as plain, Session(credentials) as recorded:
        recorded.recorder = HarRecorder(har, str(recorded.base_url))
        for session in (plain, recorded):
            await rate(session, path, 10)  # tokens, a warm pool
        plains, records = [], []
        for _ in range(rounds):
            plains.append(await rate(plain, path, requests))
            records.append(await rate(recorded, path, requests))
    return plains, records


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--requests", type=int, default=200, help="a round, per session")
    args = parser.parse_args()
    server, port = start("sandbox")
    try:
        base = f"http://127.0.0.1:{port}"
        project = first_project(base)
        with tempfile.TemporaryDirectory() as folder:
            har = Path(folder) / "bench.har"
            plains, records = asyncio.run(measure(base, f"/groups/{project}/events", args.rounds, args.requests, har))
            size = har.stat().st_size
        plain, recorded = statistics.median(plains), statistics.median(records)
        load = os.getloadavg()
        print(f"{args.rounds} alternating rounds of {args.requests} requests of a 100-item page, one at a time")
        print(f"  without --har: median {plain:.0f} req/s ({min(plains):.0f}–{max(plains):.0f})")
        print(f"  with --har:    median {recorded:.0f} req/s ({min(records):.0f}–{max(records):.0f}): "
              f"{(1 - recorded / plain) * 100:.0f} % fewer")  # fmt: skip
        print(f"  the file: {size / 2**20:.1f} MiB for {args.rounds * args.requests + 10} exchanges and a token")
        print(f"  load {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    finally:
        server.terminate()


if __name__ == "__main__":
    main()
