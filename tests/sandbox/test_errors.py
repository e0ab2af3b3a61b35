"""Error documents (spec 2.4, 7.2) and bad input: the right document, never a 500."""

from __future__ import annotations

import itertools

import pytest

from tests.sandbox.conftest import API

FIVE_FIELDS = {"detail", "error", "errorCode", "parameters", "reason"}


@pytest.mark.parametrize(
    "path",
    [API + "/nothing-here", API + "/groups/111111111111111111111111/nothing", "/api/unknown", "/", "/favicon.ico"],
)
async def test_an_unknown_path_is_resource_not_found_naming_the_path(sandbox, path):
    response = await sandbox.get(str(sandbox.client.base_url).rstrip("/") + path)

    assert response.status_code == 404
    body = response.json()
    assert set(body) == FIVE_FIELDS
    assert body["errorCode"] == "RESOURCE_NOT_FOUND" and body["reason"] == "Not Found" and body["error"] == 404
    assert path in body["detail"]
    assert body["parameters"] == [path]
    assert response.headers["x-error-code"] == "RESOURCE_NOT_FOUND"
    assert response.headers["content-type"] == "application/json"


@pytest.mark.parametrize(
    "path, code",
    [
        ("/orgs/0123456789abcdef01234567", "ORG_NOT_FOUND"),
        ("/orgs/acme", "INVALID_ORG_ID"),
        ("/users/0123456789abcdef01234567", "USER_NOT_FOUND"),
        ("/groups/PROJECT/clusters/no-such-cluster", "CLUSTER_NOT_FOUND"),
        ("/groups/PROJECT/clusters/orders-prod/backup/snapshots/0123456789abcdef01234567", "SNAPSHOT_NOT_FOUND"),
        ("/groups/PROJECT/clusters/orders-prod/backup/restoreJobs/x", "RESTORE_JOB_NOT_FOUND"),
        ("/groups/PROJECT/databaseUsers/admin/nobody", "USERNAME_NOT_FOUND"),
        ("/groups/PROJECT/processes/nohost:27017", "PROCESS_NOT_FOUND"),
        ("/groups/PROJECT/events/0123456789abcdef01234567", "EVENT_NOT_FOUND"),
        ("/groups/PROJECT/alerts/x", "ALERT_NOT_FOUND"),
        ("/groups/PROJECT/alertConfigs/x", "ALERT_CONFIG_NOT_FOUND"),
        ("/groups/PROJECT/accessList/198.51.100.1", "ATLAS_NETWORK_PERMISSION_ENTRY_NOT_FOUND"),
        ("/groups/PROJECT/accessList/not-an-address", "INVALID_IP_ADDRESS_OR_CIDR_NOTATION"),
        ("/groups/PROJECT/teams/x", "TEAM_NOT_FOUND"),
    ],
)
async def test_missing_entities_have_their_own_error_codes(sandbox, path, code):
    response = await sandbox.get(path.replace("PROJECT", sandbox.project_id("production")))

    assert response.status_code in (400, 404)
    assert response.json()["errorCode"] == code
    assert set(response.json()) == FIVE_FIELDS


async def test_access_list_entries_are_found_by_address_or_by_cidr(sandbox):
    base = f"/groups/{sandbox.project_id('production')}/accessList"
    by_cidr = await sandbox.get(base + "/10.20.0.0%2F16")
    listed = (await sandbox.get(base)).json()["results"]
    single = next(e for e in listed if "ipAddress" in e)
    by_address = await sandbox.get(f"{base}/{single['ipAddress']}")

    assert by_cidr.status_code == 200 and by_cidr.json()["comment"] == "office VPN"
    assert by_address.status_code == 200 and by_address.json()["cidrBlock"] == single["cidrBlock"]


