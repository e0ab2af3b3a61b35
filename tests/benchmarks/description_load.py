"""The API description's cost: indexing a 3 MB / 319-path document, the cached index, and launch.

    python tests/benchmarks/description_load.py [--runs 5]

The vendor's description may not be shipped, so one of its size and shape is made here from the
hand-made fixture (tests/fixtures/openapi/real-shape.json): its 47 paths, then more in the same
shape up to 319 paths and about 514 operations, each with `$ref` parameters, `x-rolesRequirements`,
tags, and 200s in one to three dated media types, each with a large inline schema, until the JSON
is about 3 MB. Its paths sit under the sandbox's API root and name its vendor and versions, so the
launch below is against a description that fits the service (the root's documented collections
in the tree). Written once as JSON and as YAML, in a temporary folder, and deleted after.

1. Cold load: `description.from_bytes` with an empty cache folder (parse, index, write the index),
   JSON and YAML, with the parse and the index timed apart.
2. Warm load: the same with the index cached (hash the document, read the index).
3. Launch: `explorer` started in a pseudo-terminal (120x40) against a local sandbox
   (`explorer sandbox --http --port 0`, another process), from process start to its first screen
   shown, that is, the root's `200 OK` in the status bar among the characters written to the
   terminal. Without a description, and with `--openapi FILE`: a cold cache (JSON, and YAML) and a
   warm one, run in turn round by round so the machine's moods fall on each alike.
Prints medians, spreads, ratios and the machine's load; asserts nothing.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import json
import os
import pty
import re
import select
import shutil
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from explorer.api import description  # noqa: E402
from tests.benchmarks.tui_performance import environment as compiled_environment  # noqa: E402

FIXTURE = ROOT / "tests" / "fixtures" / "openapi" / "real-shape.json"
PATHS, OPERATIONS, SIZE = 319, 514, 3 * 1024 * 1024  # the real description's, as the issue gives them
API_ROOT, VENDOR = "/api/service/v1.0", "service"  # the sandbox's
VERSIONS = ("2023-01-01", "2024-08-05")  # the sandbox's (a version it does not serve is a 406)
NOUNS = (
    "backupPolicies", "privateEndpoints", "integrations", "encryptionAtRest", "dataLakes", "triggers",
    "searchIndexes", "networkPeers", "serverlessInstances", "auditFilters", "exportBuckets", "pipelines",
    "maintenanceWindows", "liveMigrations", "customRoles", "ldapMappings", "streamProcessors",
    "invoices", "costExplorerQueries", "resourcePolicies",
)  # fmt: skip
WORDS = (
    "The", "identifier", "of", "the", "resource", "that", "this", "field", "names", "when", "it",
    "is", "returned", "by", "service", "and", "which", "cannot", "be", "changed", "after", "creation",
)  # fmt: skip
TERMINAL = (120, 40)
SHOWN = "200 OK"  # the status bar, once the root has come back
ESCAPES = re.compile(
    rb"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|P[^\x1b]*\x1b\\|[()][0-9A-Za-z]|[=>78DEHMc])"
)


# The description ---------------------------------------------------------------------------------


def sentence(seed: int, words: int = 14) -> str:
    return " ".join(WORDS[(seed * 7 + i * 3) % len(WORDS)] for i in range(words)) + "."


def schema(seed: int, properties: int) -> dict[str, Any]:
    """A large inline schema, as the vendor writes one per media type: described fields, nested objects."""
    fields: dict[str, Any] = {}
    for i in range(properties):
        name = f"{NOUNS[(seed + i) % len(NOUNS)][:-1]}{'Id' if i % 3 == 0 else 'Name' if i % 3 == 1 else 'Count'}{i}"
        if i % 6 == 5:
            fields[name] = {
                "type": "object",
                "description": sentence(seed + i),
                "properties": {
                    "enabled": {"type": "boolean", "description": sentence(seed + i + 1, 8)},
                    "mode": {"type": "string", "enum": ["NONE", "STANDARD", "FULL"], "description": sentence(i, 6)},
                },
            }
        else:
            kind = ("string", "integer", "boolean")[i % 3]
            fields[name] = {"type": kind, "description": sentence(seed + i), "readOnly": i % 2 == 0}
            if kind == "string":
                fields[name]["example"] = f"{seed:08x}{i:016x}"
    return {"type": "object", "title": f"Shape{seed}", "properties": fields}


def media(seed: int, versions: int, properties: int) -> dict[str, Any]:
    """The 200's content: one media type a version, each with its schema; the older sunset."""
    chosen = VERSIONS[-versions:] if versions <= len(VERSIONS) else VERSIONS
    content = {}
    for version in chosen:
        described: dict[str, Any] = {"schema": schema(seed, properties), "x-xgen-version": version}
        if version != chosen[-1]:
            described["x-sunset"] = "2027-07-01"
        content[f"application/vnd.{VENDOR}.{version}+json"] = described
    return content


