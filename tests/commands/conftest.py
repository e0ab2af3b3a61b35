"""The command line as scripts run it: a sandbox on a real socket that notes every request it is sent,
and `explorer ARGUMENTS` against it.

A run is `explorer.cli.main(argv)` in this process (`in_process`): the environment as a script's
(no EXPLORER_* from outside, then the run's own), and stdin, stdout and stderr bytes that are not a
terminal, so every command behaves as in a pipe. A run costs what the command costs, and coverage
sees it. What only a program of its own can show (an exit code as the shell reads it, a signal, a
closed pipe, a pseudo-terminal) the test runs as one, and is marked `subprocess`.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import select
import subprocess
import sys
import time
import tty
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from explorer.sandbox import Settings, create_app
from explorer.sandbox.links import API_ROOT
from explorer.sandbox.server import ServerThread
from explorer.sandbox.tls import names_for, server_files

DEFAULTS = Settings()


@dataclass
class Run:
    code: int
    out: bytes
    err: str

    @property
    def json(self) -> Any:
        return json.loads(self.out)


def script_environment(given: Mapping[str, str]) -> dict[str, str]:
    """The environment a script gives `explorer`: this one without any EXPLORER_*, then `given`."""
    return {**{k: v for k, v in os.environ.items() if not k.startswith("EXPLORER_")}, **given}


def stream(data: io.BytesIO, errors: str = "strict") -> io.TextIOWrapper:
    """A text stream on bytes, as a pipe's: `.buffer` for bytes, unbuffered, and not a terminal."""
    return io.TextIOWrapper(data, encoding="utf-8", errors=errors, write_through=True)


def in_process(
    arguments: Sequence[str], environment: Mapping[str, str], stdin: bytes = b"", cwd: Path | None = None
) -> Run:
    """`explorer ARGUMENTS` as `python -m explorer` runs it, in this process: `environment` is the whole
    environment, stdin holds `stdin`, stdout and stderr are captured as written. A usage error's
    SystemExit is its exit code, as Python makes it. Everything is put back after."""
    from explorer.cli import main
    from explorer.tui import run_app

    out, err = io.BytesIO(), io.BytesIO()
    with pytest.MonkeyPatch.context() as patch:
        for name in os.environ.keys() - environment.keys():
            patch.delenv(name)
        for name, value in environment.items():
            patch.setenv(name, value)
        if cwd is not None:
            patch.chdir(cwd)
        patch.setattr(sys, "argv", ["explorer", *arguments])  # as the installed script is started
        patch.setattr(run_app, "run_app", screen_refused)  # a regression that reached the screen fails here
        patch.setattr(sys, "stdin", stream(io.BytesIO(stdin)))
        patch.setattr(sys, "stdout", stream(out))
        patch.setattr(sys, "stderr", stream(err, "backslashreplace"))  # Python's own for stderr
        try:
            code = main()
        except SystemExit as exit:
            code = exit_status(exit)
        return Run(code, out.getvalue(), err.getvalue().decode())


def screen_refused(app: Any) -> int:
    """In place of running the screen: a command run in a test's process never starts Textual there."""
    raise AssertionError(f"the screen was started ({type(app).__name__}): not in a command's test")


def exit_status(exit: SystemExit) -> int:
    """The status a process ends with on this SystemExit (a message is written to stderr, then 1)."""
    if exit.code is None or isinstance(exit.code, int):
        return exit.code or 0
    print(exit.code, file=sys.stderr)
    return 1


@dataclass
class Received:
    method: str
    path: str
    chunks: list[bytes] = field(default_factory=list)

    @property
    def body(self) -> bytes:
        return b"".join(self.chunks)


@dataclass
class Noting:
    """The sandbox app, noting each request as it comes (its body as the app reads it)."""

    app: Any
    received: list[Received] = field(default_factory=list)
    after: dict[str, Callable[[], None]] = field(default_factory=dict)  # path: what to do once it was answered

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        noted = Received(scope["method"], scope["path"])
        self.received.append(noted)

        async def reading() -> Any:
            message = await receive()
            if message["type"] == "http.request":
                noted.chunks.append(message.get("body", b""))
            return message

        await self.app(scope, reading, send)
        if (then := self.after.pop(scope["path"], None)) is not None:
            then()


