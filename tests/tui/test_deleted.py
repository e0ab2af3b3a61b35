"""What the screen knows of a resource deleted: its DELETE answered (a cluster's 202: DELETING, then
gone after the sandbox's operation seconds), or a watch that found it not there. The tree marks it,
its list is fetched again when next visited, and `w` on it ends at once rather than poll a 404."""

from __future__ import annotations

import pytest
from textual.widgets import Input

from explorer.sandbox.settings import Settings
from explorer.tui.screens.preview import PreviewScreen
from explorer.tui.widgets.watch_view import WatchView
from tests.tui.test_writes import choose

PROJECT, CLUSTER = "staging", "orders-staging"  # not protected from termination, as production's are
OPERATION = Settings().operation_seconds


async def delete_cluster(explorer):
    """Open staging's orders-staging from its clusters list and DELETE it from the screen (its name
    typed out, as the preview asks): the sandbox answers 202 and the cluster is DELETING."""
    await explorer.open("groups")
    await explorer.open("groups", PROJECT)
    await explorer.open("groups", PROJECT, "clusters")
    node = await explorer.open("groups", PROJECT, "clusters", CLUSTER)
    await choose(explorer, "DELETE")
    await explorer.pilot.press("ctrl+s")
    await explorer.until_screen(PreviewScreen)
    await explorer.until(lambda: isinstance(explorer.app.focused, Input))
    explorer.app.screen.query_one(Input).value = CLUSTER
    await explorer.pilot.press("enter")
    await explorer.until(lambda: "DELETE · 202 Accepted" in explorer.toasts())
    await explorer.settle()  # the cluster and its list fetched again
    return node


def cluster_titles(explorer) -> list[str]:
    return [child.data.title for child in explorer.node("groups", PROJECT, "clusters").children]


def timeline(explorer) -> str:
    return explorer.screen.query_one(WatchView).text().plain


@pytest.mark.screen
async def test_w_on_a_cluster_already_gone_ends_at_once_and_it_leaves_the_tree(open_explorer):
    """Deleted from the screen, its answer in view, gone by the time `w` is pressed: the watch's
    first fetch is a 404, which ends it (it polled the 404 for ever: `4 fetches · 0 versions`), and
    the cluster leaves its list in the tree."""
    async with open_explorer(writes=True, size=(160, 50)) as explorer:
        await delete_cluster(explorer)
        assert CLUSTER in cluster_titles(explorer)  # DELETING: still listed
        explorer.clock.advance(OPERATION + 1)  # the sandbox's delete is done: the cluster answers 404
        await explorer.pilot.press("w")
        await explorer.until(lambda: isinstance(explorer.app.focused, Input))
        await explorer.pilot.press("enter")  # until w, or deleted
        said = f"{CLUSTER}: not there (404): nothing to watch; the watch ended"
        await explorer.until(lambda: said in explorer.toasts())
        assert explorer.screen.watching.running() == []
        clusters = explorer.node("groups", PROJECT, "clusters")
        await explorer.until(lambda: explorer.current is clusters.data)  # its list, shown without it
        assert CLUSTER not in cluster_titles(explorer)
        assert f"○ {CLUSTER} · 0 versions · not there" in timeline(explorer)  # the Watch pane, beside the list
        fetches = explorer.requests(f"/clusters/{CLUSTER}")
        await explorer.settle()
        assert explorer.requests(f"/clusters/{CLUSTER}") == fetches  # and nothing polls it


@pytest.mark.screen
async def test_a_cluster_deleted_from_the_screen_is_marked_and_its_list_fetched_again_when_visited(open_explorer):
    async with open_explorer(writes=True, size=(160, 50)) as explorer:
        node = await delete_cluster(explorer)
        await explorer.until(lambda: "✗ deleting" in node.label.plain)  # the service goes on with it (202)
        assert CLUSTER in cluster_titles(explorer)
        explorer.clock.advance(OPERATION + 1)
        await explorer.cursor_to(explorer.node("groups", PROJECT, "clusters"))  # the next visit of its list
        await explorer.until(lambda: CLUSTER not in cluster_titles(explorer))
        assert explorer.current is explorer.node("groups", PROJECT, "clusters").data


@pytest.mark.screen
async def test_a_cluster_being_deleted_is_marked_deleted_once_it_answers_404(open_explorer):
    async with open_explorer(writes=True, size=(160, 50)) as explorer:
        node = await delete_cluster(explorer)
        await explorer.until(lambda: "✗ deleting" in node.label.plain)
        explorer.clock.advance(OPERATION + 1)
        await explorer.pilot.press("r")  # the cluster fetched again: 404
        await explorer.settle()
        assert "✗ deleted" in node.label.plain, node.label.plain
        assert "✗ deleting" not in node.label.plain
