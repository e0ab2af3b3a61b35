"""The explorer beside its peers, where they can be installed: Posting (a Textual TUI for HTTP) and
HTTPie (a command line for HTTP). Neither is a dependency: give their programs' paths.

    python tests/benchmarks/peers.py --posting PATH [--http PATH] [--runs 5]

1. Launch: process start to the first screen shown (the explorer: the demo's root; Posting: its
   empty collection), in a pty of 120 × 40 (terminal.py), beside the floor, alternating.
2. A 5 MB list (16,750 items in one page) from a local server: from Enter on its URL to its first
   items on screen (the explorer: its page line; Posting: its pretty-printed body's first lines).
3. One request from the command line, to the process's end, its output to a pipe: `explorer get`
   (which gets a token first) and HTTPie's `http`, for a 100-item page (31 KB) and the 5 MB list.

Median and spread of each. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.benchmarks.floor_app import FLOOR_SHOWN  # noqa: E402
from tests.benchmarks.terminal import Terminal  # noqa: E402
from tests.benchmarks.tui_performance import (  # noqa: E402
    EXPLORER,
    FLOOR,
    ROOT_SHOWN,
    big_lists,
    environment,
    figures,
    key_while_loading,
    launch,
    load,
)

POSTING_SHOWN = "Collection is empty."


def posting_env(home: Path, env: dict[str, str]) -> dict[str, str]:
    return {**env, "XDG_CONFIG_HOME": str(home / "posting-config"), "XDG_DATA_HOME": str(home / "posting-data")}


def posting_big(posting: list[str], url: str, env: dict[str, str]) -> float:
    """ms from Enter on the URL in Posting to its body's first lines shown."""
    with Terminal(posting, env=env) as term:
        term.shown(POSTING_SHOWN)
        time.sleep(0.5)
        term.press(url.encode())
        term.shown(url[-30:])
        sent = term.press("enter")
        return (term.shown('"results": [', timeout=300) - sent) * 1000


def command_seconds(command: list[str], env: dict[str, str]) -> float:
    began = time.perf_counter()
    subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--posting", help="Posting's program")
    parser.add_argument("--http", help="HTTPie's program")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    home = Path(os.environ.get("TMPDIR", "/tmp")) / f"explorer-peers-{os.getpid()}"
    env = environment(home)
    collection = home / "collection"
    collection.mkdir(parents=True, exist_ok=True)
    posting = [args.posting, "--collection", str(collection)] if args.posting else None
    print(f"load average before: {load()}")
    if posting:
        kinds: dict[str, list[float]] = {"floor": [], "explorer --demo": [], "Posting": []}
        for _ in range(args.runs):  # alternating
            kinds["floor"].append(launch(FLOOR, FLOOR_SHOWN, env))
            kinds["explorer --demo"].append(launch([*EXPLORER, "--demo"], ROOT_SHOWN, env))
            kinds["Posting"].append(launch(posting, POSTING_SHOWN, posting_env(home, env)))
        print("launch, process start to the first screen shown:")
        for name, values in kinds.items():
            ratio = statistics.median(values) / statistics.median(kinds["floor"])
            print(f"  {name:16} {figures(values)} · ÷ floor {ratio:.2f}")
    with big_lists([5], env) as served:
        base = served["EXPLORER_BASE_URL"]
        if posting:
            ours = [key_while_loading(5, served)[1] for _ in range(3)]
            theirs = [posting_big(posting, f"{base}/big/5", posting_env(home, env)) for _ in range(3)]
            print("a 5 MB list, Enter on its URL to its first items shown:")
            print(f"  explorer  {figures(ours)}")
            print(f"  Posting   {figures(theirs)}")
        if args.http:
            for what, path in (("a 100-item page (31 KB)", "/big/page"), ("the 5 MB list", "/big/5")):
                ours, theirs = [], []
                for _ in range(args.runs):  # alternating
                    ours.append(command_seconds([*EXPLORER, "get", path], served))
                    theirs.append(command_seconds([args.http, "--ignore-stdin", "GET", base + path], served))
                print(f"one request for {what}, to the process's end:")
                print(f"  explorer get  {figures([s * 1000 for s in ours])}")
                print(f"  http          {figures([s * 1000 for s in theirs])}")
    print(f"load average after: {load()}")


if __name__ == "__main__":
    main()
