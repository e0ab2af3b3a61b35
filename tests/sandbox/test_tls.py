"""The local certificate authority: made once, kept private, trusted for the served names."""

from __future__ import annotations

import ssl

import httpx

from explorer.sandbox import create_app
from explorer.sandbox.server import ServerThread
from explorer.sandbox.tls import names_for, server_files
from tests.sandbox.conftest import API


def test_server_certificate_is_trusted_through_the_authority(tmp_path):
    files = server_files(tmp_path, names_for("127.0.0.1"))
    trusted = ssl.create_default_context(cafile=str(files.ca))
    with ServerThread(create_app(), tls=files) as server:
        assert server.url.startswith("https://")
        response = httpx.get(server.url + API, verify=trusted)
    assert response.status_code == 401  # reached over verified TLS; credentials are another matter


def test_the_authority_is_reused_and_server_certificates_are_fresh(tmp_path):
    first = server_files(tmp_path, ["localhost"])
    authority, certificate = first.ca.read_bytes(), first.certificate.read_bytes()
    second = server_files(tmp_path, ["localhost", "classroom.local"])
    assert second.ca.read_bytes() == authority
    assert second.certificate.read_bytes() != certificate


def test_names_cover_loopback_and_an_exposed_host():
    assert names_for("192.0.2.10")[0] == "192.0.2.10"
    assert "localhost" in names_for("192.0.2.10")
    everywhere = names_for("0.0.0.0")
    assert {"localhost", "127.0.0.1", "::1"} <= set(everywhere)
    assert all("%" not in name for name in everywhere)
