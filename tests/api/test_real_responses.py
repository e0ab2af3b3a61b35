"""Every response recorded from the real service parses into a Resource, with what it means."""

from __future__ import annotations

import json

import pytest

from explorer.api.values import BsonTimestamp, as_bson_timestamp, as_date
from explorer.display.pages import page_summary
from tests.conftest import REAL_RESPONSES
from tests.real_response import as_resource


def test_every_recorded_response_parses(real_responses):
    kinds = {"list": 0, "entity": 0, "error": 0}
    for path in real_responses:
        resource = as_resource(path)
        assert resource.json_error is None, path.name
        assert resource.json is not None, path.name
        resource.links, resource.relations, resource.version, resource.service_version  # noqa: B018
        if resource.status >= 400:
            error = resource.error
            assert error is not None and error.kind == "http", path.name
            assert error.line() and error.full(), path.name
            assert error.status == resource.status
            kinds["error"] += 1
        elif resource.page is not None:
            assert page_summary(resource.page).startswith("page "), path.name
            kinds["list"] += 1
        else:
            kinds["entity"] += 1
        if not isinstance(resource.document, dict):
            assert resource.links == [] and resource.page is None, path.name  # e.g. a bare array of names
    assert kinds["list"] > 30 and kinds["entity"] > 50 and kinds["error"] == 27


def load(name: str):
    return as_resource(REAL_RESPONSES / name)


def test_a_list_page_knows_its_count_links_and_size():
    resource = load("200_GET_api_atlas_v2_groups_b0123456789abcdef012345b_alerts_1.http")
    page = resource.page
    assert page.total is not None and page.total > 100
    assert page.number == 1 and page.size == 100
    assert page.next_href.endswith("pageNum=2")
    assert page.previous_href is None
    assert page.pages == -(-page.total // 100)
    assert page_summary(page) == f"page 1 of {page.pages} · {page.total:,} items · 100 per page"


def test_total_count_zero_without_include_count_means_not_counted():
    resource = load("200_GET_api_atlas_v2_groups_b0123456789abcdef012345b_events_1.http")
    assert resource.page.total is None
    assert page_summary(resource.page).startswith("page 1 · 100 on this page")


def test_vendor_rels_are_shortened_for_display_and_kept_whole():
    resource = load(
        "200_GET_api_atlas_v2_groups_6a793f6b2c88faeba59bae37_clusters_backupRestores-305_backup_restoreJobs_6a794733c0eb9e7a17740663_1.http"
    )
    names = {link.name: link.rel for link in resource.relations}
    assert names["snapshot"] == "https://cloud.mongodb.com/snapshot"
    assert names["group"] == "https://cloud.mongodb.com/group"
    assert all(link.extension for link in resource.relations)
    older = load("200_GET_api_atlas_v2_groups_b0123456789abcdef012345b_alertConfigs_6a793faec0eb9e7a177175e1_1.http")
    assert [link.name for link in older.relations] == ["alerts"]  # rel http://localhost:8080/alerts


def test_media_type_version_and_service_version():
    resource = load("200_GET_api_atlas_v2_groups_1.http")
    assert resource.version == "2023-01-01"
    assert resource.service_version == {
        "gitHash": "203ac0360368239eed8f27b82e06b1be8429648c",
        "versionString": "master",
    }
    assert load("401_GET_api_private_ipinfo_1.http").version is None


def test_error_documents_with_missing_or_null_fields():
    digest = load("401_GET_api_private_ipinfo_1.http").error
    assert digest.error_code == "UNEXPECTED_ERROR"
    assert digest.detail == "You are not authorized for this resource."
    assert digest.parameters == []  # the field is missing in this pretty-printed document
    null = load("404_DELETE_api_atlas_v2_orgs_a0123456789abcdef012345a_liveMigrations_linkTokens_1.http").error
    assert null.parameters == []  # "parameters": null
    assert null.line() == "404 Not Found · UNEXPECTED_ERROR: Could not find the requested external organization link."


def test_bson_timestamps_and_dates_are_recognized():
    job = load(
        "200_GET_api_atlas_v2_groups_6a793f6b2c88faeba59bae37_clusters_backupRestores-305_backup_restoreJobs_6a794733c0eb9e7a17740663_1.http"
    ).json
    assert as_bson_timestamp(job["desiredTimestamp"]) == BsonTimestamp(None, None)  # {increment, time, date}: nulls
    assert as_date(job["finishedAt"]).isoformat() == "2026-08-10T03:40:10+00:00"
    assert as_bson_timestamp({"date": "2026-08-10T03:35:05Z", "increment": 7}).increment == 7
    assert str(as_bson_timestamp({"date": "2026-08-10T03:35:05Z", "increment": 7})) == "2026-08-10 03:35:05 UTC #7"
    assert as_bson_timestamp({"date": "yesterday", "increment": 1}) is None
    assert as_date("2026-08-10") is None  # a day, not a moment
    assert as_date(20260810) is None


@pytest.mark.parametrize(
    "body, asked, expected",
    [
        ({"status": 200, "content": {"id": "x", "links": []}}, "true", {"id": "x", "links": []}),
        ({"status": 200, "results": [], "links": []}, "true", {"results": [], "links": []}),
        ({"status": 200, "content": {"id": "x"}}, None, {"status": 200, "content": {"id": "x"}}),
    ],
)
def test_an_envelope_is_taken_off_only_when_asked_for(body, asked, expected):
    import httpx

    from explorer.api.resource import Resource

    url = "https://h/api/x" + (f"?envelope={asked}" if asked else "")
    resource = Resource(
        method="GET", url=url, status=200, headers=httpx.Headers({"content-type": "application/json"}),
        request_headers=[], body=json.dumps(body).encode(), elapsed=0, received_at=0,
    )  # fmt: skip
    assert resource.document == expected
