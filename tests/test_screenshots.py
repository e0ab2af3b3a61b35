"""The committed screenshots are what the code draws now: remake them with `python -m tests.screenshots`."""

from __future__ import annotations

from tests.screenshots import OUT, SHOTS, make_all


async def test_every_committed_screenshot_is_current():
    made = await make_all()
    assert sorted(p.stem for p in OUT.glob("*.svg")) == sorted(SHOTS), "screenshots/ has files no shot makes"
    stale = [name for name, svg in made.items() if (OUT / f"{name}.svg").read_text(encoding="utf-8") != svg]
    assert not stale, f"stale: {stale}; remake them with: python -m tests.screenshots"


async def test_the_screenshots_are_the_same_twice():
    first = await make_all(["presenter", "rate-limited"])
    second = await make_all(["presenter", "rate-limited"])
    assert first == second
