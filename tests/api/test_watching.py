"""Watching a resource (watching.py), jq conditions (filters.py) and comparing documents (changes.py),
as the library gives them to the screen and the commands: against the sandbox, in process and over a
real socket, on a fake clock that waiting moves."""

from __future__ import annotations

import queue
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace

import pytest

from explorer.api import filters
from explorer.api.changes import Change, changes, noise
from explorer.api.filters import JqError, JqRunner, compiled
from explorer.api.json_files import read_document
from explorer.api.ratelimit import Reading
from explorer.api.watching import Spacing, Version, Watch, faster, follow, session_pace, slower, spacing
from explorer.sandbox.links import API_ROOT


@pytest.fixture(scope="module")
def runner():
    jq = JqRunner(limit=1.0)
    yield jq
    jq.close()


# jq ------------------------------------------------------------------------------------------


@pytest.mark.slow
def test_a_condition_holds_as_jq_e_says_on_its_last_result(runner):
    assert runner.run_blocking('.stateName == "IDLE"', {"stateName": "IDLE"}).holds
    assert not runner.run_blocking('.stateName == "IDLE"', {"stateName": "CREATING"}).holds
    assert not runner.run_blocking(".missing", {"a": 1}).holds  # null
    assert not runner.run_blocking("empty", {"a": 1}).holds  # no result at all
    assert runner.run_blocking(".a", {"a": 0}).holds  # 0 is true to jq


def test_a_program_that_does_not_compile_is_said_at_once_in_one_line():
    with pytest.raises(JqError) as raised:
        compiled(".stateName ==")
    assert str(raised.value) == "syntax error, unexpected end of file at <top-level>, line 1, column 12"
    with pytest.raises(JqError, match="the jq program is empty"):
        compiled("   ")


def test_a_program_that_fails_on_the_document_says_why(runner):
    with pytest.raises(JqError) as raised:
        runner.run_blocking(".a.b", {"a": 1})
    assert str(raised.value) == 'Cannot index number with string ("b")'


@pytest.mark.slow
def test_a_program_that_never_ends_is_stopped_at_the_limit_and_the_next_one_runs(runner):
    with pytest.raises(JqError) as raised:
        runner.run_blocking("until(false; .)", 1)
    assert str(raised.value) == "the jq program did not end within 1 s, and was stopped"
    assert runner.run_blocking(".[0]", [7]).results == [7]


@pytest.mark.slow
def test_a_first_program_is_given_its_limit_once_the_child_is_ready_not_beside_its_start(monkeypatch):
    """A loaded machine took seconds to start the child's Python, and a first program that never
    ends ran 10 to 20 s, its limit and the start's together: the start is now waited for apart."""
    waits: list[float | None] = []

    class Answers(queue.Queue):
        def get(self, block: bool = True, timeout: float | None = None) -> bytes:
            waits.append(timeout)
            return super().get(block, timeout)

    monkeypatch.setattr(filters, "queue", SimpleNamespace(Queue=Answers, Empty=queue.Empty))
    jq = JqRunner(limit=0.5)
    try:
        with pytest.raises(JqError, match="did not end within 0.5 s"):
            jq.run_blocking("until(false; .)", 1)
        assert waits == [filters.STARTING, 0.5]  # the start, then the program: never the two at once
        assert jq.run_blocking(".[0]", [7]).results == [7]  # a new child, ready in turn
        assert waits[2:] == [filters.STARTING, 0.5]
    finally:
        jq.close()


def test_a_program_with_endless_results_is_cut_and_says_so(runner):
    outcome = runner.run_blocking("range(1e9)", None)
    assert len(outcome.results) == 1000
    assert outcome.cut


# Comparing -----------------------------------------------------------------------------------


def test_entities_in_a_list_are_matched_by_id_and_links_by_rel():
    before = {
        "results": [{"id": "a", "stateName": "IDLE"}, {"id": "b", "stateName": "IDLE"}],
        "links": [{"rel": "self", "href": "/x?pageNum=1"}, {"rel": "next", "href": "/x?pageNum=2"}],
    }
    after = {
        "results": [{"id": "b", "stateName": "DELETING"}, {"id": "a", "stateName": "IDLE"}],
        "links": [{"rel": "next", "href": "/x?pageNum=2"}, {"rel": "self", "href": "/x?pageNum=1&pretty=true"}],
    }
    assert [change.line() for change in changes(before, after)] == [
        '~ .results[id=b].stateName: "IDLE" → "DELETING"',
        '~ .links[rel=self].href: "/x?pageNum=1" → "/x?pageNum=1&pretty=true"',
    ]


def test_noise_is_links_and_timestamps_only():
    found = changes(
        {"created": "2026-01-01T00:00:00Z", "links": [], "name": "a", "when": "soon"},
        {"created": "2026-01-02T00:00:00Z", "links": [{"rel": "self"}], "name": "b", "when": "2026-01-02T00:00:00Z"},
    )
    assert [(change.path, noise(change)) for change in found] == [
        (".created", True),
        (".links[rel=self]", True),
        (".name", False),
        (".when", False),  # a word became a date: that is the point, not noise
    ]


