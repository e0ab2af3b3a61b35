"""What `explorer --demo` loads and mounts before the root's first frame, held to a list kept here.

Launch is felt every time the tool starts, and each feature added so far added to it, unseen: a
module imported at the top of a module the first screen imports, a widget composed for a pane
nobody has opened. The list in `launch_budget.txt` is what the first frame needs today: the
explorer's modules, the packages from outside the standard library, and the widgets mounted (by
kind, with their count). A module or widget that is new there fails the test until it is added to
the list on purpose, with the reason in the commit; one no longer there fails it too, so that the
list stays true (take it out).

The program is the explorer as `explorer --demo` builds it, run headless in a fresh interpreter; the
moment taken is the one the root's resource is first put in the panes (`MainScreen.show`), before
anything that waits for the first frame to be drawn.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from tests.conftest import ROOT

BUDGET = Path(__file__).with_name("launch_budget.txt")

PROGRAM = """
import sys
before = set(sys.modules)  # the interpreter's own, and what a measuring tool loads at start (coverage)
import asyncio, collections, json
from explorer.cli import parser
from explorer.launch import build
from explorer.tui.screens.main import MainScreen

taken = {}
shown = MainScreen.show

def show(screen, node, cursor_on=None):
    shown(screen, node, cursor_on)
    if not taken and node is screen.navigation.root:
        modules = sorted(set(sys.modules) - before)
        taken["modules"] = [name for name in modules if name == "explorer" or name.startswith("explorer.")]
        outside = {name.partition(".")[0] for name in modules} - set(sys.stdlib_module_names)
        taken["packages"] = sorted(name for name in outside if not name.startswith("_") and name != "explorer")
        kinds = collections.Counter(type(node).__name__ for node in screen.walk_children(with_self=False))
        taken["widgets"] = dict(sorted(kinds.items()))

MainScreen.show = show
app = build(parser(["--demo"]).parse_args(["--demo"]))

async def main():
    async with app.run_test(size=(120, 40)) as pilot:
        while not taken:
            await pilot.pause(0.01)

asyncio.run(asyncio.wait_for(main(), 120))
print(json.dumps(taken))
"""


def sections(text: str) -> dict[str, list[str]]:
    """The list's sections: `[name]` then a line each, `#` lines left out."""
    found: dict[str, list[str]] = {}
    current: list[str] = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            current = found.setdefault(line[1:-1], [])
        else:
            current.append(line)
    return found


def at_launch(tmp_path: Path) -> dict[str, list[str]]:
    """What the explorer loaded and mounted by its first frame, as the list writes it."""
    home = {f"XDG_{kind}_HOME": str(tmp_path / kind.lower()) for kind in ("CONFIG", "CACHE", "STATE")}
    environment = {**{k: v for k, v in __import__("os").environ.items() if not k.startswith("EXPLORER_")}, **home}
    run = subprocess.run(
        [sys.executable, "-c", PROGRAM], capture_output=True, text=True, cwd=ROOT, env=environment, timeout=180
    )
    assert run.returncode == 0, run.stderr
    taken = json.loads(run.stdout.splitlines()[-1])
    return {
        "modules": taken["modules"],
        "packages": taken["packages"],
        "widgets": [f"{kind} {count}" for kind, count in taken["widgets"].items()],
    }


@pytest.mark.subprocess
def test_the_first_frame_loads_and_mounts_only_what_the_list_allows(tmp_path):
    kept, now = sections(BUDGET.read_text()), at_launch(tmp_path)
    for section in ("modules", "packages", "widgets"):
        added = sorted(set(now[section]) - set(kept[section]))
        gone = sorted(set(kept[section]) - set(now[section]))
        assert not added, f"new at launch, [{section}] of {BUDGET.name}: {added} (needed for the first frame? say why)"
        assert not gone, f"no longer at launch: take them out of [{section}] in {BUDGET.name}: {gone}"


def test_the_list_counts_what_it_lists():
    """The list's header says how many modules and widgets it holds: a figure to watch in a diff."""
    text = BUDGET.read_text()
    kept = sections(text)
    widgets = sum(int(line.rpartition(" ")[2]) for line in kept["widgets"])
    assert f"# {len(kept['modules'])} modules of explorer, {widgets} widgets." in text
    assert Counter(kept["modules"]).most_common(1)[0][1] == 1  # each once
