"""Lists and pages (spec 2.5, 4.6): results, totalCount, links, bounds, empty lists."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest


def rels(body: dict) -> dict[str, str]:
    return {link["rel"]: link["href"] for link in body["links"]}


def query_of(href: str) -> dict[str, list[str]]:
    return parse_qs(urlsplit(href).query)


async def test_more_than_a_thousand_events_make_three_pages_at_the_maximum_size(sandbox):
    project = sandbox.project_id("production")
    pages = []
    url = f"/groups/{project}/events?itemsPerPage=500"
    while url:
        response = await sandbox.get(url)
        assert response.status_code == 200
        pages.append(response.json())
        url = rels(pages[-1]).get("next")

    assert [len(p["results"]) for p in pages] == [500, 500, 234]
    assert {p["totalCount"] for p in pages} == {1234}
    assert "previous" not in rels(pages[0]) and "next" in rels(pages[0])
    assert "previous" in rels(pages[2]) and "next" not in rels(pages[2])
    assert query_of(rels(pages[1])["previous"])["pageNum"] == ["1"]
    ids = [e["id"] for p in pages for e in p["results"]]
    assert len(set(ids)) == 1234
    created = [e["created"] for p in pages for e in p["results"]]
    assert created == sorted(created, reverse=True)  # newest first, across pages


async def test_defaults_are_page_one_of_a_hundred_with_a_count(sandbox):
    body = (await sandbox.get(f"/groups/{sandbox.project_id('production')}/events")).json()

    assert len(body["results"]) == 100
    assert body["totalCount"] == 1234
    assert query_of(rels(body)["self"]) == {"includeCount": ["true"], "pageNum": ["1"], "itemsPerPage": ["100"]}


async def test_include_count_false_leaves_out_total_count(sandbox):
    body = (await sandbox.get("/groups?includeCount=false")).json()
    assert "totalCount" not in body
    assert query_of(rels(body)["self"])["includeCount"] == ["false"]


async def test_a_page_past_the_end_is_empty_not_an_error(sandbox):
    response = await sandbox.get("/orgs?pageNum=9")
    assert response.status_code == 200
    body = response.json()
    assert body["results"] == [] and body["totalCount"] == 2
    assert "next" not in rels(body) and "previous" in rels(body)


async def test_an_empty_list_is_200_with_an_empty_array(sandbox):
    response = await sandbox.get(f"/groups/{sandbox.project_id('empty-sandbox')}/clusters")
    assert response.status_code == 200
    assert response.json()["results"] == []
    assert response.json()["totalCount"] == 0


async def test_a_list_inside_a_project_that_does_not_exist_is_404(sandbox):
    response = await sandbox.get("/groups/111111111111111111111111/databaseUsers")
    assert response.status_code == 404
    assert response.json() == {
        "detail": "No group with ID 111111111111111111111111 exists.",
        "error": 404,
        "errorCode": "GROUP_NOT_FOUND",
        "parameters": ["111111111111111111111111"],
        "reason": "Not Found",
    }


async def test_a_list_inside_a_cluster_that_does_not_exist_is_404(sandbox):
    response = await sandbox.get(f"/groups/{sandbox.project_id('production')}/clusters/nope/backup/snapshots")
    assert response.status_code == 404
    assert response.json()["errorCode"] == "CLUSTER_NOT_FOUND"


async def test_a_malformed_project_id_is_400(sandbox):
    response = await sandbox.get("/groups/not-an-id/clusters")
    assert response.status_code == 400
    assert response.json()["errorCode"] == "INVALID_GROUP_ID"


@pytest.mark.parametrize(
    "query, parameter",
    [
        ("itemsPerPage=501", "itemsPerPage"),
        ("itemsPerPage=0", "itemsPerPage"),
        ("itemsPerPage=-5", "itemsPerPage"),
        ("itemsPerPage=ten", "itemsPerPage"),
        ("itemsPerPage=1e2", "itemsPerPage"),
        ("itemsPerPage=99999999999999999999999", "itemsPerPage"),
        ("pageNum=0", "pageNum"),
        ("pageNum=-1", "pageNum"),
        ("pageNum=", "pageNum"),
        ("pageNum=1&pageNum=2", "pageNum"),
        ("includeCount=yes", "includeCount"),
        ("pretty=1", "pretty"),
        ("envelope=maybe", "envelope"),
        ("sort=name", "sort"),
    ],
)
async def test_out_of_bounds_and_unknown_parameters_are_400_naming_the_parameter(sandbox, query, parameter):
    response = await sandbox.get(f"/groups?{query}")

    assert response.status_code == 400
    body = response.json()
    assert body["errorCode"] == "INVALID_QUERY_PARAMETER"
    assert body["parameters"][0] == parameter
    assert parameter in body["detail"]


async def test_page_links_keep_the_filters_and_formats_asked_for(sandbox):
    project = sandbox.project_id("production")
    body = (await sandbox.get(f"/groups/{project}/events?eventType=HOST_RESTARTED&itemsPerPage=10&pretty=true")).json()

    following = query_of(rels(body)["next"])
    assert following["eventType"] == ["HOST_RESTARTED"]
    assert following["pretty"] == ["true"]
    assert following["pageNum"] == ["2"]
    assert {e["eventTypeName"] for e in body["results"]} == {"HOST_RESTARTED"}


async def test_events_filter_by_date_range(sandbox):
    project = sandbox.project_id("production")
    body = (
        await sandbox.get(f"/groups/{project}/events?minDate=2026-10-01&maxDate=2026-10-15T00:00:00Z&itemsPerPage=500")
    ).json()
    assert body["totalCount"] > 0
    assert all("2026-10-01T00:00:00Z" <= e["created"] <= "2026-10-15T00:00:00Z" for e in body["results"])


async def test_alerts_filter_by_status(sandbox):
    project = sandbox.project_id("production")
    body = (await sandbox.get(f"/groups/{project}/alerts?status=OPEN")).json()
    assert body["totalCount"] >= 1
    assert {a["status"] for a in body["results"]} == {"OPEN"}
    bad = await sandbox.get(f"/groups/{project}/alerts?status=SLEEPING")
    assert bad.status_code == 400


async def test_list_items_carry_only_self_and_entities_carry_more(sandbox):
    project = sandbox.project_id("production")
    listed = (await sandbox.get(f"/groups/{project}/clusters")).json()["results"][0]
    assert [link["rel"] for link in listed["links"]] == ["self"]

    entity = (await sandbox.get(listed["links"][0]["href"])).json()
    assert len(entity["links"]) > 1
    assert {k: v for k, v in entity.items() if k != "links"} == {k: v for k, v in listed.items() if k != "links"}
