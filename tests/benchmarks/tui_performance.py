"""The explorer screen's speed as a person feels it: in a pseudo-terminal, from process start.

    python tests/benchmarks/tui_performance.py [--runs 7] [--presses 30] [--sizes 5,50] [--only launch,…]

Every figure is read off the screen (tests/benchmarks/terminal.py): the program runs in a pty of
120 × 40, pyte turns its output into the text on screen, "shown" is the moment the bytes that put
the awaited text there arrived, and keys are written to the terminal as bytes.

1. Launch: the terminal opened (a pty, the program started in it) to the root's relations shown,
   for `explorer --demo` and for `explorer` on
   the sandbox served over HTTPS (`explorer sandbox`'s server, in this process), beside the floor
   (floor_app.py: Textual's own widgets in the explorer's tree, nothing fetched) and an empty run
   (Python printing the awaited line: what starting a process in the pty costs), alternating. The
   ratios are of the figures with the empty run's median taken out: the programs' own time. With
   `--against DIR`, that checkout's `explorer --demo` in the same rounds. `outside_launch.py`
   checks these figures against a measurement from outside (tmux, as a person's terminal).
2. `]` and `[` on a list of 1,234 events at 500 per page: the key to `page 2 of 3` (or 1) shown;
   then `-` and `+` (200 per page and back): the key to `page 1 of 7` (or 3) shown; then `]` and `[`
   in the floor's list of as many events (floor_app.py --pages). With `--against DIR` (another
   checkout, e.g. `git worktree add DIR HEAD~1`), that checkout's too, between two runs of this one.
3. A key while a big list loads: a served list of N MB (one page), opened with g; `?` pressed
   50 ms after the title names it, timed to its Keys screen shown; then the list's page line
   shown, from Enter.
4. Idle: CPU seconds used over 10 s with nothing to do, beside the floor's.
5. Watching (w): from Enter on the watch's question to its first version on the timeline, with no
   condition and with one (the first condition starts jq's own process); `?` answered while a watch
   fetches every second, beside `?` at rest; CPU over 10 s while it does, beside idle.
6. Watches at rest: CPU over 10 s with five clusters watched, each at 300 s between fetches, once
   the last fetch at 5 s is done; beside the floor idle.
7. Writes: a letter typed into a 1 MB body in the editor (a served entity's PATCH), to it shown,
   beside Textual's own TextArea with the same body and with 1 KB (floor_app.py BODY), alternating;
   ctrl+s to the preview's difference on the demo (a cluster's PATCH, one field changed).
8. History: `]` `[` and `-` `+` as in 2 with the history kept and with --no-history, run after run
   in turn (`--only history`).

Median and spread (min–max) of each, and the load average before and after. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from explorer.sandbox import Settings, create_app  # noqa: E402
from explorer.sandbox.server import ServerThread  # noqa: E402
from tests.benchmarks.floor_app import FLOOR_SHOWN  # noqa: E402
from tests.benchmarks.terminal import Terminal  # noqa: E402

EXPLORER = [sys.executable, "-m", "explorer"]
FLOOR = [sys.executable, str(ROOT / "tests" / "benchmarks" / "floor_app.py")]
ROOT_SHOWN = "groups  /groups"  # the root's relation, as the tree draws it
API = "/api/service/v1.0"


def environment(home: Path) -> dict[str, str]:
    """As an installed program runs: compiled modules (pip compiles at install), a config of its own."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    compiled(ROOT, env)
    folders = {name: str(home / name.lower()) for name in ("XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME")}
    return {**env, "HOME": str(home), **folders}


def figures(values: list[float], unit: str = "ms") -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return (
        f"median {statistics.median(ordered):.0f} {unit} · p95 {p95:.0f} · spread {ordered[0]:.0f}–{ordered[-1]:.0f}"
        f" ({len(ordered)})"
    )


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg()) + f" on {os.cpu_count()} cores"


EMPTY = [sys.executable, "-c", f"print({ROOT_SHOWN!r})"]


