"""Consent, as the person gave it: an answer typed before the question is no answer, `--yes` at a
terminal answers `Send? [y/N]` but never types a DELETE's name, a read-only preview offers no Send,
`a` after a create offers what it made (not the same POST again), and an undo of a PUT puts back
what the PUT removed. What counts is what arrived at the server (recording_server.py).

The terminal's tests run `explorer` as a program of its own at a pseudo-terminal (`subprocess`):
only a real terminal has a queue of keys typed ahead, and a question to ask.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.widgets import OptionList, Static, TextArea

from explorer.api.config import Credentials
from explorer.api.secret import Secret
from explorer.api.session import Session
from explorer.api.writes import WritePolicy
from explorer.tui.screens.act import ActScreen
from explorer.tui.screens.editor import EditorScreen
from explorer.tui.screens.preview import PreviewScreen
from explorer.tui.writing import UNKNOWN_MADE
from tests.commands.conftest import Terminal, in_process, script_environment
from tests.commands.conftest import at_a_terminal as terminal
from tests.safety.recording_server import Behaviour, RecordingServer
from tests.tui.conftest import explorer_on, open_explorer  # noqa: F401  (open_explorer: a fixture)

PATIENCE = 60.0  # seconds a terminal test waits for what it expects: only a failing test waits them out


def environment(server: RecordingServer, home: Path) -> dict[str, str]:
    """A script's environment pointed at the recording server, with folders of its own."""
    return script_environment(
        {
            "XDG_CACHE_HOME": str(home / "cache"),
            "XDG_CONFIG_HOME": str(home / "config"),
            "EXPLORER_BASE_URL": server.url,
            "EXPLORER_CLIENT_ID": "client",
            "EXPLORER_CLIENT_SECRET": "secret",
        }
    )


def at_a_terminal(
    server: RecordingServer,
    home: Path,
    *arguments: str,
    typed_ahead: bytes = b"",
    question: bytes = b"",
    answer: bytes = b"",
) -> Terminal:
    """`explorer ARGUMENTS` at a terminal, on the recording server (tests/commands/conftest.py)."""
    return terminal(
        arguments, environment(server, home), typed_ahead=typed_ahead, question=question, answer=answer,
        patience=PATIENCE,
    )  # fmt: skip


# Build 8: the terminal question hears only answers --------------------------------------------------


@pytest.mark.subprocess
@pytest.mark.parametrize(
    ("arguments", "typed", "question"),
    [
        (("patch", "/groups/1", "name=x"), b"y\n", b"Send? [y/N] "),
        (("post", "/groups", "name=x"), b"yes\n", b"Send? [y/N] "),
        (("delete", "/groups/1"), b"entity\n", b"(anything else keeps it): "),
    ],
)
def test_keys_typed_before_the_question_are_not_its_answer(server, tmp_path, arguments, typed, question):
    """`y` typed while the preview was on its way (or the name, for a DELETE) is discarded; the
    answer typed once the question shows (Enter: no) is the one that counts, and nothing goes."""
    said = at_a_terminal(server, tmp_path, *arguments, "--writes", typed_ahead=typed, question=question, answer=b"\n")
    assert server.arrivals_of(arguments[0].upper(), arguments[1]) == []  # the write's own path: a token may go
    assert (said.code, said.out) == (1, b"")
    assert said.shown.endswith(f"{question.decode()}explorer {arguments[0]}: not sent\n")


# Build 9: what --yes means at a terminal --------------------------------------------------------------


@pytest.mark.subprocess
def test_yes_at_a_terminal_still_asks_a_delete_for_its_name(server, tmp_path):
    """--yes answers `Send? [y/N]`; a DELETE's typed name is no yes-or-no, and at a terminal it is
    still asked: a wrong name keeps it, the right one deletes it, once."""
    kept = at_a_terminal(
        server, tmp_path, "delete", "/groups/1", "--writes", "--yes", question=b"keeps it): ", answer=b"entity-2\n"
    )
    assert server.arrivals_of("DELETE") == []
    assert kept.code == 1
    assert kept.shown.endswith('Type "entity" to delete it (anything else keeps it): explorer delete: not sent\n')
    deleted = at_a_terminal(
        server, tmp_path, "delete", "/groups/1", "--writes", "--yes", question=b"keeps it): ", answer=b"entity\n"
    )
    assert deleted.code == 0
    assert [arrival.path for arrival in server.arrivals_of("DELETE")] == [
        server.url.removeprefix(server.origin) + "/groups/1"
    ]


