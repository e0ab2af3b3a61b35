"""Response format (spec 4.1, 4.4, 2.6, 2.8, 2.10, 9): pretty, envelope, headers, versions, dates."""

from __future__ import annotations

import json
import re
from email.utils import formatdate

import pytest

from tests.sandbox.conftest import API

SUCCESS_HEADERS = {
    "strict-transport-security": "max-age=31536000; includeSubdomains",
    "vary": "Accept-Encoding",
    "referrer-policy": "strict-origin-when-cross-origin",
    "x-permitted-cross-domain-policies": "none",
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
}
VENDOR_MEDIA = re.compile(r"application/vnd\.service\.(\d{4}-\d{2}-\d{2})\+json;charset=utf-8")
SERVICE_VERSION = re.compile(r"gitHash=[0-9a-f]{40}; versionString=\S+")
HTTP_DATE = re.compile(r"[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT")
ISO_UTC = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z")


async def paths(sandbox) -> list[str]:
    project = sandbox.project_id("production")
    return [
        API,
        "/orgs",
        "/groups",
        f"/groups/{project}",
        f"/groups/{project}/clusters/orders-prod",
        "/api/private/ipinfo",
    ]


async def test_every_success_carries_the_headers_of_spec_4_4(sandbox):
    for path in await paths(sandbox):
        response = await sandbox.get(path)
        assert response.status_code == 200
        for name, value in SUCCESS_HEADERS.items():
            assert response.headers[name] == value, (path, name)
        assert VENDOR_MEDIA.fullmatch(response.headers["content-type"]), path
        assert SERVICE_VERSION.fullmatch(response.headers["x-service-version"])
        assert HTTP_DATE.fullmatch(response.headers["date"])
        assert int(response.headers["content-length"]) == len(response.content)
        assert response.headers.get_list("date") == [response.headers["date"]]


async def test_the_date_header_is_the_response_time(sandbox):
    response = await sandbox.get("/orgs")
    assert response.headers["date"] == formatdate(sandbox.clock(), usegmt=True)
    sandbox.clock.advance(3600)
    assert (await sandbox.get("/orgs")).headers["date"] == formatdate(sandbox.clock(), usegmt=True)


async def test_without_pretty_there_is_no_extraneous_whitespace(sandbox):
    response = await sandbox.get("/groups")
    assert response.text == json.dumps(response.json(), separators=(",", ":"), ensure_ascii=False)


async def test_pretty_true_indents(sandbox):
    response = await sandbox.get("/groups?pretty=true")
    assert response.text.startswith('{\n  "links" : [\n    {\n')
    assert json.loads(response.text)["results"] == (await sandbox.get("/groups")).json()["results"]


async def test_envelope_wraps_an_entity(sandbox):
    plain = (await sandbox.get(f"/groups/{sandbox.project_id('staging')}")).json()
    wrapped = (await sandbox.get(f"/groups/{sandbox.project_id('staging')}?envelope=true")).json()
    assert wrapped == {"status": 200, "content": plain}


async def test_envelope_adds_only_status_to_a_list(sandbox):
    plain = (await sandbox.get("/orgs")).json()
    wrapped = (await sandbox.get("/orgs?envelope=true")).json()
    assert set(wrapped) - set(plain) == {"status"}
    assert wrapped["status"] == 200
    assert wrapped["results"] == plain["results"]


async def test_errors_carry_their_status_in_an_envelope(sandbox):
    response = await sandbox.get("/groups/111111111111111111111111?envelope=true&pretty=true")
    assert response.status_code == 404
    body = response.json()
    assert body["status"] == 404
    assert body["content"]["errorCode"] == "GROUP_NOT_FOUND"
    assert "\n" in response.text


async def test_rate_limit_headers_on_project_paths_like_the_real_service(sandbox):
    project = sandbox.project_id("production")
    first = await sandbox.get(f"/groups/{project}/clusters")
    second = await sandbox.get(f"/groups/{project}")
    assert first.headers["ratelimit-limit"] == "100"
    assert first.headers["ratelimit-remaining"] == "99"
    assert second.headers["ratelimit-remaining"] == "98"
    assert "ratelimit-limit" not in (await sandbox.get("/orgs")).headers


@pytest.mark.parametrize("kind", ["entity", "list", "error", "root"])
async def test_head_works_wherever_get_does(sandbox, kind):
    project = sandbox.project_id("production")
    path = {"entity": f"/groups/{project}", "list": "/orgs", "error": "/groups/111111111111111111111111", "root": API}[
        kind
    ]
    got = await sandbox.get(path)
    head = await sandbox.call("HEAD", path)

    assert head.status_code == got.status_code
    assert head.content == b""
    assert head.headers["content-length"] == got.headers["content-length"]
    assert head.headers["content-type"] == got.headers["content-type"]


async def test_a_resource_version_is_selected_with_accept(sandbox):
    path = f"/groups/{sandbox.project_id('production')}/clusters/catalog-prod"
    old = await sandbox.get(path)
    new = await sandbox.get(path, headers={"Accept": "application/vnd.service.2024-08-05+json"})

    assert VENDOR_MEDIA.fullmatch(old.headers["content-type"]).group(1) == "2023-01-01"
    assert VENDOR_MEDIA.fullmatch(new.headers["content-type"]).group(1) == "2024-08-05"
    assert [s["numShards"] for s in old.json()["replicationSpecs"]] == [2]
    assert len(new.json()["replicationSpecs"]) == 2
    assert all("numShards" not in s for s in new.json()["replicationSpecs"])


async def test_an_unknown_version_is_406_and_a_generic_accept_gets_the_default(sandbox):
    path = f"/groups/{sandbox.project_id('production')}/clusters"
    missing = await sandbox.get(path, headers={"Accept": "application/vnd.service.2099-01-01+json"})
    assert missing.status_code == 406
    assert missing.json()["errorCode"] == "INVALID_VERSION_DATE"  # as the real service says it
    either = await sandbox.get(path, headers={"Accept": "application/vnd.service.2099-01-01+json, application/json"})
    assert either.status_code == 200


def walk(value, key=""):
    if isinstance(value, dict):
        for k, v in value.items():
            yield from walk(v, k)
    elif isinstance(value, list):
        for v in value:
            yield from walk(v, key)
    else:
        yield key, value


async def test_dates_are_iso_8601_utc_strings(sandbox):
    project = sandbox.project_id("production")
    for path in [f"/groups/{project}/events", f"/groups/{project}/alerts", "/groups", f"/groups/{project}/clusters"]:
        body = (await sandbox.get(path)).json()
        dates = [
            v for k, v in walk(body) if k in ("created", "createDate", "createdAt", "updated", "lastNotified", "date")
        ]
        assert dates, path
        assert all(isinstance(d, str) and ISO_UTC.fullmatch(d) for d in dates), path


async def test_backups_carry_bson_timestamps(sandbox):
    base = f"/groups/{sandbox.project_id('production')}/clusters/orders-prod/backup"
    snapshot = (await sandbox.get(f"{base}/snapshots")).json()["results"][0]
    job = (await sandbox.get(f"{base}/restoreJobs")).json()["results"][0]
    for stamp in (snapshot["lastOplogAppliedTimestamp"], job["desiredTimestamp"]):
        assert set(stamp) == {"date", "increment"}
        assert ISO_UTC.fullmatch(stamp["date"])
        assert isinstance(stamp["increment"], int) and 0 <= stamp["increment"] < 2**32
