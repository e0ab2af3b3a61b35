"""A project's access list written: entries added as a JSON array (201, the list), removed (204)."""

from __future__ import annotations

import pytest


def entries(sandbox, project: str = "staging") -> str:
    return f"/groups/{sandbox.project_id(project)}/accessList"


def blocks(sandbox, project: str = "staging") -> list[str]:
    return list(sandbox.world.project_named(project).access_list)


async def test_post_takes_an_array_and_answers_201_with_the_access_list(sandbox):
    before = blocks(sandbox)
    body = [{"ipAddress": "192.0.2.15", "comment": "build server"}, {"cidrBlock": "2001:db8::/32"}]

    response = await sandbox.call("POST", entries(sandbox), json=body)

    assert response.status_code == 201
    page = response.json()
    assert page["totalCount"] == len(before) + 2
    assert [e["cidrBlock"] for e in page["results"]] == [*before, "192.0.2.15/32", "2001:db8::/32"]
    added = page["results"][-2]
    assert {k: v for k, v in added.items() if k != "links"} == {
        "cidrBlock": "192.0.2.15/32",
        "comment": "build server",
        "groupId": sandbox.project_id("staging"),
        "ipAddress": "192.0.2.15",
    }
    assert added["links"][0]["href"].endswith("/accessList/192.0.2.15%2F32")
    assert (await sandbox.get(added["links"][0]["href"])).json() == added
    assert (await sandbox.get(entries(sandbox))).json()["results"] == page["results"]
    events = (await sandbox.get(f"/groups/{sandbox.project_id('staging')}/events?itemsPerPage=2")).json()["results"]
    assert [(e["eventTypeName"], e["whitelistEntry"]) for e in events] == [
        ("NETWORK_PERMISSION_ENTRY_ADDED", "2001:db8::/32"),
        ("NETWORK_PERMISSION_ENTRY_ADDED", "192.0.2.15/32"),
    ]


async def test_an_entry_already_listed_keeps_its_place_and_takes_the_new_comment(sandbox):
    before = blocks(sandbox)

    response = await sandbox.call("POST", entries(sandbox), json=[{"cidrBlock": "10.20.0.0/16", "comment": "VPN"}])

    assert response.status_code == 201
    assert [e["cidrBlock"] for e in response.json()["results"]] == before
    assert response.json()["results"][0]["comment"] == "VPN"


async def test_a_block_is_kept_as_its_network_and_one_given_twice_is_one_entry(sandbox):
    """What the API description's patterns allow, the sandbox takes: a block with host bits set is
    its network, and two entries that are one block are one entry, the later comment kept."""
    before = blocks(sandbox)
    events_before = (await sandbox.get(f"/groups/{sandbox.project_id('staging')}/events")).json()["totalCount"]
    body = [
        {"cidrBlock": "198.51.100.7/24", "comment": "first"},
        {"cidrBlock": "198.51.100.0/24", "comment": "second"},
        {"ipAddress": "192.0.2.44"},
        {"cidrBlock": "192.0.2.44/32", "comment": "the same address"},
    ]

    response = await sandbox.call("POST", entries(sandbox), json=body)

    assert response.status_code == 201
    added = {e["cidrBlock"]: e.get("comment") for e in response.json()["results"][len(before) :]}
    assert added == {"198.51.100.0/24": "second", "192.0.2.44/32": "the same address"}
    events = (await sandbox.get(f"/groups/{sandbox.project_id('staging')}/events?itemsPerPage=2")).json()
    assert [e["whitelistEntry"] for e in events["results"]] == ["192.0.2.44/32", "198.51.100.0/24"]
    assert events["totalCount"] == events_before + 2  # an event a block, not one each time it was given


@pytest.mark.parametrize("entry", ["192.0.2.1%2F255.255.255.0", "fe80::1%25eth0", "010.0.0.1", "10.0.0.0%2F08"])
async def test_an_entry_named_other_than_the_description_says_is_refused(sandbox, entry):
    response = await sandbox.get(f"{entries(sandbox)}/{entry}")

    assert response.status_code == 400
    assert response.json()["errorCode"] == "INVALID_IP_ADDRESS_OR_CIDR_NOTATION"


async def test_the_page_of_the_answer_follows_the_query(sandbox):
    response = await sandbox.call(
        "POST", entries(sandbox) + "?itemsPerPage=1&includeCount=false", json=[{"ipAddress": "192.0.2.16"}]
    )
    assert response.status_code == 201
    assert len(response.json()["results"]) == 1 and "totalCount" not in response.json()
    refused = await sandbox.call("POST", entries(sandbox) + "?colour=red", json=[{"ipAddress": "192.0.2.17"}])
    assert refused.status_code == 400
    assert "192.0.2.17/32" not in blocks(sandbox)  # refused before anything was written