def operation(seed: int, method: str, template: str, properties: int) -> dict[str, Any]:
    noun = template.rstrip("}").rsplit("/", 1)[-1].strip("{")
    parameters: list[Any] = [{"$ref": "#/components/parameters/envelope"}, {"$ref": "#/components/parameters/pretty"}]
    if "{groupId}" in template:
        parameters.append({"$ref": "#/components/parameters/groupId"})
    for variable in re.findall(r"\{(\w+)\}", template):
        if variable != "groupId":
            parameters.append({"in": "path", "name": variable, "required": True, "schema": {"type": "string"}})
    verb = {"get": "Return", "post": "Create", "patch": "Update", "delete": "Remove"}[method]
    found: dict[str, Any] = {
        "operationId": f"{method}{noun[:1].upper()}{noun[1:]}{seed}",
        "summary": f"{verb} {noun} ({seed})",
        "description": sentence(seed, 30),
        "tags": [NOUNS[seed % len(NOUNS)]],
        "parameters": parameters,
        "responses": {
            "200" if method != "post" else "201": {
                "description": "OK",
                "content": media(seed, 1 + seed % 3, properties),
            },
            "401": {"$ref": "#/components/responses/unauthorized"},
            "403": {"$ref": "#/components/responses/forbidden"},
            "404": {"$ref": "#/components/responses/notFound"},
        },
    }
    if seed % 32 != 0:  # on 498 of 514 in the real one
        found["x-rolesRequirements"] = ["Project Read Only" if method == "get" else "Project Owner"]
    if seed % 40 == 7:
        found["deprecated"] = True
        found["x-sunset"] = "2027-07-01"
    return found


def generate(properties: int) -> dict[str, Any]:
    """The fixture, moved under the sandbox's root, then grown to the real one's paths and operations."""
    text = FIXTURE.read_text().replace("/api/atlas/v2", API_ROOT).replace("vnd.atlas.", f"vnd.{VENDOR}.")
    document = json.loads(text)
    document["info"]["title"] = "Generated in the shape of the real description (a benchmark's, not the vendor's)"
    ours = f"application/vnd.{VENDOR}."
    for item in document["paths"].values():  # the fixture's operations keep the versions the sandbox serves
        for response in (r for o in item.values() if isinstance(o, dict) for r in o.get("responses", {}).values()):
            content = response.get("content", {})
            for name in [n for n in content if n.startswith(ours) and n[len(ours) :][:10] not in VERSIONS]:
                del content[name]
    paths: dict[str, Any] = document["paths"]
    collections = [template for template in paths if not template.endswith("}")]
    added: list[tuple[str, str]] = []  # (a list's template, its item's template)
    seed = 0
    while len(paths) < PATHS:  # a list and its item below the fixture's lists, in turn
        parent = collections[len(added) % len(collections)]
        noun = f"{NOUNS[len(added) % len(NOUNS)]}{len(added) // len(NOUNS) or ''}"
        listing, item = f"{parent}/{noun}", f"{parent}/{noun}/{{{noun}Id}}"
        paths[listing] = {"get": operation(seed, "get", listing, properties)}
        if len(paths) < PATHS:
            paths[item] = {"get": operation(seed + 1, "get", item, properties)}
        added.append((listing, item))
        seed += 2
    writes = [(item, "patch") for _, item in added] + [(listing, "post") for listing, _ in added]
    writes += [(item, "delete") for _, item in added]
    count = sum(1 for item in paths.values() for method in item if method in description.METHODS)
    for template, method in writes[: max(0, OPERATIONS - count)]:  # the rest are writes, as in the real one
        if template in paths:
            paths[template][method] = operation(seed, method, template, properties)
            seed += 1
    return document


