"""The suite's own ground rules, which every other test relies on."""

from __future__ import annotations

import signal
import subprocess
import sys

import pytest

from tests.conftest import ended

PROBE = "import signal, sys; sys.stdout.write(repr(signal.getsignal(signal.SIGINT)))"


@pytest.mark.subprocess
def test_a_program_a_test_starts_stops_on_ctrl_c_however_the_suite_was_started():
    """Started from a shell's background job (a script's `pytest … &`), the suite inherited SIGINT ignored
    and so did every program it started: a test's ctrl+c to a sandbox or a watch was lost (four tests
    waited out 60 s under load). The program has Python's own handler, as from a terminal."""
    shown = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True).stdout
    assert shown == repr(signal.default_int_handler)


@pytest.mark.subprocess
def test_a_program_that_outlives_its_wait_says_where_it_was():
    process = subprocess.Popen(
        [sys.executable, "-c", "import time\ndef waiting_here():\n    time.sleep(600)\nwaiting_here()"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    with pytest.raises(pytest.fail.Exception, match=r"still ran 0\.5 s later(.|\n)*in waiting_here"):
        ended(process, within=0.5)