def test_a_difference_as_a_json_line_has_old_and_new_where_there_are():
    assert Change(".a", "added", None, 1).fields() == {"path": ".a", "kind": "added", "new": 1}
    assert Change(".a", "removed", None, None).fields() == {"path": ".a", "kind": "removed", "old": None}
    assert Change("", "changed", 1, 2).fields() == {"path": ".", "kind": "changed", "old": 1, "new": 2}


def test_a_file_that_is_not_json_or_not_there_is_said_by_name(tmp_path: Path):
    bad = tmp_path / "bad.json"
    bad.write_text("{nope")
    with pytest.raises(
        ValueError,
        match=r"^file .*bad.json is not JSON: expected a name in double quotes, such as \"name\", at line 1, "
        r"column 2$",
    ):
        read_document(bad)
    with pytest.raises(ValueError, match=r"^file .*gone.json cannot be read: No such file or directory$"):
        read_document(tmp_path / "gone.json")


# Spacing ---------------------------------------------------------------------------------------


def reading(left: int, limit: int) -> Reading:
    return Reading("project", left, limit, f"{left} of {limit} left", False)


def test_a_watch_goes_at_its_pace_while_the_limit_has_room():
    assert spacing(5.0, reading(90, 100), now=600.0) == Spacing(5.0)
    assert spacing(5.0, None, now=600.0) == Spacing(5.0)


def test_a_watch_spreads_what_is_left_over_the_rest_of_the_minute_and_says_so():
    # 40 s left in the minute, 5 of 10 left, one kept for the person: 4 requests, one every 10 s
    assert spacing(1.0, reading(5, 10), now=620.0) == Spacing(10.0, "slowed: 5 of 10 left this minute")


def test_a_watch_with_nothing_to_spare_waits_for_the_next_minute():
    assert spacing(1.0, reading(1, 5), now=620.0) == Spacing(41.0, "slowed: 1 of 5 left, waiting for the minute")


def test_a_watch_waits_out_a_retry_after():
    assert spacing(1.0, reading(0, 5), now=620.0, retry_at=632.0) == Spacing(12.0, "waiting out Retry-After: 12 s")


def test_watches_on_the_same_limit_share_it():
    alone = spacing(1.0, reading(22, 100), now=600.0)  # 12 to spend (10 kept) over 60 s
    shared = spacing(1.0, reading(22, 100), now=600.0, sharing=2)
    assert (alone.seconds, shared.seconds) == (5.0, 10.0)


def test_plus_and_minus_step_through_the_intervals():
    assert (slower(5.0), faster(5.0), faster(1.0), slower(300.0)) == (10.0, 2.0, 1.0, 300.0)


# Watching the sandbox ------------------------------------------------------------------------------


@dataclass
class Told:
    versions: list[Version] = field(default_factory=list)
    fetches: int = 0

    def __call__(self, watch: Watch, version: Version | None, resource: object = None) -> None:
        self.fetches += 1
        if version is not None:
            self.versions.append(version)


async def test_a_watch_sees_each_change_field_by_field_until_its_condition_holds(connect, runner):
    async with connect() as c:
        project = c.world.project_named("production")
        cluster = next(iter(project.clusters.values()))
        cluster.fields["stateName"] = "UPDATING"
        path = f"/groups/{project.id}/clusters/{cluster.name}"
        watch = Watch(str(c.session.resolve(path)), cluster.name, every=5.0, until='.stateName == "IDLE"')
        told = Told()

        def seen(watch: Watch, version: Version | None, resource: object) -> None:
            told(watch, version)
            if told.fetches == 3:  # the service finishes its work between the third and fourth fetch
                cluster.fields["stateName"] = "IDLE"

        pace = session_pace(c.session, lambda bucket: 1)
        await follow(watch, c.session.fetch, runner, c.clock, c.sleeper, pace, seen)

    assert watch.ended == "the condition holds"
    assert told.fetches == 4
    assert c.sleeper.waits == [5.0, 5.0, 5.0]
    first, second = told.versions
    assert (first.number, first.changes) == (1, ())
    assert [change.line() for change in second.changes] == ['~ .stateName: "UPDATING" → "IDLE"']
    assert second.at - first.at == 15.0


async def test_every_5_s_is_from_one_fetch_s_start_to_the_next_however_long_a_fetch_took(connect, runner):
    """A fetch (or its condition, stopped by jq at 2 s) that takes 2 s leaves 3 s to wait: the watch
    fetches every 5 s as it says, not every 7."""
    async with connect() as c:
        project = c.world.project_named("production")
        cluster = next(iter(project.clusters.values()))
        watch = Watch(str(c.session.resolve(f"/groups/{project.id}/clusters/{cluster.name}")), cluster.name, every=5.0)
        told = Told()

        async def slow_fetch(url: str):
            c.clock.advance(2.0)  # the time a slow answer, or a condition jq stops, takes
            return await c.session.fetch(url)

        def seen(watch: Watch, version: Version | None, resource: object) -> None:
            told(watch, version)
            if told.fetches == 3:
                watch.ended = "stopped"

        await follow(watch, slow_fetch, runner, c.clock, c.sleeper, session_pace(c.session, lambda bucket: 1), seen)

    assert c.sleeper.waits == [3.0, 3.0]


