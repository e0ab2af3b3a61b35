"""jq programs on documents: a watch's condition (`.stateName == "IDLE"`) and the JSON pane's filter.

Operators already pipe `explorer get` into jq, so conditions and filters are jq, run by jq's own C
library (the `jq` package), not by a language of ours. jq holds Python's lock while it runs, and a
program may never end (`until(false; .)`, `range(1e12)`): run in this process it would freeze the
screen or the command for good. So a program runs in a child process of its own (`JqRunner`), which
is stopped and replaced when a program takes longer than its limit (LIMIT, 2 s) or is cancelled.
A program is checked for its syntax here, at once (jq compiles in microseconds), so a mistake is
said as it is typed.

Limits: a program's first MAX_RESULTS results are kept (`range(1e9)` is cut there, and said); a
program runs at most LIMIT seconds.
"""

from __future__ import annotations

import asyncio
import json
import queue
import subprocess
import sys
import threading
from dataclasses import dataclass
from typing import Any

LIMIT = 2.0  # seconds a program may run on one document
MAX_RESULTS = 1000  # results kept of one run
STARTING = 10.0  # seconds the child may take to start (Python and jq imported): it says when it is ready
READY = b'{"ready": true}\n'  # the child's first line, once jq is imported: a program's time starts after it


ENDED = "the jq process ended unexpectedly; it is started again for the next program"


class JqError(ValueError):
    """A program that does not compile, fails on the document, or does not end in time: said in a line."""


@dataclass(frozen=True)
class Outcome:
    """What a program gave for one document: its results (at most MAX_RESULTS; `cut` when it had more)."""

    results: list[Any]
    cut: bool = False

    @property
    def holds(self) -> bool:
        """A condition holds when its last result is neither false nor null, as `jq -e` exits 0."""
        return bool(self.results) and self.results[-1] is not False and self.results[-1] is not None  # 0 is true


def compiled(program: str) -> Any:
    """The program compiled, or JqError with jq's own message, in one line: said as it is typed."""
    import jq

    if not program.strip():
        raise JqError("the jq program is empty")
    try:
        return jq.compile(program)
    except ValueError as error:
        raise JqError(jq_message(error)) from None


def jq_message(error: Exception) -> str:
    """jq's message, without its `jq: error:` lead and its caret drawing: one line."""
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    first = lines[0] if lines else type(error).__name__
    for lead in ("jq: error: ", "jq: error (at <unknown>): ", "jq: error (at <stdin>:0): "):
        first = first.removeprefix(lead)
    return first.removesuffix(":").strip()


def run_here(program: str, document: Any) -> Outcome:
    """Run a program on a document in this process: only in the child, or for a program known to end."""
    results: list[Any] = []
    try:
        for result in compiled(program).input_value(document):
            if len(results) == MAX_RESULTS:
                return Outcome(results, cut=True)
            results.append(result)
    except ValueError as error:
        raise JqError(jq_message(error)) from None
    return Outcome(results)


def serve() -> None:
    """The child's loop, on its stdin and stdout: a line {"program", "document"} in, a line out:
    {"results", "cut"} or {"error"}, after a first line, READY, once jq is imported (the start of a
    loaded machine's Python is not a program's time). It ends when its stdin does."""
    import jq  # noqa: F401  # imported before READY: the first program's time is its own

    sys.stdout.buffer.write(READY)
    sys.stdout.flush()
    for line in sys.stdin:
        try:
            asked = json.loads(line)
            outcome = run_here(asked["program"], asked["document"])
            answer: dict[str, Any] = {"results": outcome.results, "cut": outcome.cut}
        except JqError as error:
            answer = {"error": str(error)}
        except Exception as error:  # the child says what went wrong instead of dying
            answer = {"error": f"{type(error).__name__}: {error}"}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