def launch(command: list[str], shown: str, env: dict[str, str], cwd: Path = ROOT) -> float:
    """Milliseconds from the terminal opened to `shown` on its screen (`cwd`: the checkout run)."""
    with Terminal(command, env=env, cwd=cwd) as term:
        return (term.shown(shown) - term.started) * 1000


@contextmanager
def served_over_https(env: dict[str, str], home: Path) -> Iterator[dict[str, str]]:
    """The sandbox as `explorer sandbox` serves it (HTTPS, its own authority), and the environment
    that points the explorer at it."""
    from explorer.sandbox.tls import server_files

    files = server_files(home / "tls", ["127.0.0.1"])
    settings = Settings()
    with ServerThread(create_app(settings), tls=files) as server:
        yield {
            **env,
            "EXPLORER_BASE_URL": server.url + API,
            "EXPLORER_CLIENT_ID": settings.client_id,
            "EXPLORER_CLIENT_SECRET": settings.client_secret,
            "EXPLORER_CA_BUNDLE": str(files.ca),
        }


def launches(runs: int, env: dict[str, str], home: Path, against: Path | None = None) -> None:
    """Launch figures: each program once a round, the rounds one after another; with `against`,
    that checkout's `explorer --demo` too, in the same rounds."""
    kinds: dict[str, list[float]] = {"empty run": [], "floor": [], "explorer --demo": [], "explorer, HTTPS": []}
    theirs = f"explorer --demo, {against}" if against is not None else ""
    if against is not None:
        kinds[theirs] = []
        compiled(against, env)
    with served_over_https(env, home) as https:
        for _ in range(runs):  # alternating, so that the machine's moods fall on all alike
            kinds["empty run"].append(launch(EMPTY, ROOT_SHOWN, env))
            kinds["floor"].append(launch(FLOOR, FLOOR_SHOWN, env))
            kinds["explorer --demo"].append(launch([*EXPLORER, "--demo"], ROOT_SHOWN, env))
            kinds["explorer, HTTPS"].append(launch(EXPLORER, ROOT_SHOWN, https))
            if against is not None:
                other = {**env, "PYTHONPATH": str(against)}
                kinds[theirs].append(launch([*EXPLORER, "--demo"], ROOT_SHOWN, other, cwd=against))
    empty = statistics.median(kinds["empty run"])
    floor = [value - empty for value in kinds["floor"]]
    print("launch, terminal opened (the pty, the program started in it) to the root shown (120 × 40):")
    for name, values in kinds.items():
        print(f"  {name:16} {figures(values)}")
    for name in ("explorer --demo", "explorer, HTTPS", *([theirs] if theirs else [])):
        ratios = [(value - empty) / under for value, under in zip(kinds[name], floor, strict=True)]
        print(
            f"  {name} ÷ floor, the empty run's {empty:.0f} ms out of both: median {statistics.median(ratios):.2f}"
            f" · spread {min(ratios):.2f}–{max(ratios):.2f}"
        )
    if theirs:
        ours = statistics.median(kinds["explorer --demo"]) / statistics.median(kinds[theirs])
        print(f"  this checkout ÷ {against}, medians: {ours:.2f}")