@dataclass
class Sandbox:
    """A sandbox served at `url` (`app` None when nothing is), and a home for the runs' config and cache."""

    app: Any
    url: str
    home: Path
    noting: Noting | None = None
    extra_env: dict[str, str] = field(default_factory=dict)

    def environment(self, env: dict[str, str] | None = None) -> dict[str, str]:
        """A script's environment, with the sandbox's URL and credentials, then `env`."""
        return script_environment(
            {
                "XDG_CACHE_HOME": str(self.home / "cache"),
                "XDG_CONFIG_HOME": str(self.home / "config"),
                "XDG_STATE_HOME": str(self.home / "state"),
                "EXPLORER_BASE_URL": self.url + API_ROOT,
                "EXPLORER_CLIENT_ID": DEFAULTS.client_id,
                "EXPLORER_CLIENT_SECRET": DEFAULTS.client_secret,
                **self.extra_env,
                **(env or {}),
            }
        )

    def run(self, *arguments: str, env: dict[str, str] | None = None, stdin: bytes = b"") -> Run:
        """`explorer ARGUMENTS` in this process, stdin a pipe holding `stdin`, stdout and stderr captured."""
        return in_process(arguments, self.environment(env), stdin)

    def answered(self, path: str, then: Callable[[], None]) -> None:
        """Once the sandbox has answered a request for `path` (under the API root), it does `then`: the
        world changes between two fetches of a watch, as it would while the watch waits."""
        assert self.noting is not None
        self.noting.after[API_ROOT + path] = then

    def writes(self) -> list[tuple[str, str]]:
        """The writes the API was sent (a token request is none)."""
        assert self.noting is not None
        return [(r.method, r.path) for r in self.noting.received if r.method != "GET" and r.path.startswith(API_ROOT)]

    def live_tokens(self) -> int:
        tokens = self.app.state.sandbox.tokens.tokens.values()
        return sum(1 for t in tokens if not t.revoked and t.expires_at > self.app.state.sandbox.clock())

    def cached(self) -> list[Path]:
        folder = self.home / "cache" / "explorer" / "tokens"
        return list(folder.glob("*.json")) if folder.exists() else []

    @property
    def world(self) -> Any:
        return self.app.state.sandbox.world

    def project_id(self, name: str) -> str:
        return self.world.project_named(name).id

    def org_id(self) -> str:
        return next(iter(self.world.orgs))

    @property
    def api(self) -> str:
        return self.url + API_ROOT


def serve(tmp_path: Path, tls: bool = False, **settings: Any) -> Iterator[Sandbox]:
    """A sandbox with these settings on a real socket (HTTPS with its own authority if `tls`)."""
    app = create_app(Settings(**settings))
    noting = Noting(app)
    files = server_files(tmp_path / "tls", names_for("127.0.0.1")) if tls else None
    with ServerThread(noting, tls=files) as server:
        yield Sandbox(app, server.url, tmp_path, noting, {"EXPLORER_CA_BUNDLE": str(files.ca)} if files else {})


@pytest.fixture
def sandbox(tmp_path: Path, live_server: tuple[ServerThread, Any]) -> Sandbox:
    """The sandbox, on the session's server (tests/conftest.py), with its control endpoints (faults on
    demand); its token endpoints allow 3 tokens a minute, so a run that does not reuse the cached token
    shows; a cluster's operations last an hour, so a DELETING cluster stays, on the real clock."""
    server, switchboard = live_server
    app = create_app(Settings(control=True, token_rate_limit=3, operation_seconds=3600))
    switchboard.app = noting = Noting(app)
    return Sandbox(app, server.url, tmp_path, noting)


@dataclass
class Terminal:
    """What a run at a pseudo-terminal came to: its exit code, its stdout, and all the terminal showed."""

    code: int
    out: bytes
    shown: str  # stderr, at the terminal: the preview, the question, what followed


def read_until(descriptor: int, ending: bytes, deadline: float) -> bytes:
    """What the terminal shows up to `ending` (b"": until the program is done), within the deadline."""
    seen = b""
    while not (ending and ending in seen):
        left = deadline - time.monotonic()
        assert left > 0, f"the terminal showed {seen!r}, never {ending!r}"
        ready, _, _ = select.select([descriptor], [], [], left)
        if not ready:
            continue
        try:
            chunk = os.read(descriptor, 65536)
        except OSError:  # EIO: the program is done and everything was read
            chunk = b""
        if not chunk:
            assert not ending, f"the terminal showed {seen!r}, never {ending!r}"
            break
        seen += chunk
    return seen


def at_a_terminal(
    arguments: Sequence[str],
    environment: Mapping[str, str],
    *,
    typed_ahead: bytes = b"",
    question: bytes = b"",
    answer: bytes = b"",
    patience: float = 60.0,
) -> Terminal:
    """`explorer ARGUMENTS` as a program, its stdin and stderr a pseudo-terminal: `typed_ahead` is typed
    before it starts (before any question can be on the screen); once `question` shows, `answer` is typed.
    Only a failing run waits out `patience` (seconds)."""
    primary, secondary = os.openpty()
    tty.setraw(secondary)  # what the program wrote, byte for byte; what is typed is not echoed
    os.write(primary, typed_ahead)
    process = subprocess.Popen(
        [sys.executable, "-m", "explorer", *arguments],
        stdin=secondary,
        stdout=subprocess.PIPE,
        stderr=secondary,
        env=dict(environment),
    )
    os.close(secondary)
    try:
        deadline = time.monotonic() + patience
        shown = read_until(primary, question, deadline) if question else b""
        if answer:
            with contextlib.suppress(OSError):  # the program is gone already: what arrived says the rest
                os.write(primary, answer)
        shown += read_until(primary, b"", deadline)
        out, _ = process.communicate(timeout=max(1.0, deadline - time.monotonic()))
    finally:
        process.kill()
        os.close(primary)
    return Terminal(process.returncode, out, shown.decode())