class JqRunner:
    """Runs jq programs in a child process, one at a time: one that takes more than `limit` seconds
    is stopped (the child is killed, and a new one started for the next program).

    The child is a plain `python -m explorer.api.filters` on pipes, not multiprocessing's: that one
    wants the real stderr's descriptor, which a full-screen app has taken over. Use
    `await runner.run(program, document)` on an event loop, `runner.run_blocking` elsewhere, and
    `close()` at the end.
    """

    def __init__(self, limit: float = LIMIT) -> None:
        self.limit = limit
        self.child: subprocess.Popen[bytes] | None = None
        self.answers: queue.Queue[bytes] = queue.Queue()
        self.lock = threading.Lock()  # one program at a time, whichever thread asks
        self.warm = False  # the child has said it is ready: its start is behind it

    def start(self) -> None:
        """Start the child ahead (a dialog that asks for a program opens), so its start is over when a
        program comes. Never waits: while a program runs, the child is there already."""
        if self.lock.acquire(blocking=False):
            try:
                self.started()
            finally:
                self.lock.release()

    def started(self) -> subprocess.Popen[bytes]:
        """The child, started if it is not running, with a thread that reads its answers (under the lock)."""
        if self.child is None or self.child.poll() is not None:
            self.stop()
            self.child = subprocess.Popen(
                [sys.executable, "-m", "explorer.api.filters"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
            )
            self.answers = queue.Queue()
            threading.Thread(target=read_answers, args=(self.child, self.answers), daemon=True).start()
        return self.child

    def stop(self) -> None:
        """Kill the child (a program that does not end), or end it: the next run starts another."""
        child, self.child = self.child, None
        self.warm = False
        if child is not None:
            if child.poll() is None:
                child.kill()
            child.wait(5)
            for pipe in (child.stdin, child.stdout):
                if pipe is not None:
                    pipe.close()

    close = stop

    def run_blocking(self, program: str, document: Any) -> Outcome:
        """The program's outcome on the document; JqError when it fails or takes more than the limit."""
        compiled(program)  # a mistake is said at once, without a child
        line = (json.dumps({"program": program, "document": document}) + "\n").encode("utf-8")
        with self.lock:
            child = self.started()
            if child.stdin is None:  # started with a pipe: never, but said rather than assumed
                raise JqError("jq's process has no input")
            if not self.warm:
                self.wait_ready()
            try:
                child.stdin.write(line)
                child.stdin.flush()
                answer = self.answers.get(timeout=self.limit)
            except queue.Empty:
                self.stop()
                raise JqError(f"the jq program did not end within {self.limit:g} s, and was stopped") from None
            except OSError:
                self.stop()
                raise JqError(ENDED) from None
            if not answer:
                self.stop()
                raise JqError(ENDED)
        reply = json.loads(answer)
        if "error" in reply:
            raise JqError(reply["error"])
        return Outcome(reply["results"], reply["cut"])

    def wait_ready(self) -> None:
        """Until the child says it is ready (a Python, about 0.2 s at rest, many on a loaded machine)."""
        try:
            first_line = self.answers.get(timeout=STARTING)
        except queue.Empty:
            self.stop()
            raise JqError(
                f"the jq process did not start within {STARTING:g} s; it is started again for the next program"
            ) from None
        if first_line != READY:
            self.stop()
            raise JqError(ENDED)
        self.warm = True

    async def run(self, program: str, document: Any) -> Outcome:
        """`run_blocking` off the event loop; cancelling it (Esc) stops the child."""
        try:
            return await asyncio.to_thread(self.run_blocking, program, document)
        except asyncio.CancelledError:
            self.stop()
            raise


def read_answers(child: subprocess.Popen[bytes], answers: queue.Queue[bytes]) -> None:
    """The child's answers, a line each, into `answers`; b"" when it ends."""
    if child.stdout is None:  # started with a pipe: never; the reader then ends at once
        answers.put(b"")
        return
    for line in child.stdout:
        answers.put(line)
    answers.put(b"")


if __name__ == "__main__":
    serve()