def compiled(checkout: Path, env: dict[str, str]) -> None:
    """Its modules compiled, as an installed program's are (pip compiles at install)."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(checkout / "explorer")], check=True, env=env)


def turns(term: Terminal, presses: int, pair: tuple[tuple[bytes, str], tuple[bytes, str]]) -> list[float]:
    """ms from each key of `pair` in turn to its page line shown, `presses` keys (an even number: the
    list ends on the page it began on)."""
    timings = []
    for index in range(presses - presses % 2):
        key, expected = pair[index % 2]
        sent = term.press(key)
        timings.append((term.shown(expected) - sent) * 1000)
        time.sleep(0.15)  # a person's pace: the next key after the page is read
    return timings


def page_turns(
    presses: int, env: dict[str, str], against: Path | None = None, flags: tuple[str, ...] = (), floor: bool = True
) -> dict[str, list[float]]:
    """ms from each key to its page line shown: `]` and `[` in turn, then `-` and `+` (500 per page to
    200 and back), `presses` of each kind, on 1,234 events; then `]` and `[` in the floor's list
    (floor_app.py --pages: Textual's Tree and DataTable doing the same). `against`: the explorer of
    that checkout instead, run from its folder (`python -m` looks in the current folder first)."""
    project = create_app(Settings()).state.sandbox.world.project_named("production").id
    turning = ((b"]", "page 2 of 3"), (b"[", "page 1 of 3"))
    if against is not None:
        env = {**env, "PYTHONPATH": str(against)}
    with Terminal([*EXPLORER, "--demo", *flags], env=env, cwd=against or ROOT) as term:
        term.shown(ROOT_SHOWN)
        term.press(b"g")
        term.shown("Go to a path under the API root")
        term.press(f"/groups/{project}/events?itemsPerPage=500".encode(), "enter")
        term.shown("page 1 of 3")
        time.sleep(0.3)
        timings = {
            "] and [": turns(term, presses, turning),
            "- and +": turns(term, presses, ((b"-", "page 1 of 7"), (b"+", "page 1 of 3"))),
        }
    if floor:
        with Terminal([*FLOOR, "--pages"], env=env) as term:
            term.shown("page 1 of 3")
            time.sleep(0.3)
            timings["] and [ in the floor"] = turns(term, presses, turning)
    return timings


def history_cost(runs: int, presses: int, env: dict[str, str]) -> None:
    """Page turns (`]` `[`: a 500-event page fetched, about 200 KB kept in the history each) and
    fetches (`-` `+`: the list fetched again at another size) with the history kept, beside the same
    with --no-history, run after run in turn. The history is a new file in the run's own state folder."""
    kept: dict[str, list[float]] = {}
    none: dict[str, list[float]] = {}
    for _ in range(runs):
        for into, flags in ((kept, ()), (none, ("--no-history",))):
            for kind, keys in page_turns(presses, env, flags=flags, floor=False).items():
                into.setdefault(kind, []).extend(keys)
    print("history kept, beside --no-history (key to the page line shown):")
    for kind in kept:
        print(f"  {kind:8} kept {figures(kept[kind])}")
        print(f"  {'':8} none {figures(none[kind])}")


EVENT = {
    "id": "0123456789abcdef01234567",
    "created": "2026-11-01T09:00:00Z",
    "eventTypeName": "CLUSTER_UPDATE_COMPLETED",
    "groupId": "0123456789abcdef01234567",
    "clusterName": "orders-prod",
    "remoteAddress": "203.0.113.9",
    "links": [{"href": "https://sandbox.invalid/api/service/v1.0/groups/x/events/y", "rel": "self"}],
}


def events_page(count: int) -> bytes:
    """A page of `count` events, all of them in it."""
    return json.dumps({"links": [], "results": [EVENT] * count, "totalCount": count}).encode()


def big_list(megabytes: int) -> bytes:
    return events_page(megabytes * 1024 * 1024 // len(json.dumps(EVENT)))


def big_entity(megabytes: int = 1) -> bytes:
    """An entity whose PATCH body, as the editor prefills it (indented, without `id` and `links`), is
    `megabytes` MB: a name, then tags."""

    def tag(index: int) -> dict[str, str]:
        return {"key": f"k{index:06d}", "value": "v" * 24}

    count = megabytes * 1024 * 1024 // len(json.dumps(tag(0), indent=2)) + 1
    tags = [tag(index) for index in range(count)]
    return json.dumps({"id": "0123456789abcdef01234567", "links": [], "name": "big", "tags": tags}).encode()


class BigLists:
    """A service with a root; at /big/N, a list of N megabytes in one page; at /big/entity, an
    entity of about 1 MB (big_entity); at /big/page, a page of 100 events (31 KB)."""

    def __init__(self, sizes: list[int]) -> None:
        self.bodies = {f"{API}/big/{size}": big_list(size) for size in sizes}
        self.bodies[f"{API}/big/entity"] = big_entity()
        self.bodies[f"{API}/big/page"] = events_page(100)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        path = scope["path"]
        if path == "/api/oauth/token":
            body = json.dumps({"access_token": "t", "token_type": "Bearer", "expires_in": 3600}).encode()
        elif path == API:
            links = [{"rel": "self", "href": API}, {"rel": "groups", "href": API + "/groups"}]
            body = json.dumps({"links": links}).encode()
        else:
            body = self.bodies.get(path, b'{"results": [], "totalCount": 0}')
        headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": body})


@contextmanager
def big_lists(sizes: list[int], env: dict[str, str]) -> Iterator[dict[str, str]]:
    with ServerThread(BigLists(sizes)) as server:
        yield {**env, "EXPLORER_BASE_URL": server.url + API, "EXPLORER_CLIENT_ID": "c", "EXPLORER_CLIENT_SECRET": "s"}


def key_at_rest(env: dict[str, str]) -> float:
    """ms from `?` to its Keys screen with nothing else to do: what a key costs at best."""
    with Terminal([*EXPLORER, "--demo"], env=env) as term:
        term.shown(ROOT_SHOWN)
        time.sleep(0.5)
        asked = term.press(b"?")
        return (term.shown("Keys") - asked) * 1000


def key_while_loading(size: int, env: dict[str, str]) -> tuple[float, float]:
    """(ms from `?` to its screen, ms from Enter to the list's page line), a list of `size` MB loading."""
    with Terminal(EXPLORER, env=env) as term:
        term.shown("▶ groups")
        time.sleep(0.3)
        term.press(b"g")
        term.shown("Go to a path under the API root")
        entered = term.press(f"/big/{size}".encode(), "enter")
        term.shown(f"explorer — {env['EXPLORER_BASE_URL']}/big/{size}")  # the fetch began: the title says so
        time.sleep(0.05)
        asked = term.press(b"?")
        answered = term.shown("Keys", timeout=120)
        term.press("escape")
        listed = term.shown(" items · ", timeout=120)
        return (answered - asked) * 1000, (listed - entered) * 1000


def clusters() -> list[tuple[str, str]]:
    """(project id, cluster name) of the demo's clusters, production's first."""
    world = create_app(Settings()).state.sandbox.world
    return [(project.id, name) for project in world.projects.values() for name in project.clusters]


def open_cluster(term: Terminal, project: str | None = None, name: str = "orders-prod") -> None:
    """g to a cluster (the first production cluster), its page shown."""
    project = project or clusters()[0][0]
    term.press(b"g")
    term.shown("Go to a path under the API root")
    term.press(f"/groups/{project}/clusters/{name}".encode(), "enter")
    term.shown(f"name: {name}")
    time.sleep(0.3)


def watch_started(condition: str, env: dict[str, str]) -> float:
    """ms from Enter on w's question to the first version on the Watch pane's timeline."""
    with Terminal([*EXPLORER, "--demo"], env=env) as term:
        term.shown(ROOT_SHOWN)
        open_cluster(term)
        term.press(b"w")
        term.shown("until (a jq condition")
        sent = term.press(condition.encode(), "enter")
        return (term.shown("#1  200") - sent) * 1000


def while_watching(env: dict[str, str], seconds: float = 10.0) -> tuple[float, float]:
    """(ms from `?` to its screen, CPU seconds over `seconds`) while a watch fetches every second."""
    with Terminal([*EXPLORER, "--demo"], env=env) as term:
        term.shown(ROOT_SHOWN)
        open_cluster(term)
        term.press(b"w")
        term.shown("until (a jq condition")
        term.press("enter")
        term.shown("#1  200")
        term.press(b"-")
        term.shown("every 2 s")
        term.press(b"-")
        term.shown("every 1 s")
        time.sleep(1.5)
        cpu = term.cpu_over(seconds)
        asked = term.press(b"?")
        return (term.shown("Keys") - asked) * 1000, cpu


def five_watches_at_rest(env: dict[str, str], seconds: float = 10.0) -> float:
    """CPU seconds over `seconds` with five clusters watched, each moved to 300 s between fetches
    once its first version came: the watches at rest, between fetches."""
    with Terminal([*EXPLORER, "--demo"], env=env) as term:
        term.shown(ROOT_SHOWN)
        for project, name in clusters()[:5]:
            open_cluster(term, project, name)
            term.press(b"w")
            term.shown("until (a jq condition")
            term.press("enter")
            term.shown(f"Watching {name} · every 5 s")
            for every in (10, 15, 30, 60, 120, 300):
                term.press(b"+")
                term.shown(f"Watching {name} · every {every} s")
            term.press(b"1")  # back to the Page pane, where the next cluster is shown
        time.sleep(6.0)  # each watch's wait at 5 s, begun before its +, ends with a fetch: then 300 s
        return term.cpu_over(seconds)


def typed_into(term: Terminal, presses: int) -> list[float]:
    """ms from each letter typed after `"big` (the name's value) to it shown."""
    typed = []
    for count in range(1, presses + 1):
        sent = term.press(b"Q")
        typed.append((term.shown('"big' + "Q" * count + '"') - sent) * 1000)
        time.sleep(0.1)  # a quick typist's pace
    return typed


def editor_keys(served: dict[str, str], presses: int) -> list[float]:
    """ms from each letter typed into a 1 MB body in the write editor (big_entity's PATCH, its JSON
    checked as it is typed) to the letter shown."""
    with Terminal(EXPLORER, env={**served, "EXPLORER_WRITES": "1"}) as term:
        term.shown("▶ groups")
        term.press(b"g")
        term.shown("Go to a path under the API root")
        term.press(b"/big/entity", "enter")
        term.shown("name: big")
        time.sleep(0.3)
        term.press(b"a")
        term.shown("PATCH")
        term.press("enter")
        term.shown('"name": "big"', timeout=60)
        term.press("down", "end", "left", "left")  # into the name's value: each letter keeps it JSON
        time.sleep(1.0)
        return typed_into(term, presses)


def editor_floor_keys(body: Path, env: dict[str, str], presses: int) -> list[float]:
    """The same letters typed into Textual's own TextArea with the same body (floor_app.py BODY)."""
    with Terminal([*FLOOR, str(body)], env=env) as term:
        term.shown('"name": "big"', timeout=60)
        time.sleep(1.0)
        return typed_into(term, presses)


def preview_shown(env: dict[str, str]) -> float:
    """ms from ctrl+s in the editor (a cluster's PATCH, one field changed) to the preview's field
    difference against the cluster fetched again then."""
    with Terminal([*EXPLORER, "--demo", "--writes"], env=env) as term:
        term.shown(ROOT_SHOWN)
        open_cluster(term)
        term.press(b"a")
        term.shown("PATCH  Update one cluster")
        term.press("enter")
        term.shown('"diskSizeGB": 10.0')
        term.press("down", "down", "end", "left", *[b"\x7f"] * 4, b"20.0")
        term.shown('"diskSizeGB": 20.0')
        time.sleep(0.5)
        sent = term.press(b"\x13")  # ctrl+s
        return (term.shown("~ .diskSizeGB: 10.0 → 20.0") - sent) * 1000


def idle_cpu(command: list[str], shown: str, env: dict[str, str], seconds: float = 10.0) -> float:
    with Terminal(command, env=env) as term:
        term.shown(shown)
        time.sleep(1.0)
        return term.cpu_over(seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--presses", type=int, default=30)
    parser.add_argument("--sizes", default="5,50", help="MB of the big lists, comma-separated")
    parser.add_argument("--only", default="launch,pages,big,idle,watch,watches,writes,history")
    parser.add_argument(
        "--against",
        type=Path,
        help="another checkout (a git worktree of an earlier commit): its launch and page turns too, alternating",
    )
    args = parser.parse_args()
    only = set(args.only.split(","))
    home = Path(os.environ.get("TMPDIR", "/tmp")) / f"explorer-bench-{os.getpid()}"
    env = environment(home)
    print(f"load average before: {load()}")
    if "launch" in only:
        launches(args.runs, env, home, args.against)
    if "pages" in only:
        timings = page_turns(args.presses, env)
        theirs: dict[str, list[float]] = {}
        if args.against is not None:  # alternating: theirs, then ours again
            theirs = page_turns(args.presses, env, args.against)
            for kind, keys in page_turns(args.presses, env).items():
                timings[kind] += keys
        for kind, keys in timings.items():
            print(f"{kind} on 1,234 events at 500 per page, key to the page line shown: {figures(keys)}")
        for kind, keys in theirs.items():
            print(f"  {args.against}: {kind} {figures(keys)}")
        ratio = statistics.median(timings["] and ["]) / statistics.median(timings["] and [ in the floor"])
        print(f"] and [, explorer ÷ floor, medians: {ratio:.2f}")
    if "history" in only:
        history_cost(max(2, args.runs // 2), args.presses, env)
    if "big" in only:
        sizes = [int(size) for size in args.sizes.split(",")]
        print(f"? answered at rest (nothing loading): {figures([key_at_rest(env) for _ in range(3)])}")
        with big_lists(sizes, env) as served:
            for size in sizes:
                runs = [key_while_loading(size, served) for _ in range(3)]
                print(f"a {size} MB list loading: ? answered {figures([r[0] for r in runs])}")
                print(f"                   list shown from Enter {figures([r[1] for r in runs])}")
    if "idle" in only:
        ours = idle_cpu([*EXPLORER, "--demo"], ROOT_SHOWN, env)
        floor = idle_cpu(FLOOR, FLOOR_SHOWN, env)
        print(f"idle 10 s: explorer {ours:.2f} s of CPU · floor {floor:.2f} s · ratio {ours / max(floor, 0.01):.1f}")
    if "watch" in only:
        plain, conditioned = [], []
        for _ in range(args.runs):  # alternating
            plain.append(watch_started("", env))
            conditioned.append(watch_started('.stateName == "IDLE"', env))
        print("w, Enter to the first version on the timeline:")
        print(f"  no condition                 {figures(plain)}")
        print(f'  .stateName == "IDLE" (jq)   {figures(conditioned)}')
        rest, busy, cpus, idles = [], [], [], []
        for _ in range(3):
            rest.append(key_at_rest(env))
            answered, cpu = while_watching(env)
            busy.append(answered)
            cpus.append(cpu)
            idles.append(idle_cpu([*EXPLORER, "--demo"], ROOT_SHOWN, env))
        print(f"? answered at rest {figures(rest)} · while a watch fetches every 1 s {figures(busy)}")
        watching_cpu = f"{statistics.median(cpus):.2f} s (spread {min(cpus):.2f}–{max(cpus):.2f})"
        idle = f"{statistics.median(idles):.2f} s (spread {min(idles):.2f}–{max(idles):.2f})"
        print(f"CPU over 10 s: watching every 1 s {watching_cpu} · idle {idle}")
    if "watches" in only:
        watched = [five_watches_at_rest(env) for _ in range(3)]
        floors = [idle_cpu(FLOOR, FLOOR_SHOWN, env) for _ in range(3)]
        print(
            f"five watches at rest (300 s apart), CPU over 10 s: {statistics.median(watched):.2f} s"
            f" (spread {min(watched):.2f}–{max(watched):.2f}) · floor idle {statistics.median(floors):.2f} s"
        )
    if "writes" in only:
        entity = json.loads(big_entity())
        body = home / "body.json"
        home.mkdir(parents=True, exist_ok=True)
        body.write_text(json.dumps({k: v for k, v in entity.items() if k not in ("id", "links")}, indent=2))
        small = home / "small.json"
        small.write_text(json.dumps({"name": "big", "tags": entity["tags"][:10]}, indent=2))
        ours, floor, least = [], [], []
        with big_lists([], env) as served:
            for _ in range(3):  # alternating
                ours += editor_keys(served, args.presses)
                floor += editor_floor_keys(body, env, args.presses)
                least += editor_floor_keys(small, env, args.presses)
        print(f"a letter typed in a 1 MB body, to it shown: {figures(ours)}")
        print(f"                     Textual's TextArea alone: {figures(floor)}")
        ratio = statistics.median(ours) / statistics.median(floor)
        print(f"                     explorer ÷ floor, medians: {ratio:.2f}")
        print(f"                     Textual's TextArea with 1 KB: {figures(least)}")
        print(f"ctrl+s to the preview's difference: {figures([preview_shown(env) for _ in range(args.runs)])}")
    print(f"load average after: {load()}")


if __name__ == "__main__":
    main()
