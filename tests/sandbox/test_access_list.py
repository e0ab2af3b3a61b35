"""The IP access list (spec 1, 5.5): at the token endpoints and on every ordinary request."""

from __future__ import annotations

import httpx
import pytest

from explorer.sandbox.access import AccessList
from explorer.sandbox.settings import parse_network
from tests.sandbox.conftest import API


async def test_token_endpoint_refuses_an_address_outside_the_list(open_sandbox):
    async with open_sandbox(access_list=["10.0.0.0/8"]) as sandbox:
        response = await sandbox.request_token()

    assert response.status_code == 403
    assert response.json() == {
        "error": "access_denied",
        "error_description": "IP access list validation failed for the service account.",
    }
    assert response.headers["strict-transport-security"] == "max-age=300"
    assert response.headers["x-service-version"].startswith("gitHash=")


async def test_revoke_refuses_an_address_outside_the_list(open_sandbox):
    async with open_sandbox(access_list=["10.0.0.0/8"]) as sandbox:
        response = await sandbox.client.post("/api/oauth/revoke", headers=sandbox.basic(), data={"token": "x"})
    assert response.status_code == 403
    assert response.json()["error"] == "access_denied"


async def test_ordinary_requests_name_the_address_the_service_saw(open_sandbox):
    async with open_sandbox(access_list=["10.0.0.0/8"]) as sandbox:
        auth = httpx.DigestAuth(sandbox.settings.public_key, sandbox.settings.private_key)
        response = await sandbox.client.get(API + "/groups", auth=auth)

    assert response.status_code == 403
    body = response.json()
    assert body["errorCode"] == "IP_ADDRESS_NOT_ON_ACCESS_LIST"
    assert body["detail"] == "IP address 127.0.0.1 is not allowed to access this resource."
    assert body["parameters"] == ["127.0.0.1"]
    assert response.headers["x-error-code"] == "IP_ADDRESS_NOT_ON_ACCESS_LIST"


async def test_an_address_inside_the_list_is_served(open_sandbox):
    async with open_sandbox(access_list=["10.0.0.0/8", "127.0.0.0/8"]) as sandbox:
        assert (await sandbox.get("/groups")).status_code == 200


async def test_clients_on_other_networks(open_in_process):
    async with open_in_process(client=("203.0.113.9", 4000), access_list=["203.0.113.0/24"]) as inside:
        assert (await inside.request_token()).status_code == 200
    async with open_in_process(client=("198.51.100.7", 4000), access_list=["203.0.113.0/24"]) as outside:
        auth = httpx.DigestAuth(outside.settings.public_key, outside.settings.private_key)
        response = await outside.client.get(API, auth=auth)
        assert response.json()["parameters"] == ["198.51.100.7"]


def test_access_list_matching():
    listed = AccessList((parse_network("192.0.2.0/24"), parse_network("2001:db8::/32")))
    assert listed.allows("192.0.2.44")
    assert listed.allows("::ffff:192.0.2.44")  # an IPv4 client on a dual-stack socket
    assert listed.allows("2001:db8::1")
    assert not listed.allows("192.0.3.1")
    assert not listed.allows(None)
    assert not listed.allows("not-an-address")
    assert AccessList(()).allows(None)


def test_bad_cidr_gets_a_clear_message():
    with pytest.raises(ValueError, match="is not an IP address or CIDR block"):
        parse_network("10.0.0.0/33")
