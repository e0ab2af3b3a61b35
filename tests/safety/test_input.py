"""Bounded input: a write's body is read up to the body limit and no further, and what is not UTF-8 is
a usage error.

`--data @FILE` and `@-` stop at `--max-body` (an answer's limit too), whatever they read from: a
regular file, /dev/zero, a FIFO, a pipe that never ends. Each test reads from a source far longer
than the limit; the ones that are not /dev/zero end after a while, so that a regression fails here
rather than filling the machine's memory.
"""

from __future__ import annotations

import io
import os
import threading
import tracemalloc
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.commands import conftest as commands
from tests.commands.conftest import Run, in_process
from tests.safety.conftest import account_environment
from tests.safety.recording_server import RecordingServer

LIMIT = 2**20  # --max-body 1: one megabyte
LONGER = 16 * LIMIT  # what a source that stands for an endless one gives before it ends
WRITE = ["post", "/groups", "--writes", "--yes", "--max-body", "1"]
TOO_LONG = "is larger than 1 MB, the body limit: it was read no further"


class Endless(io.RawIOBase):
    """Stdin that goes on (`{` after `{`), as `yes |` would: until LONGER bytes, then it ends."""

    def __init__(self) -> None:
        self.given = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        size = min(len(buffer), LONGER - self.given)
        buffer[:size] = b"{" * size
        self.given += size
        return size


def with_stdin(arguments: list[str], environment: dict[str, str], source: io.RawIOBase) -> Run:
    """`in_process`, stdin reading from `source` instead of bytes held in memory."""
    marker = b"stdin is the source"
    made = commands.stream

    def stream(data: io.BytesIO, errors: str = "strict") -> io.TextIOWrapper:
        if data.getvalue() == marker:
            return io.TextIOWrapper(io.BufferedReader(source), encoding="utf-8")
        return made(data, errors)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(commands, "stream", stream)
        return in_process(arguments, environment, marker)


@contextmanager
def memory_capped(room: int = 2**30) -> Iterator[None]:
    """This process may map `room` bytes more than it has inside the block: reading /dev/zero without
    a bound ends in a MemoryError (a failure) instead of filling the machine."""
    resource = pytest.importorskip("resource")
    with open("/proc/self/statm") as statm:
        mapped = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    resource.setrlimit(resource.RLIMIT_AS, (mapped + room, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


@contextmanager
def peak_memory() -> Iterator[list[int]]:
    """The most bytes Python held at once inside the block, in the list yielded, once it ends."""
    peak: list[int] = []
    tracemalloc.start()
    try:
        yield peak
    finally:
        peak.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()


def test_data_from_dev_zero_stops_at_the_limit(server: RecordingServer, tmp_path: Path) -> None:
    small = tmp_path / "small.json"
    small.write_text("{")
    warm = in_process([*WRITE, "--data", f"@{small}"], account_environment(server, tmp_path))  # what a first run loads
    assert warm.code == 2
    assert "is not JSON" in warm.err
    with memory_capped(), peak_memory() as peak:
        run = in_process([*WRITE, "--data", "@/dev/zero"], account_environment(server, tmp_path))
    assert run.code == 2
    assert f"the body in /dev/zero {TOO_LONG}" in run.err
    assert "--max-body MB" in run.err  # how to allow more
    assert peak[0] < 3 * LIMIT  # read a chunk at a time, up to the limit: not all there is
    assert server.arrivals == []


def test_data_from_an_endless_stdin_stops_at_the_limit(server: RecordingServer, tmp_path: Path) -> None:
    source = Endless()
    run = with_stdin([*WRITE, "--data", "@-"], account_environment(server, tmp_path), source)
    assert run.code == 2
    assert f"the body on stdin {TOO_LONG}" in run.err
    assert source.given <= LIMIT + io.DEFAULT_BUFFER_SIZE + 1  # the limit and a byte, give or take a buffer
    assert server.arrivals == []


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="a FIFO is POSIX's")
def test_data_from_a_fifo_stops_at_the_limit(server: RecordingServer, tmp_path: Path) -> None:
    fifo = tmp_path / "body"
    os.mkfifo(fifo)
    written: list[int] = [0]

    def writer() -> None:
        with open(fifo, "wb") as pipe:
            try:
                while written[0] < LONGER:
                    written[0] += pipe.write(b"{" * 65536)
            except BrokenPipeError:  # the reader stopped, as it should
                return

    feeding = threading.Thread(target=writer, daemon=True)
    feeding.start()
    try:
        run = in_process([*WRITE, "--data", f"@{fifo}"], account_environment(server, tmp_path))
    finally:
        if feeding.is_alive():  # a writer still waiting for a reader, or blocked writing: let it go
            os.close(os.open(fifo, os.O_RDONLY | os.O_NONBLOCK))
        feeding.join(10)
    assert run.code == 2
    assert f"the body in {fifo} {TOO_LONG}" in run.err
    assert written[0] < LONGER
    assert server.arrivals == []


@pytest.mark.parametrize(
    ("given", "said"),
    [
        ("name=caf\udce9", "the value of name holds the byte 0xE9, which is not UTF-8"),  # café in Latin-1
        ("n\udcffme=value", "an ITEM's name holds the byte 0xFF, which is not UTF-8"),
        ('name:="\\ud800"', "the value of name holds <U+D800>, half of a character (a lone surrogate)"),
    ],
    ids=["value", "name", "json-escape"],
)
def test_an_item_that_is_not_utf8_is_a_usage_error(
    server: RecordingServer, tmp_path: Path, given: str, said: str
) -> None:
    """Bytes of the command line that are not UTF-8 come to Python as lone surrogates, as here."""
    run = in_process(["post", "/groups", given, "--writes", "--yes"], account_environment(server, tmp_path))
    assert run.code == 2
    assert f"argument ITEM: {said}: a body is JSON, which is UTF-8 text" in run.err
    assert "a bug" not in run.err
    assert server.arrivals == []


def test_a_query_parameter_that_is_not_utf8_is_a_usage_error(server: RecordingServer, tmp_path: Path) -> None:
    run = in_process(["get", "/groups", "-q", "name=caf\udce9"], account_environment(server, tmp_path))
    assert run.code == 2
    assert "a query parameter holds the byte 0xE9, which is not UTF-8: a URL's query is UTF-8 text" in run.err
    assert server.arrivals == []


def test_a_header_that_is_not_utf8_says_so(server: RecordingServer, tmp_path: Path) -> None:
    run = in_process(["get", "/groups", "-H", "X-Trace: caf\udce9"], account_environment(server, tmp_path))
    assert run.code == 2
    assert "the value of X-Trace is not UTF-8 text: header values carry ASCII only" in run.err
    assert server.arrivals == []
