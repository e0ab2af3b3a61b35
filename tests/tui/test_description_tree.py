"""With an API description, the tree offers what the links leave out, and the Page pane names the operation.

Against the replay of the real service's recorded responses (which demands a versioned Accept)
and the hand-made description in the real one's shape: the root links only itself, a project
links six relations, one of them (`whitelist`) a legacy path the description does not know.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import httpx
import pytest

from explorer.api.config import Credentials
from explorer.api.secret import Secret
from explorer.api.session import Session
from explorer.demo import demo_session
from explorer.tui.app import ExplorerApp
from tests.conftest import REAL_RESPONSES, ROOT
from tests.tui.conftest import Explorer, started, wait_until
from tests.tui.screen_text import region_text
from tests.versioned_service import BASE, VersionedService

FIXTURE = ROOT / "tests" / "fixtures" / "openapi" / "real-shape.json"
PROJECT = "/groups/6a793feb2c88faeba59bd8f6"  # e2e-proj-939, whose GET was recorded


def titles(line) -> list[str]:
    return [child.label.plain for child in line.children]


async def explore(replay: VersionedService, openapi: str | None = str(FIXTURE)):
    credentials = Credentials(BASE, client_id="c", client_secret=Secret("s"), openapi=openapi)
    session = Session(credentials, transport=httpx.ASGITransport(app=replay))
    app = ExplorerApp(session, demo=demo_session)
    app.animation_level = "none"
    return app


@asynccontextmanager
async def exploring(
    replay: VersionedService,
    openapi: str | None = str(FIXTURE),
    size: tuple[int, int] = (160, 40),
    notifications: bool = False,
) -> AsyncIterator[Explorer]:
    """The explorer on the replay, its root answered: what every test here starts from."""
    app = await explore(replay, openapi)
    async with app.run_test(size=size, notifications=notifications) as pilot:
        await wait_until(lambda: started(app), pilot=pilot)
        yield Explorer(pilot, app, None, None, None)


@pytest.mark.screen
async def test_the_root_shows_the_documented_collections_and_a_project_its_documented_children():
    replay = VersionedService(REAL_RESPONSES)
    async with exploring(replay, size=(160, 50)) as explorer:
        app = explorer.app
        await explorer.settle()
        assert titles(explorer.link_tree.root) == [
            "◇ alertConfigs/matchers/fieldNames", "◇ clusters", "◇ groups", "◇ orgs",
        ]  # fmt: skip
        groups = await explorer.open("groups")
        assert explorer.current.resource.page.total == 37
        project = await explorer.go_to(PROJECT)  # the tree has it, under groups: opened as Enter would
        assert project.parent is groups
        assert titles(project) == [
            "containers  not in the description  …/containers",
            "clusters  …/clusters",
            "databaseUsers  …/databaseUsers",
            "peers  not in the description  …/peers",
            "processes  …/processes",
            "whitelist  not in the description  …/whitelist",
            "◇ accessList", "◇ alertConfigs", "◇ auditLog", "◇ events", "◇ flexClusters", "◇ invites",
            "◇ maintenanceWindow", "◇ settings", "◇ streams", "◇ teams", "◇ users", "◇ userSecurity",
        ]  # fmt: skip
        users = await explorer.open("groups", "e2e-proj-939", "users")  # documented, fetched like a link
        assert users.data.kind == "documented"
        assert explorer.current.resource.url == BASE + PROJECT + "/users"
        assert explorer.current.resource.status == 200
        page = region_text(app, app.screen.query_one("PageView")).splitlines()
        assert page[0].strip() == "Return All Users in One Project · listProjectUsers"
        assert page[1].strip() == "versions 2023-01-01, 2025-03-12 · roles: Project Read Only"
    # Every request to the API named a version: the newest each operation documents.
    assert replay.accepts[-1] == "application/vnd.atlas.2025-03-12+json"
    assert all(accept.startswith("application/vnd.atlas.") for accept in replay.accepts)


@pytest.mark.screen
async def test_the_page_header_marks_sunset_versions_and_a_deprecated_operation():
    replay = VersionedService(REAL_RESPONSES)
    async with exploring(replay) as explorer:
        app = explorer.app
        await explorer.go_to("/groups/6a793f37c0eb9e7a17711e84/clusters/ldap-954")
        page = region_text(app, app.screen.query_one("PageView")).splitlines()
        assert page[0].strip() == "Return One Cluster from One Project · getCluster"
        assert page[1].strip() == (
            "versions 2023-01-01†, 2023-02-01†, 2024-08-05 († sunset 2026-11-30) · roles: Project Read Only"
        )
        cluster = explorer.link_tree.cursor_node
        assert titles(cluster)[-5:] == [
            "◇ autoScalingConfiguration", "◇ backup/schedule", "◇ onlineArchives", "◇ processArgs",
            "◇ search/deployment",
        ]  # fmt: skip
        await explorer.go_to(
            "/groups/6a79454e2c88faeba59d5246/clusters/search-510/fts/indexes/6a7948772c88faeba59ed643"
        )
        page = region_text(app, app.screen.query_one("PageView")).splitlines()
        assert page[0].strip() == (
            "Return One Atlas Search Index · getAtlasSearchIndexDeprecated · deprecated; sunset 2026-11-30"
        )


@pytest.mark.screen
async def test_without_a_description_the_tree_is_the_links_and_the_page_has_no_header():
    replay = VersionedService(REAL_RESPONSES)
    async with exploring(replay, openapi=None) as explorer:
        app = explorer.app
        await explorer.settle()
        assert titles(explorer.link_tree.root) == []  # the real root links only itself
        project = await explorer.go_to(PROJECT)
        assert titles(project) == [
            "containers  …/containers", "clusters  …/clusters", "databaseUsers  …/databaseUsers", "peers  …/peers",
            "processes  …/processes", "whitelist  …/whitelist",
        ]  # fmt: skip
        page = region_text(app, app.screen.query_one("PageView")).splitlines()
        assert page[0].strip() == "clusterCount: 0"


@pytest.mark.screen
async def test_a_description_that_cannot_be_used_is_told_once_and_the_tree_is_the_links(tmp_path):
    broken = tmp_path / "api.yaml"
    broken.write_text("openapi: [unclosed")
    replay = VersionedService(REAL_RESPONSES)
    async with exploring(replay, openapi=str(broken), notifications=True) as explorer:
        await explorer.until(lambda: "cannot be used" in explorer.toasts())
        assert f"The API description {broken} cannot be used: it is neither JSON nor valid YAML" in explorer.toasts()
        assert "The explorer goes on without it" in explorer.toasts()
        project = await explorer.go_to(PROJECT)
        assert len(titles(project)) == 6
        assert explorer.toasts().count("cannot be used") == 1