HOSTILE_VALUES = ["-1", "0", "99999999999999999999999999", "1e3", "", " ", "%00", "\u202e", "[@click=quit]", "a" * 3000]
HOSTILE_PATHS = [
    "/groups/PROJECT/events/{v}",
    "/groups/{v}",
    "/groups/{v}/clusters",
    "/orgs/{v}/users",
    "/groups/PROJECT/processes/{v}/measurements",
    "/groups/PROJECT/accessList/{v}",
    "/groups/PROJECT/databaseUsers/admin/{v}",
]
HOSTILE_QUERIES = [
    "pageNum={v}",
    "itemsPerPage={v}",
    "includeCount={v}",
    "pretty={v}",
    "envelope={v}",
    "{v}=1",
    "minDate={v}",
    "granularity={v}",
    "period={v}",
    "start={v}&end=2026-01-01",
    "m={v}",
]


@pytest.mark.slow
async def test_no_malformed_request_ever_gets_a_500(open_sandbox):
    async with open_sandbox(rate_limit=100_000) as sandbox:
        project = sandbox.project_id("production")
        process = next(iter(sandbox.world.projects[project].processes))
        statuses = set()
        for template, value in itertools.product(HOSTILE_PATHS, HOSTILE_VALUES):
            response = await sandbox.get(template.replace("PROJECT", project).format(v=value))
            statuses.add(response.status_code)
            assert response.status_code < 500, (template, value, response.text)
            assert (
                set(response.json()) <= FIVE_FIELDS | {"links", "results", "totalCount"} or response.status_code == 200
            )
        for template, value in itertools.product(HOSTILE_QUERIES, HOSTILE_VALUES):
            path = f"/groups/{project}/processes/{process}/measurements?" + template.format(v=value)
            response = await sandbox.get(path)
            assert response.status_code < 500, (template, value, response.text)
            statuses.add(response.status_code)
    assert {400, 404} <= statuses


@pytest.mark.parametrize(
    "query, ok",
    [
        ("", True),
        ("granularity=PT5M&period=PT2H", True),
        ("granularity=PT1M&period=P2D", False),  # 2,881 points
        ("start=2026-11-01T00:00:00Z&end=2026-11-01T06:00:00Z", True),
        ("start=2026-11-01T06:00:00Z&end=2026-11-01T00:00:00Z", False),
        ("period=P1D&start=2026-11-01T00:00:00Z&end=2026-11-02T00:00:00Z", False),
        ("period=PT", False),
        ("period=P99999999999999999999D", False),  # past what a duration can be: a 400, not a 500
        ("period=P1000000D", False),  # a start before the year 1
        ("period=P\u0663D", False),  # an Arabic-Indic three: the description's pattern takes 0-9 only
        ("m=CONNECTIONS&m=CACHE_USED_BYTES", True),
        ("m=NOT_A_METRIC", False),
    ],
)
async def test_measurements_take_a_window_and_a_granularity(sandbox, query, ok):
    project = sandbox.world.projects[sandbox.project_id("production")]
    process = next(iter(project.processes))
    response = await sandbox.get(f"/groups/{project.id}/processes/{process}/measurements?{query}")

    assert response.status_code == (200 if ok else 400), response.text
    if ok:
        body = response.json()
        assert body["measurements"] and all(m["dataPoints"] for m in body["measurements"])
        if "m=" in query:
            assert [m["name"] for m in body["measurements"]] == ["CONNECTIONS", "CACHE_USED_BYTES"]


async def test_a_404_outside_the_api_points_at_its_root(sandbox):
    response = await sandbox.client.get(str(sandbox.client.base_url).rstrip("/") + "/")
    assert response.json()["detail"] == f"Cannot find resource /. The API starts at {API}."


async def test_a_bug_in_the_sandbox_is_a_500_document_and_one_log_line(sandbox, monkeypatch, caplog):
    def broken(*args, **kwargs):
        raise RuntimeError("seeded failure")

    monkeypatch.setattr("explorer.sandbox.resources.orgs.org_document", broken)
    org = next(iter(sandbox.world.orgs))
    response = await sandbox.get(f"/orgs/{org}")

    assert response.status_code == 500
    assert response.json()["errorCode"] == "UNEXPECTED_ERROR"
    assert "seeded failure" not in response.text  # the document does not leak internals
    assert any("RuntimeError: seeded failure" in r.getMessage() for r in caplog.records)
    assert not any(r.exc_info for r in caplog.records if r.levelname == "ERROR")  # no traceback at error level