@pytest.mark.subprocess
def test_yes_at_a_terminal_answers_the_question_after_showing_the_preview(server, tmp_path):
    """A PATCH with --yes at a terminal: the preview and what it changes are shown, `Send? [y/N]`
    is said answered by --yes, and it goes once, nothing typed."""
    said = at_a_terminal(server, tmp_path, "patch", "/groups/1", "name=x", "--writes", "--yes")
    assert said.code == 0
    assert said.shown.startswith(f"PATCH {server.url}/groups/1\n")
    assert said.shown.splitlines()[-4:] == [
        "What it changes in the entity, fetched just now:",
        '~ .name: "entity" → "x"',
        "",
        "Send? [y/N] y (--yes)",
    ]
    assert [arrival.body for arrival in server.arrivals_of("PATCH")] == [b'{"name": "x"}']


def test_yes_without_a_terminal_is_the_consent_and_without_it_nothing_goes(server, tmp_path):
    """In a script (stdin not a terminal) --yes is what consents, for a DELETE too; without it the
    command stops, sending nothing."""
    refused = in_process(["delete", "/groups/1", "--writes"], environment(server, tmp_path))
    assert refused.code == 2
    assert server.arrivals_of("DELETE") == []
    sent = in_process(["delete", "/groups/1", "--writes", "--yes"], environment(server, tmp_path))
    assert sent.code == 0
    assert len(server.arrivals_of("DELETE")) == 1


# The screen --------------------------------------------------------------------------------------


async def choose(explorer, method: str) -> list[str]:
    """`a`, then the write of `method` in its list, then Enter: the editor opens. The list's labels."""
    await explorer.pilot.press("a")
    await explorer.until_screen(ActScreen)
    labels = act_labels(explorer)
    explorer.app.screen.query_one(OptionList).highlighted = next(
        at for at, label in enumerate(labels) if label.startswith(method)
    )
    await explorer.pilot.press("enter")
    await explorer.until_screen(EditorScreen)
    return labels


def act_labels(explorer) -> list[str]:
    options = explorer.app.screen.query_one(OptionList)
    return [str(options.get_option_at_index(at).prompt) for at in range(options.option_count)]


async def preview(explorer, body: str) -> None:
    """In the editor: this body, then ctrl+s: the preview is up."""
    explorer.app.screen.query_one(TextArea).text = body
    await explorer.pilot.press("ctrl+s")
    await explorer.until_screen(PreviewScreen)


def footer_keys(explorer) -> list[str]:
    """The keys the footer of the screen on top offers, by what they do."""
    return [key.description for key in explorer.app.screen.query("FooterKey")]


@pytest.mark.screen
async def test_a_read_only_preview_offers_no_send(open_explorer):  # noqa: F811
    async with open_explorer() as explorer:
        await explorer.open("groups")
        await explorer.open("groups", "production")
        await choose(explorer, "PATCH")
        await preview(explorer, '{"name": "x"}')
        assert footer_keys(explorer) == ["Back to the editor"]
        await explorer.pilot.press("enter")  # Enter says why, and sends nothing
        await explorer.until(lambda: "Not sent: this session is read-only" in explorer.toasts())
        assert not [entry for entry in explorer.app.session.log if entry.method == "PATCH"]


@pytest.mark.screen
async def test_a_writing_preview_offers_send(open_explorer):  # noqa: F811
    """The other side of the one above: where the session may write, Enter is offered as Send."""
    async with open_explorer(writes=True) as explorer:
        await explorer.open("groups")
        await explorer.open("groups", "production")
        await choose(explorer, "PATCH")
        await preview(explorer, '{"name": "x"}')
        assert footer_keys(explorer) == ["Send", "Back to the editor"]


