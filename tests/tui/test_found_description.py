"""No API description given: the screen finds the one the service publishes at /openapi.json, quietly.

As `explorer sandbox`'s banner opens it (no --openapi): `a` then offers what the description
documents, its example and its schema check; where the service publishes none, nothing is said.
"""

from __future__ import annotations

import json

import httpx
import pytest
from textual.widgets import OptionList, Static

from explorer.api.config import Credentials
from explorer.api.secret import Secret
from explorer.api.session import Session
from explorer.api.writes import WritePolicy
from explorer.sandbox import Settings, create_app
from explorer.sandbox.links import API_ROOT, DESCRIPTION_PATH
from explorer.sandbox.scenarios import scenario_named
from explorer.tui.screens.act import ActScreen
from tests.tui.conftest import explorer_on
from tests.tui.test_writes import choose, editor_text
from tests.undescribed import Undescribed

DEFAULTS = Settings()


def credentials(base_url: str) -> Credentials:
    """The banner's: a base URL and the service account, no API description."""
    return Credentials(base_url, client_id=DEFAULTS.client_id, client_secret=Secret(DEFAULTS.client_secret))


def descriptions_asked(explorer) -> list[int]:
    """The status of each request for the description, as the Log lists them."""
    return [e.status for e in explorer.app.session.log if e.url.endswith(DESCRIPTION_PATH)]


@pytest.mark.screen
async def test_a_on_the_sandbox_as_its_banner_opens_it_offers_the_documented_write_and_its_example(live_server, clock):
    server, switchboard = live_server
    switchboard.app = create_app(Settings())
    published = httpx.get(server.url + DESCRIPTION_PATH).json()
    create = published["paths"][API_ROOT + "/groups/{groupId}/clusters"]["post"]
    example = next(iter(create["requestBody"]["content"].values()))["example"]
    session = Session(credentials(server.url + API_ROOT), writes=WritePolicy(True, "--writes"))
    async with explorer_on(session, clock) as explorer:
        await explorer.open("groups")
        project = explorer.node("groups", "production").data.url
        await explorer.go_to(f"{project}/clusters")
        labels = await choose(explorer, "POST")
        assert labels == ["POST   Create a cluster in a project.  roles: Project Owner"]  # documented, not guessed
        assert json.loads(editor_text(explorer)) == example  # its example, to start from
        problems = explorer.app.screen.query_one("#problems", Static)
        assert str(problems.render()) == "✓ JSON, as the API description's schema asks"
        assert explorer.toasts() == ""  # found quietly
    assert descriptions_asked(explorer) == [200]


@pytest.mark.screen
async def test_where_the_service_publishes_no_description_nothing_is_said_and_a_offers_the_conventions(clock):
    session = Session(
        credentials("https://sandbox.invalid" + API_ROOT),
        transport=httpx.ASGITransport(app=Undescribed(create_app(Settings(clock=clock)))),
    )
    async with explorer_on(session, clock) as explorer:
        await explorer.until(lambda: descriptions_asked(explorer) == [404])
        await explorer.settle()
        await explorer.open("groups")
        await explorer.open("groups", "production")
        await explorer.pilot.press("a")
        await explorer.until_screen(ActScreen)
        options = explorer.app.screen.query_one(OptionList)
        assert [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)] == [
            "PATCH  Update named fields (not documented: the convention for an entity)",
            "PUT    Replace it (not documented: the convention for an entity)",
            "DELETE Remove it (not documented: the convention for an entity)",
        ]
        await explorer.pilot.press("escape")
        await explorer.pilot.press("home", "r")  # the root again: looked for once a session, not each time
        await explorer.settle()
        assert explorer.requests(API_ROOT) == 2
        assert explorer.toasts() == ""
    assert descriptions_asked(explorer) == [404]


@pytest.mark.screen
async def test_the_root_gains_the_documented_paths_its_sparse_links_leave_out_once_found(clock):
    sparse = create_app(scenario_named("sparse-links").settings(Settings(clock=clock)))  # the root links itself only
    session = Session(credentials("https://sandbox.invalid" + API_ROOT), transport=httpx.ASGITransport(app=sparse))
    async with explorer_on(session, clock) as explorer:
        await explorer.until(lambda: descriptions_asked(explorer) == [200])
        await explorer.settle()
        assert [child.label.plain for child in explorer.link_tree.root.children] == ["◇ groups", "◇ orgs"]
