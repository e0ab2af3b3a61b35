"""`g` with an API description: the field starts at the node in view, and the documented paths
that continue what is typed are offered as ghost text (→ takes it) and listed under the field.

Against the replay of the real service's recorded responses (which demands a versioned Accept)
and the hand-made description in the real one's shape, as a user types.
"""

from __future__ import annotations

import pytest
from textual.widgets import Input

from tests.conftest import REAL_RESPONSES
from tests.tui.conftest import Explorer
from tests.tui.screen_text import region_text
from tests.tui.test_description_tree import BASE, PROJECT, exploring
from tests.versioned_service import VersionedService

CHILDREN = (
    "accessList  alertConfigs  auditLog  clusters  databaseUsers  events  flexClusters  invites  "
    "maintenanceWindow  processes  settings  streams  teams  users  userSecurity"
)


def field_of(explorer: Explorer) -> Input:
    return explorer.q("GoToScreen Input", Input)


def seen(explorer: Explorer) -> str:
    """The field's line as drawn: what is typed, then the ghost text of the completion offered."""
    drawn = region_text(explorer.app, field_of(explorer)).splitlines()
    return drawn[1].strip(" ▊▎")


def listed(explorer: Explorer) -> str:
    """The documented paths listed under the field, as drawn, on one line."""
    return " ".join(region_text(explorer.app, explorer.q("GoToScreen #documented")).split())


async def type_in(explorer: Explorer, text: str) -> None:
    field = field_of(explorer)
    await explorer.pilot.press(*text)
    try:
        await explorer.until(lambda: field.value.endswith(text))
    except AssertionError:
        raise AssertionError(f"typing {text!r} made {field.value!r}") from None


async def offered(explorer: Explorer, expected: str) -> None:
    """Wait for the ghost text: the suggestion is worked out after each key."""
    try:
        await explorer.until(lambda: seen(explorer) == expected)
    except AssertionError:
        raise AssertionError(f"the field shows {seen(explorer)!r}, not {expected!r}") from None


async def press_g(explorer: Explorer) -> Input:
    await explorer.pilot.press("g")
    await explorer.until(lambda: isinstance(explorer.app.focused, Input))
    return field_of(explorer)


@pytest.mark.screen
async def test_g_starts_at_the_node_in_view_and_offers_its_documented_children():
    async with exploring(VersionedService(REAL_RESPONSES)) as explorer:
        pilot = explorer.pilot
        await explorer.go_to(PROJECT)
        field = await press_g(explorer)
        assert field.value == PROJECT  # the node in view, as a path under the API root
        await offered(explorer, PROJECT + "/accessList")  # its first documented child, as ghost text
        assert listed(explorer) == " ".join(CHILDREN.split())
        await pilot.press("end")  # keep what is there, and go on typing
        await type_in(explorer, "/u")
        await offered(explorer, PROJECT + "/users")
        assert listed(explorer) == "users userSecurity"
        await pilot.press("right")  # takes the completion offered
        await explorer.until(lambda: field.value == PROJECT + "/users")
        await pilot.press("enter")
        await explorer.settle()
        assert explorer.current.resource.url == BASE + PROJECT + "/users"
        assert explorer.current.resource.status == 200


@pytest.mark.screen
async def test_a_path_from_the_origin_is_completed_too():
    async with exploring(VersionedService(REAL_RESPONSES)) as explorer:
        pilot = explorer.pilot
        await explorer.settle()
        field = await press_g(explorer)
        assert field.value == "/"  # the root
        await type_in(explorer, "/api/atlas/v2/groups/abc/c")  # typing replaces what was there
        assert field.value == "/api/atlas/v2/groups/abc/c"
        await offered(explorer, "/api/atlas/v2/groups/abc/clusters")
        assert listed(explorer) == "clusters"
        await pilot.press("right")
        await explorer.until(lambda: field.value == "/api/atlas/v2/groups/abc/clusters")
        await type_in(explorer, "/")
        await offered(explorer, "/api/atlas/v2/groups/abc/clusters/provider/")  # only a step: see below
        assert listed(explorer) == "provider/ {clusterName}"


