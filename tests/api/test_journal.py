"""The journal of writes: each write noted before it goes and what became of it after, never
rewritten, redacted; a write it cannot note is not sent; a write cut off reads as one that may
have reached the service."""

from __future__ import annotations

import json

import httpx
import pytest

from explorer.api.config import Credentials
from explorer.api.errors import ApiError
from explorer.api.har import REDACTED
from explorer.api.journal import Journal, outcome_of
from explorer.api.known_secrets import KnownSecrets
from explorer.api.options import Har
from explorer.api.secret import Secret
from explorer.api.session import Session
from explorer.api.writes import WritePolicy
from explorer.sandbox import Settings
from explorer.sandbox.links import API_ROOT

DEFAULTS = Settings()


def session_on(url: str, journal: Journal, writes: bool = True) -> Session:
    credentials = Credentials(
        base_url=url + API_ROOT,
        client_id=DEFAULTS.client_id,
        client_secret=Secret(DEFAULTS.client_secret),
        profile="lab",
    )
    policy = WritePolicy(writes, "--writes" if writes else "the default")
    return Session(credentials, har=Har(journal=journal), writes=policy)


async def first_cluster(session: Session) -> tuple[str, dict]:
    groups = await session.fetch("/groups")
    project = next(p["id"] for p in groups.json["results"] if p["name"] == "production")
    clusters = await session.fetch(f"/groups/{project}/clusters")
    name = clusters.json["results"][0]["name"]
    url = f"/groups/{project}/clusters/{name}"
    return url, (await session.fetch(url)).json


async def test_a_write_over_a_socket_is_noted_with_the_entity_before_and_its_answer(served, tmp_path):
    path = tmp_path / "journal.sqlite3"
    session = session_on(served.url, Journal(path, profile="lab"))
    url, before = await first_cluster(session)
    sent = await session.send_write(await session.prepare_write("PATCH", url, b'{"diskSizeGB": 80}'), before=before)
    await session.aclose()
    assert sent.status == 200

    (entry,) = Journal(path).entries()  # read back by another session, later
    assert (entry.method, entry.url, entry.outcome, entry.status, entry.profile) == (
        "PATCH", f"{served.url}{API_ROOT}{url}", "sent", 200, "lab"
    )  # fmt: skip
    assert entry.document("body") == {"diskSizeGB": 80}
    assert entry.document("before")["diskSizeGB"] == before["diskSizeGB"] != 80
    assert entry.document("after")["diskSizeGB"] == 80
    assert (entry.undoes, entry.undone_by, entry.origin) == (None, None, served.url)


async def test_a_refused_write_is_noted_refused_and_nothing_goes(served, tmp_path):
    path = tmp_path / "journal.sqlite3"
    session = session_on(served.url, Journal(path), writes=False)
    url, _ = await first_cluster(session)
    outgoing = await session.prepare_write("PATCH", url, b'{"diskSizeGB": 80}')
    sent_before = session.exchange_count
    with pytest.raises(ApiError) as refused:
        await session.send_write(outgoing)
    assert session.exchange_count == sent_before
    await session.aclose()
    (entry,) = Journal(path).entries()
    assert (entry.outcome, entry.status, entry.why) == ("refused", None, refused.value.line())


async def test_a_failed_write_is_noted_with_its_status_and_error_code(served, tmp_path):
    path = tmp_path / "journal.sqlite3"
    session = session_on(served.url, Journal(path))
    url, _ = await first_cluster(session)
    answer = await session.send_write(await session.prepare_write("PATCH", url, b'{"diskSizeGB": "lots"}'))
    await session.aclose()
    (entry,) = Journal(path).entries()
    assert (entry.outcome, entry.status, entry.error_code) == ("failed", answer.status, answer.error.error_code)
    assert entry.status >= 400 and entry.error_code


async def test_a_write_the_journal_cannot_note_is_not_sent(served, tmp_path):
    blocked = tmp_path / "a file, not a folder"
    blocked.write_text("")
    session = session_on(served.url, Journal(blocked / "journal.sqlite3"))
    url, _ = await first_cluster(session)
    outgoing = await session.prepare_write("PATCH", url, b'{"diskSizeGB": 80}')
    count = session.exchange_count
    with pytest.raises(ApiError) as refused:
        await session.send_write(outgoing)
    assert session.exchange_count == count  # nothing went
    await session.aclose()
    assert (refused.value.kind, refused.value.written) == ("journal", "no")
    assert refused.value.line().startswith("Not sent: the journal of writes cannot note it (")
    assert str(blocked / "journal.sqlite3") in (refused.value.hint or "")


async def test_no_password_or_secret_is_noted(served, tmp_path):
    path = tmp_path / "journal.sqlite3"
    session = session_on(served.url, Journal(path))
    groups = await session.fetch("/groups")
    project = next(p["id"] for p in groups.json["results"] if p["name"] == "production")
    roles = [{"databaseName": "admin", "roleName": "readAnyDatabase"}]
    user = {"databaseName": "admin", "username": "noted", "password": "correct-horse-battery-88", "roles": roles}
    users = f"/groups/{project}/databaseUsers"
    created = await session.send_write(await session.prepare_write("POST", users, json.dumps(user).encode()))
    token = session.auth.token.value.reveal()
    await session.aclose()
    assert created.status == 201
    (entry,) = Journal(path).entries()
    assert entry.document("body") == {**user, "password": REDACTED}
    on_disk = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.name.startswith("journal.sqlite3"))
    for secret in ("correct-horse-battery-88", token, DEFAULTS.client_secret):
        assert secret.encode() not in on_disk