@pytest.mark.parametrize(
    "body, code, parameters, said",
    [
        ({"ipAddress": "192.0.2.15"}, "INVALID_JSON", [], "JSON array"),
        ([], "INVALID_JSON", [], "JSON array"),
        (["192.0.2.15"], "INVALID_JSON", [], "JSON object in entry 1"),
        ([{"comment": "nothing else"}], "MISSING_ONE_OF_ATTRIBUTES", ["ipAddress", "cidrBlock"], "Either"),
        ([{"ipAddress": "192.0.2.15", "cidrBlock": "192.0.2.0/24"}], "INVALID_ATTRIBUTE", ["cidrBlock"], "only one"),
        ([{"ipAddress": "192.0.2.300"}], "INVALID_ATTRIBUTE", ["ipAddress"], "an IP address"),
        ([{"ipAddress": "192.0.2.0/24"}], "INVALID_ATTRIBUTE", ["ipAddress"], "an IP address"),
        ([{"cidrBlock": "192.0.2.15"}], "INVALID_ATTRIBUTE", ["cidrBlock"], "a CIDR block"),
        ([{"ipAddress": "192.0.2.15", "comment": "x" * 81}], "INVALID_ATTRIBUTE", ["comment"], "comment"),
        (
            [{"ipAddress": "192.0.2.1"}, {"ipAddress": "192.0.2.2", "note": "x"}],
            "INVALID_ATTRIBUTE",
            ["note"],
            "entry 2",
        ),
        ([{"ipAddress": "192.0.2.1", "groupId": "0123456789abcdef01234567"}], "ATTRIBUTE_READ_ONLY", ["groupId"], ""),
    ],
    ids=[
        "object",
        "empty",
        "not-objects",
        "neither",
        "both",
        "bad-address",
        "block-as-address",
        "address-as-block",
        "long-comment",
        "unknown-in-entry-2",
        "read-only",
    ],
)
async def test_refusals_name_the_field_and_write_nothing(sandbox, body, code, parameters, said):
    before = blocks(sandbox)

    response = await sandbox.call("POST", entries(sandbox), json=body)

    assert response.status_code == 400
    assert (response.json()["errorCode"], response.json()["parameters"]) == (code, parameters)
    assert said in response.json()["detail"]
    assert blocks(sandbox) == before


async def test_delete_removes_an_entry_by_address_or_block(sandbox):
    first, second = blocks(sandbox)[1:3]  # the seeded /32 entries
    by_block = await sandbox.call("DELETE", entries(sandbox) + "/" + first.replace("/", "%2F"))
    by_address = await sandbox.call("DELETE", entries(sandbox) + "/" + second.removesuffix("/32"))

    for response in (by_block, by_address):
        assert response.status_code == 204
        assert response.content == b"" and "content-length" not in response.headers
    assert first not in blocks(sandbox) and second not in blocks(sandbox)
    gone = await sandbox.get(entries(sandbox) + "/" + second.removesuffix("/32"))
    assert (gone.status_code, gone.json()["errorCode"]) == (404, "ATLAS_NETWORK_PERMISSION_ENTRY_NOT_FOUND")
    events = (await sandbox.get(f"/groups/{sandbox.project_id('staging')}/events?itemsPerPage=1")).json()["results"]
    assert (events[0]["eventTypeName"], events[0]["whitelistEntry"]) == ("NETWORK_PERMISSION_ENTRY_REMOVED", second)


async def test_delete_refusals(sandbox):
    unknown = await sandbox.call("DELETE", entries(sandbox) + "/203.0.113.9")
    assert (unknown.status_code, unknown.json()["errorCode"]) == (404, "ATLAS_NETWORK_PERMISSION_ENTRY_NOT_FOUND")
    malformed = await sandbox.call("DELETE", entries(sandbox) + "/not-an-address")
    assert (malformed.status_code, malformed.json()["errorCode"]) == (400, "INVALID_IP_ADDRESS_OR_CIDR_NOTATION")
    no_project = await sandbox.call(
        "POST", "/groups/111111111111111111111111/accessList", json=[{"ipAddress": "1.2.3.4"}]
    )
    assert (no_project.status_code, no_project.json()["errorCode"]) == (404, "GROUP_NOT_FOUND")


async def test_a_no_content_answer_has_no_body_even_enveloped(sandbox):
    path = entries(sandbox) + "/10.20.0.0%2F16?envelope=true&pretty=true"
    response = await sandbox.call("DELETE", path)
    assert response.status_code == 204 and response.content == b""
