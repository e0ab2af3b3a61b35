"""Every screen the docs show, compared with its golden (pytest-textual-snapshot).

When one differs the run fails and writes snapshot_report.html, the golden and the new screen side
by side. A change that means to alter a screen remakes the goldens and the docs' copies with
`python -m tests.screenshots`; look at the report, or at the files in `git diff`, before committing.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.screenshots import SHOTS, SIZE, fixed_surroundings, stale_copies


@pytest.fixture(autouse=True)
def surroundings() -> Iterator[None]:
    with fixed_surroundings():
        yield


@pytest.mark.screen
@pytest.mark.parametrize("name", list(SHOTS))
def test_screen(name: str, snap_compare) -> None:
    app, run_before = SHOTS[name].staged()
    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_the_readme_shows_the_goldens() -> None:
    assert stale_copies() == [], "remake them with: python -m tests.screenshots"