@pytest.mark.screen
async def test_a_variable_is_offered_as_text_to_edit_and_never_sent_as_is():
    replay = VersionedService(REAL_RESPONSES)
    async with exploring(replay) as explorer:
        pilot = explorer.pilot
        await explorer.settle()
        field = await press_g(explorer)
        await type_in(explorer, "/groups/")
        await offered(explorer, "/groups/{groupId}")
        await pilot.press("right")
        await explorer.until(lambda: field.value == "/groups/{groupId}")
        await explorer.until(lambda: listed(explorer) == "Type the value of {groupId} in its place.")
        await pilot.press("end")  # the variable is no longer chosen
        asked = len(replay.accepts)
        await pilot.press("enter")  # not sent: the variable is chosen again, to be typed over
        assert len(replay.accepts) == asked
        assert field_of(explorer).value == "/groups/{groupId}"  # the dialog is still there
        await type_in(explorer, PROJECT.rsplit("/", 1)[1])
        assert field.value == PROJECT
        await pilot.press("enter")
        await explorer.settle()
        assert explorer.current.resource.url == BASE + PROJECT
        assert explorer.current.resource.status == 200


@pytest.mark.screen
async def test_a_pasted_url_takes_the_place_of_the_node_in_view():
    async with exploring(VersionedService(REAL_RESPONSES)) as explorer:
        await explorer.go_to(PROJECT)
        await explorer.go_to(BASE + PROJECT + "/users")  # pasted over the project's path
        assert explorer.current.resource.url == BASE + PROJECT + "/users"


@pytest.mark.screen
async def test_without_a_description_g_starts_empty_and_offers_nothing():
    async with exploring(VersionedService(REAL_RESPONSES), openapi=None) as explorer:
        await explorer.go_to(PROJECT)
        field = await press_g(explorer)
        assert field.value == ""
        assert seen(explorer) == "/groups"  # the placeholder, as before
        await type_in(explorer, PROJECT + "/u")
        await explorer.pilot.pause()
        assert seen(explorer) == PROJECT + "/u"
        assert not explorer.app.screen.query("#documented")


@pytest.mark.screen
async def test_typing_a_brace_offers_the_variable_there():
    async with exploring(VersionedService(REAL_RESPONSES)) as explorer:
        pilot = explorer.pilot
        await explorer.go_to(PROJECT)
        field = await press_g(explorer)
        await pilot.press("end")
        await type_in(explorer, "/clusters/{")
        await offered(explorer, PROJECT + "/clusters/{clusterName}")
        assert listed(explorer) == "{clusterName}"
        await pilot.press("right")
        await explorer.until(lambda: field.value == PROJECT + "/clusters/{clusterName}")
        await explorer.until(lambda: listed(explorer) == "Type the value of {clusterName} in its place.")
        await type_in(explorer, "Cluster0")  # over the variable, chosen when it was taken
        assert field.value == PROJECT + "/clusters/Cluster0"
        await offered(explorer, PROJECT + "/clusters/Cluster0/autoScalingConfiguration")


@pytest.mark.screen
async def test_a_step_towards_documented_paths_is_taken_with_its_slash_and_what_is_below_is_listed_at_once():
    async with exploring(VersionedService(REAL_RESPONSES)) as explorer:
        pilot = explorer.pilot
        await explorer.settle()
        field = await press_g(explorer)
        cluster = PROJECT + "/clusters/ldap-954"
        await type_in(explorer, cluster + "/b")
        await offered(explorer, cluster + "/backup/")  # …/backup is not documented; below it is
        assert listed(explorer) == "backup/"
        await pilot.press("right")
        await explorer.until(lambda: field.value == cluster + "/backup/")
        await offered(explorer, cluster + "/backup/restoreJobs")  # no `/` to type first
        assert listed(explorer) == "restoreJobs schedule snapshots"
        await type_in(explorer, "sn")
        await offered(explorer, cluster + "/backup/snapshots")  # documented: no slash, though ids are below
        await pilot.press("right")
        await explorer.until(lambda: field.value == cluster + "/backup/snapshots")
        await offered(explorer, cluster + "/backup/snapshots/{snapshotId}")  # its children, as before
