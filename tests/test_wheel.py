"""The built wheel carries the themes: an install that is not editable, run elsewhere, finds them."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.subprocess

ROOT = Path(__file__).resolve().parents[1]


def test_the_wheel_ships_the_themes_and_an_install_from_it_finds_them(tmp_path):
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(tmp_path / "dist"), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert built.returncode == 0, built.stderr
    (wheel,) = (tmp_path / "dist").glob("explorer-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        archive.extractall(tmp_path / "site")
    # The licence and its notice travel with the code; py.typed tells type checkers the library is typed.
    licences = sorted(n.rsplit("/", 1)[1] for n in names if ".dist-info/licenses/" in n)
    assert licences == ["LICENSE", "NOTICE"]
    assert "explorer/py.typed" in names
    assert {"explorer/classroom/templates/app_index.html", "explorer/classroom/templates/refused.html"} <= set(names)
    shipped = sorted(p.name for p in (ROOT / "themes").glob("*.toml"))
    assert sorted(n.rsplit("/", 1)[1] for n in names if n.startswith("explorer/themes/")) == shipped

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    probe = (
        "import explorer, explorer.tui.themes as t;"
        "themes, problems = t.load_themes(t.shipped_dir());"
        "print(explorer.__file__); print(sorted(x.name for x in themes), problems)"
    )
    environment = {**os.environ, "PYTHONPATH": str(tmp_path / "site")}
    ran = subprocess.run(
        [sys.executable, "-c", probe], cwd=elsewhere, env=environment, capture_output=True, text=True, timeout=60
    )
    assert ran.returncode == 0, ran.stderr
    where, found = ran.stdout.splitlines()
    assert where.startswith(str(tmp_path / "site"))  # the installed copy, not this checkout
    assert found == "['colorblind', 'explorer-dark', 'explorer-light', 'projector'] []"

    # The version, written once (explorer/__init__.py), is the wheel's and what `explorer --version` says.
    written = re.search(r'^__version__ = "(.+)"$', (ROOT / "explorer" / "__init__.py").read_text(), re.M).group(1)
    (metadata,) = [n for n in names if n.endswith(".dist-info/METADATA")]
    assert f"\nVersion: {written}\n" in (tmp_path / "site" / metadata).read_text()
    assert wheel.name.startswith(f"explorer-{written}-")
    told = subprocess.run(
        [sys.executable, "-m", "explorer", "--version"], cwd=elsewhere, env=environment, capture_output=True,
        text=True, timeout=60,
    )  # fmt: skip
    assert told.stdout == f"explorer {written}\n", told.stderr
