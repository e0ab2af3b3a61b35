"""A project's IP access list: entries by address or CIDR block."""

from __future__ import annotations

import ipaddress
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from explorer.sandbox.documents import ApiProblem
from explorer.sandbox.links import Hrefs, with_links
from explorer.sandbox.pages import PAGE_PARAMS
from explorer.sandbox.query import Query, takes
from explorer.sandbox.resources.common import find, find_project, hrefs, list_reply, reply
from explorer.sandbox.world import Project, Record


def entry_document(h: Hrefs, project: Project, entry: Record) -> dict[str, Any]:
    return with_links(entry, [h.link("self", "groups", project.id, "accessList", entry["cidrBlock"])])


@takes(PAGE_PARAMS)
async def list_entries(request: Request) -> Response:
    """Return the entries of a project's IP access list."""
    project = find_project(request)
    h = hrefs(request)
    return list_reply(
        request,
        list(project.access_list.values()),
        lambda e: entry_document(h, project, e),
        h("groups", project.id, "accessList"),
    )


async def get_entry(request: Request) -> Response:
    """Return one entry of a project's IP access list, by address or CIDR block."""
    project = find_project(request)
    text = request.path_params["entry"]
    try:
        cidr = str(ipaddress.ip_network(text, strict=False))
    except ValueError:
        raise ApiProblem(
            400, "INVALID_IP_ADDRESS_OR_CIDR_NOTATION", f"{text} is not an IP address or a CIDR block.", [text]
        ) from None
    entry = find(
        project.access_list,
        cidr,
        "ATLAS_NETWORK_PERMISSION_ENTRY_NOT_FOUND",
        f"IP address {text} is not on the access list of group {project.id}.",
        text,
        project.id,
    )
    return reply(request, Query(request), entry_document(hrefs(request), project, entry))


async def legacy_whitelist(request: Request) -> Response:
    """The access list under its legacy name, which the real project still links (sparse links)
    and its API description no longer documents: it answers, as the real one does."""
    project = find_project(request)
    h = hrefs(request)
    return list_reply(
        request,
        list(project.access_list.values()),
        lambda e: entry_document(h, project, e),
        h("groups", project.id, "whitelist"),
    )