@pytest.mark.screen
async def test_a_after_a_create_offers_what_it_made_not_the_same_post(open_explorer):  # noqa: F811
    async with open_explorer(writes=True) as explorer:
        groups = (await explorer.open("groups")).data.url
        await choose(explorer, "POST")
        body = json.loads(explorer.app.screen.query_one(TextArea).text)
        await preview(explorer, json.dumps({**body, "name": "made-here"}))
        await explorer.pilot.press("enter")
        await explorer.until(lambda: "POST · 201" in explorer.toasts())
        await explorer.settle()
        made = explorer.screen.made_in_view()
        assert made is not None and made.startswith(groups + "/")
        await explorer.pilot.press("a")
        await explorer.until_screen(ActScreen)
        assert explorer.app.screen.url == made
        assert [label.split()[0] for label in act_labels(explorer)] == ["PATCH", "DELETE"]
        await explorer.pilot.press("enter")  # what `ctrl+s`, Enter made a second project with: now a PATCH of it
        await explorer.until_screen(EditorScreen)
        assert (explorer.app.screen.choice.method, explorer.app.screen.choice.url) == ("PATCH", made)
        writes = [(entry.method, entry.url) for entry in explorer.app.session.log if entry.method != "GET"]
        assert [write for write in writes if "/oauth/" not in write[1]] == [("POST", groups)]


@pytest.mark.screen
async def test_a_after_a_create_that_says_not_where_offers_nothing(server, clock):
    """A 201 with neither Location nor self link: what it made cannot be acted on from here, and
    the list's POST is not offered again; the dialog says why."""
    listed = {"results": [], "totalCount": 0, "links": [{"rel": "self", "href": server.url + "/groups"}]}
    server.script("GET", "/groups", *[Behaviour(200, body=listed)] * 40)  # a list, however often fetched
    server.script("POST", "/groups", Behaviour(201, body={"name": "made"}))
    async with on_server(server, clock) as explorer:
        await explorer.go_to(server.url + "/groups")
        await choose(explorer, "POST")
        await preview(explorer, '{"name": "made"}')
        await explorer.pilot.press("enter")
        await explorer.until(lambda: "POST · 201" in explorer.toasts())
        await explorer.settle()
        await explorer.pilot.press("a")
        await explorer.until_screen(ActScreen)
        assert not explorer.app.screen.query(OptionList)
        said = [str(label.render()) for label in explorer.app.screen.query("Label")]
        assert said[-1] == UNKNOWN_MADE
        await explorer.pilot.press("escape")
    assert len(server.arrivals_of("POST", "/groups")) == 1


def on_server(server: RecordingServer, clock):
    """The screen on the recording server, writes on, no API description (the conventions' writes)."""
    credentials = Credentials(server.url, client_id="client", client_secret=Secret("secret"))
    return explorer_on(Session(credentials, writes=WritePolicy(True, "--writes")), clock)


# Build 7: an undo of a PUT puts back what the PUT removed -----------------------------------------


@pytest.mark.screen
async def test_the_undo_of_a_put_restores_the_fields_it_removed_and_says_what_it_cannot(server, clock):
    entity = {
        "id": "p1",
        "name": "prod",
        "comment": "keep me",
        "tags": [{"key": "env", "value": "prod"}],
        "links": [{"rel": "self", "href": server.url + "/groups/p1"}],
    }
    server.script("GET", "/groups/p1", *[Behaviour(200, body=entity)] * 40)  # as it was, however often fetched
    async with on_server(server, clock) as explorer:
        await explorer.go_to(server.url + "/groups/p1")
        await choose(explorer, "PUT")
        await preview(explorer, '{"name": "prod-2", "extra": 1}')
        await explorer.pilot.press("enter")
        await explorer.until(lambda: len(server.arrivals_of("PUT")) == 1)
        await explorer.until(lambda: "PUT · 200" in explorer.toasts())
        await explorer.pilot.press("u")
        await explorer.until_screen(EditorScreen)
        await explorer.pilot.press("ctrl+s")
        await explorer.until_screen(PreviewScreen)
        caveat = str(explorer.app.screen.query_one("#caveat", Static).render())
        assert caveat == (
            "⚠ This undo cannot put everything back: the write added .extra, which a PATCH cannot remove "
            "(it only sets fields).\n"
        )
        await explorer.pilot.press("enter")
        await explorer.until(lambda: len(server.arrivals_of("PATCH")) == 1)
    undone = server.arrivals_with_body("PATCH")
    assert [json.loads(arrival.body) for arrival in undone] == [
        {"name": "prod", "comment": "keep me", "tags": [{"key": "env", "value": "prod"}]}
    ]