def written(folder: Path) -> dict[str, Path]:
    """The generated description as JSON (about 3 MB) and as YAML, in `folder`."""
    import yaml

    properties = 8
    for _ in range(2):  # scale the schemas to the size aimed at
        data = json.dumps(generate(properties), indent=1).encode()
        properties = max(1, round(properties * SIZE / len(data)))
    document = generate(properties)
    files = {"JSON": folder / "description.json", "YAML": folder / "description.yaml"}
    files["JSON"].write_bytes(json.dumps(document, indent=1).encode())
    files["YAML"].write_text(yaml.dump(document, Dumper=getattr(yaml, "CSafeDumper", yaml.SafeDumper), sort_keys=False))
    return files


# Function timings --------------------------------------------------------------------------------


def timed(run: Any) -> float:
    started = time.perf_counter()
    run()
    return (time.perf_counter() - started) * 1000


def loads(files: dict[str, Path], runs: int, folder: Path) -> None:
    for kind, file in files.items():
        data = file.read_bytes()
        cold, parsing, indexing, warm = [], [], [], []
        for run in range(runs):
            cache = folder / f"cache-{kind}-{run}"
            cold.append(timed(lambda: description.from_bytes(str(file), data, cache)))  # noqa: B023
            warm.append(timed(lambda: description.from_bytes(str(file), data, cache)))  # noqa: B023
            parsed: list[Any] = []
            parsing.append(timed(lambda: parsed.append(description.parse(str(file), data))))  # noqa: B023
            indexing.append(timed(lambda: description.index(str(file), parsed[0])))  # noqa: B023
        index = next((folder / f"cache-{kind}-0").iterdir())
        found = description.from_bytes(str(file), data, folder / f"cache-{kind}-0")
        print(
            f"{kind} {len(data) / 1024 / 1024:.2f} MB, {len(found)} paths, {len(found.operations)} operations "
            f"(index {index.stat().st_size / 1024:.0f} KB):"
        )
        print(f"  cold  {figure(cold)}  (parse {figure(parsing)}, index {figure(indexing)})")
        print(f"  warm  {figure(warm)}")


def figure(timings: list[float]) -> str:
    return f"median {statistics.median(timings):.1f} ms, spread {min(timings):.1f}–{max(timings):.1f}"


# Launch in a pseudo-terminal ---------------------------------------------------------------------