async def test_a_condition_that_fails_on_the_document_is_said_for_as_long_as_the_document_stands(connect, runner):
    async with connect() as c:
        project = c.world.project_named("production")
        cluster = next(iter(project.clusters.values()))
        path = f"/groups/{project.id}/clusters/{cluster.name}"
        watch = Watch(str(c.session.resolve(path)), cluster.name, every=5.0, until=".diskSizeGB.foo")
        problems: list[str | None] = []

        def seen(watch: Watch, version: Version | None, resource: object) -> None:
            problems.append(watch.problem)
            if len(problems) == 3:  # the document changes: the condition is asked again, of it
                cluster.fields["diskSizeGB"] = {"foo": True}
            if len(problems) == 4:
                watch.ended = "stopped"

        pace = session_pace(c.session, lambda bucket: 1)
        await follow(watch, c.session.fetch, runner, c.clock, c.sleeper, pace, seen)

    said = [None if problem is None else problem.partition(" with ")[0] for problem in problems]  # jq's words vary
    assert said == ["the condition failed: Cannot index number"] * 3 + [None], problems
    assert watch.fetches == 4 and watch.seen == 2


async def test_a_watch_of_a_resource_deleted_ends_deleted(connect, runner):
    async with connect() as c:
        project = c.world.project_named("production")
        name = next(iter(project.clusters))
        watch = Watch(str(c.session.resolve(f"/groups/{project.id}/clusters/{name}")), name, every=2.0)
        told = Told()

        def seen(watch: Watch, version: Version | None, resource: object) -> None:
            told(watch, version)
            project.clusters.pop(name, None)

        await follow(watch, c.session.fetch, runner, c.clock, c.sleeper, session_pace(c.session, lambda b: 1), seen)

    assert watch.ended == "deleted"
    assert [version.status for version in told.versions] == [200, 404]
    assert told.versions[1].changes[0].kind == "removed"


async def test_a_watch_whose_first_fetch_is_a_404_ends_at_once_not_there(connect, runner):
    """A resource gone before the watch began (deleted, its 202's DELETING over): nothing to watch.
    The watch polled the 404 for ever (`4 fetches · 0 versions`)."""
    async with connect() as c:
        project = c.world.project_named("production")
        watch = Watch(str(c.session.resolve(f"/groups/{project.id}/clusters/gone")), "gone", every=2.0)
        told = Told()
        await follow(watch, c.session.fetch, runner, c.clock, c.sleeper, session_pace(c.session, lambda b: 1), told)

    assert (watch.ended, watch.fetches, watch.seen, told.fetches) == ("not there", 1, 0, 1)
    assert c.sleeper.waits == []
    assert watch.problem is not None and watch.problem.startswith("404 Not Found · CLUSTER_NOT_FOUND")
    assert watch.error is not None and watch.error.status == 404  # for the screen's x


async def test_a_watch_every_second_under_5_requests_a_minute_runs_a_minute_without_a_429(connect, runner):
    async with connect(sandbox={"rate_limit": 5}, client_side_throttling=False) as c:  # as --scenario rate-limit runs
        project_id = c.project_id("production")
        watch = Watch(str(c.session.resolve(f"/groups/{project_id}")), "Production", every=1.0)
        start = c.clock()
        said: list[str | None] = []

        def seen(watch: Watch, version: Version | None, resource: object) -> None:
            said.append(watch.slowed)
            if c.clock() - start >= 60:
                watch.ended = "stopped"

        await follow(watch, c.session.fetch, runner, c.clock, c.sleeper, session_pace(c.session, lambda b: 1), seen)
        statuses = [exchange.status for exchange in c.session.log if API_ROOT + "/groups" in exchange.url]

    assert 429 not in statuses
    assert len(statuses) >= 5  # it did watch: about four a minute, one kept for the person
    assert any(why and why.startswith("slowed: ") for why in said)


async def test_a_watch_holds_its_fetch_when_the_person_spent_the_minute_while_it_waited(connect, runner):
    async with connect(sandbox={"rate_limit": 5}, client_side_throttling=False) as c:
        url = str(c.session.resolve(f"/groups/{c.project_id('production')}"))
        watch = Watch(url, "production", every=1.0)
        clicked: list[int] = []

        async def sleep(seconds: float) -> None:
            await c.sleeper(seconds)
            if not clicked:  # while the watch waits, the person presses r four times: none left
                for _ in range(4):
                    clicked.append((await c.session.fetch(url)).status)

        def seen(watch: Watch, version: Version | None, resource: object) -> None:
            if watch.fetches == 3:
                watch.ended = "stopped"

        await follow(watch, c.session.fetch, runner, c.clock, sleep, session_pace(c.session, lambda b: 1), seen)
        statuses = [exchange.status for exchange in c.session.log if exchange.url == url]

    assert clicked == [200] * 4
    assert statuses == [200] * 7  # the watch's three and the person's four: no 429
    assert c.sleeper.waits[:2] == [pytest.approx(40 / 3), pytest.approx(60 - 20 - 40 / 3 + 1)]