def test_a_write_cut_off_before_its_outcome_reads_as_one_that_may_have_reached(tmp_path):
    """The program was killed while the write was on its way: the attempt is on the disk, its outcome never came."""
    journal = Journal(tmp_path / "journal.sqlite3")
    request = httpx.Request("DELETE", "https://cloud.example.com/api/v1/groups/a/clusters/b")
    number = journal.attempt(request, 1_800_000_000)
    journal.close()
    (entry,) = Journal(tmp_path / "journal.sqlite3").entries()
    assert (entry.number, entry.outcome, entry.status) == (number, "may-have-reached", None)


def test_an_outcome_is_noted_once_and_an_undo_marks_what_it_undid(tmp_path):
    journal = Journal(tmp_path / "journal.sqlite3")
    patch = httpx.Request("PATCH", "https://cloud.example.com/api/v1/x", content=b'{"a": 2}')
    first = journal.attempt(patch, 1.0, before=b'{"a": 1}')
    journal.outcome(first, "sent", 2.0, status=200, after=b'{"a": 2}')
    journal.outcome(first, "failed", 3.0, status=500)  # never noted: the first outcome stands
    failed_undo = journal.attempt(httpx.Request("PATCH", patch.url, content=b'{"a": 1}'), 4.0, undoes=first)
    journal.outcome(failed_undo, "failed", 5.0, status=409)
    assert journal.get(first).undone_by is None  # an undo that failed undid nothing
    undo = journal.attempt(httpx.Request("PATCH", patch.url, content=b'{"a": 1}'), 6.0, undoes=first)
    journal.outcome(undo, "sent", 7.0, status=200)
    entries = {e.number: e for e in journal.entries()}
    assert (entries[first].outcome, entries[first].status, entries[first].undone_by) == ("sent", 200, undo)
    assert entries[undo].undoes == first


async def test_a_damaged_journal_is_set_aside_said_once_and_the_write_noted_in_a_new_one(served, tmp_path):
    path = tmp_path / "journal.sqlite3"
    path.write_bytes(b"not a database at all" * 200)
    session = session_on(served.url, Journal(path))
    url, before = await first_cluster(session)
    sent = await session.send_write(await session.prepare_write("PATCH", url, b'{"diskSizeGB": 80}'), before=before)
    problem = session.recording_problem
    await session.aclose()
    assert sent.status == 200
    assert problem is not None and problem.startswith(f"The file {path} could not be read: it was moved to ")
    (entry,) = Journal(path).entries()
    assert (entry.method, entry.outcome) == ("PATCH", "sent")
    (aside,) = [p for p in tmp_path.iterdir() if ".damaged-" in p.name]
    assert aside.read_bytes().startswith(b"not a database")


def on_disk(folder) -> bytes:
    return b"".join(p.read_bytes() for p in folder.iterdir() if p.is_file())


def test_a_refusal_s_words_and_url_keep_no_token_and_no_value_sent_under_a_secret_s_name(tmp_path):
    """An attack found both: a 401's detail saying the token back, and a write's failure line naming
    its URL with `?access_token=…`, were noted as they came."""
    known = KnownSecrets()
    journal = Journal(tmp_path / "journal.sqlite3")
    token, query_secret = "tok-4f9a1c2e-7b3d", "q-secret-6612aa"
    url = f"https://cloud.example.com/api/v1/groups/1?access_token={query_secret}"
    request = httpx.Request("PATCH", url, headers={"Authorization": f"Bearer {token}"}, content=b"{}")
    number = journal.attempt(request, 1.0, before=f'{{"self": "{url}"}}'.encode(), known=known)
    journal.outcome(
        number,
        "failed",
        2.0,
        status=401,
        error_code=f"BAD_{token}",
        why=f"401 Unauthorized: token {token} is not valid ({url})",
        known=known,
    )
    journal.close()
    kept = on_disk(tmp_path)
    assert token.encode() not in kept and query_secret.encode() not in kept
    (entry,) = Journal(tmp_path / "journal.sqlite3").entries()
    assert entry.why.startswith("401 Unauthorized: token [redacted by explorer] is not valid")


@pytest.mark.parametrize(
    ("status", "outcome"),
    [(200, "sent"), (201, "sent"), (204, "sent"), (301, "may-have-reached"), (302, "may-have-reached")]
    + [(303, "may-have-reached"), (307, "failed"), (308, "failed"), (400, "failed"), (503, "failed")],
)
def test_what_became_of_a_write_is_read_from_its_status(status, outcome):
    """A 307 or 308 says the service did not take it there (an undo answered so undid nothing); any
    other 3xx leaves it open."""
    assert outcome_of(status) == outcome


def test_an_undo_on_its_way_or_that_may_have_reached_the_service_counts_as_one(tmp_path):
    """Two `journal undo N` started together both went (an attack): the second did not see the first,
    whose outcome was not yet noted."""
    journal = Journal(tmp_path / "journal.sqlite3")
    patch = httpx.Request("PATCH", "https://cloud.example.com/api/v1/x", content=b'{"a": 2}')
    first = journal.attempt(patch, 1.0, before=b'{"a": 1}')
    journal.outcome(first, "sent", 2.0, status=200)
    refused = journal.attempt(httpx.Request("PATCH", patch.url, content=b'{"a": 1}'), 3.0, undoes=first)
    journal.outcome(refused, "failed", 4.0, status=307)
    assert journal.get(first).undone_by is None
    on_its_way = journal.attempt(httpx.Request("PATCH", patch.url, content=b'{"a": 1}'), 5.0, undoes=first)
    assert journal.get(first).undone_by == on_its_way
    journal.outcome(on_its_way, "may-have-reached", 6.0)
    assert journal.get(first).undone_by == on_its_way