def sandbox() -> tuple[subprocess.Popen[str], str]:
    """`explorer sandbox --http --port 0` in a process of its own; it and its API root."""
    process = subprocess.Popen(
        [*explorer_command(), "sandbox", "--http", "--port", "0", "--token-rate-limit", "100000",
         "--rate-limit", "100000"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=ROOT,
    )  # fmt: skip
    assert process.stdout is not None
    for line in process.stdout:
        if line.strip().startswith("API root"):
            return process, line.split()[-1]
    raise SystemExit("the sandbox did not start")


def explorer_command() -> list[str]:
    script = Path(sys.executable).with_name("explorer")
    return [str(script)] if script.exists() else [sys.executable, "-m", "explorer"]


def launch(base_url: str, openapi: Path | None, cache: Path, environment: dict[str, str]) -> float:
    """Milliseconds from process start to the root's 200 OK on its screen; the app is then quit."""
    home = Path(tempfile.mkdtemp(prefix="explorer-home-"))
    env = {
        **environment,
        "TERM": "xterm-256color",
        "COLUMNS": str(TERMINAL[0]),
        "LINES": str(TERMINAL[1]),
        "XDG_CONFIG_HOME": str(home / "config"),
        "XDG_DATA_HOME": str(home / "data"),
        "XDG_STATE_HOME": str(home / "state"),
        "XDG_CACHE_HOME": str(cache),
        "EXPLORER_CLIENT_SECRET": "mdb_sa_sk_sandbox-secret",
    }
    arguments = ["--base-url", base_url, "--client-id", "mdb_sa_id_sandbox"]
    arguments += ["--openapi", str(openapi)] if openapi else []
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", TERMINAL[1], TERMINAL[0], 0, 0))
    started = time.perf_counter()
    process = subprocess.Popen(
        [*explorer_command(), *arguments], stdin=follower, stdout=follower, stderr=follower,
        env=env, cwd=home, start_new_session=True,
    )  # fmt: skip
    os.close(follower)
    try:
        shown = until_shown(leader, started)
        os.write(leader, b"q")  # quit as a user does (the token is revoked), then drain what it writes
        deadline = time.monotonic() + 10
        while process.poll() is None and time.monotonic() < deadline:
            if select.select([leader], [], [], 0.05)[0]:
                with contextlib.suppress(OSError):
                    os.read(leader, 65536)
        return shown
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(5)
        os.close(leader)
        shutil.rmtree(home, ignore_errors=True)


def until_shown(leader: int, started: float, timeout: float = 30.0) -> float:
    """Read the terminal until the text written to it, escape sequences left out, shows SHOWN."""
    written, wanted = b"", SHOWN.encode()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not select.select([leader], [], [], 0.5)[0]:
            continue
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the program ended
            break
        now = time.perf_counter()
        written = (written + chunk)[-65536:]  # the last screenfuls: a line is written whole
        if wanted in ESCAPES.sub(b"", written):
            return (now - started) * 1000
    text = ESCAPES.sub(b"", written).decode("utf-8", "replace")
    raise SystemExit(f"the explorer did not show {SHOWN!r} in {timeout:g} s; last written: {text[-300:]!r}")


def launches(files: dict[str, Path], runs: int, folder: Path) -> None:
    environment = compiled_environment(folder / "home")  # compiled, as pip installs it
    server, base_url = sandbox()
    warm_cache = folder / "warm-cache"
    try:
        launch(base_url, files["JSON"], warm_cache, environment)  # fills the warm cache (and the OS's file cache)
        kinds: dict[str, Any] = {
            "without": lambda: launch(base_url, None, Path(tempfile.mkdtemp(dir=folder)), environment),
            "JSON, cold cache": lambda: launch(
                base_url, files["JSON"], Path(tempfile.mkdtemp(dir=folder)), environment
            ),
            "JSON, warm cache": lambda: launch(base_url, files["JSON"], warm_cache, environment),
            "YAML, cold cache": lambda: launch(
                base_url, files["YAML"], Path(tempfile.mkdtemp(dir=folder)), environment
            ),
        }
        timings: dict[str, list[float]] = {kind: [] for kind in kinds}
        names = list(kinds)
        for run in range(runs):  # round by round, each round starting with the next kind
            for kind in names[run % len(names) :] + names[: run % len(names)]:
                timings[kind].append(kinds[kind]())
    finally:
        server.terminate()
        server.wait(10)
    without = statistics.median(timings["without"])
    print(
        f"launch to the first screen shown (the root's {SHOWN}), in a {TERMINAL[0]}x{TERMINAL[1]} pseudo-terminal, "
        f"{runs} runs each:"
    )
    for kind, found in timings.items():
        ratio = "" if kind == "without" else f" · {statistics.median(found) / without:.2f}× without"
        print(f"  {kind:<17} median {statistics.median(found):.0f} ms, spread {min(found):.0f}–{max(found):.0f}{ratio}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores")
    folder = Path(tempfile.mkdtemp(prefix="description-load-"))
    try:
        files = written(folder)
        loads(files, args.runs, folder)
        launches(files, args.runs, folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
