"""A project's IP access list: entries by address or CIDR block, added many at once, removed one by one."""

from __future__ import annotations

import ipaddress
import re
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from explorer.sandbox.documents import ApiProblem
from explorer.sandbox.links import Hrefs, with_links
from explorer.sandbox.pages import PAGE_PARAMS
from explorer.sandbox.query import Query, takes
from explorer.sandbox.resources.common import done, find, find_project, hrefs, list_reply, project_event, reply
from explorer.sandbox.shapes import ADDRESS_OR_BLOCK, LINKS, Identifier, Network, Text
from explorer.sandbox.world import Project, Record
from explorer.sandbox.writes import Entries, Fields, read_fields, write_status, writes

ENTRY = Fields(
    "AccessListEntry",
    writable={"ipAddress": Network(block=False), "cidrBlock": Network(block=True), "comment": Text(0, 80)},
    one_of=("ipAddress", "cidrBlock"),
    read_only={"groupId": Identifier(), "links": LINKS},
    description="One entry: an IP address or a CIDR block (one of the two), and what it is for.",
)
ENTRIES = Entries(
    "AccessListEntries",
    ENTRY,
    maximum=100,
    example=[
        {"ipAddress": "192.0.2.15", "comment": "build server"},
        {"cidrBlock": "198.51.100.0/24", "comment": "branch office"},
    ],
    description="The entries to add, as a JSON array; an entry already listed takes the new comment.",
)


def entry_document(url_of: Hrefs, project: Project, entry: Record) -> dict[str, Any]:
    return with_links(entry, [url_of.link("self", "groups", project.id, "accessList", entry["cidrBlock"])])


def listed(request: Request, project: Project, status: int = 200) -> Response:
    url_of = hrefs(request)
    return list_reply(
        request,
        list(project.access_list.values()),
        lambda e: entry_document(url_of, project, e),
        url_of("groups", project.id, "accessList"),
        status=status,
    )


@takes(PAGE_PARAMS)
async def list_entries(request: Request) -> Response:
    """Return the entries of a project's IP access list."""
    return listed(request, find_project(request))


def find_entry(request: Request, project: Project) -> Record:
    """The entry the path names, by address (a /32 or /128 block) or CIDR block."""
    text = request.path_params["entry"]
    if re.fullmatch(ADDRESS_OR_BLOCK, text, re.ASCII) is None:  # as the description's pattern says
        raise ApiProblem(
            400, "INVALID_IP_ADDRESS_OR_CIDR_NOTATION", f"{text} is not an IP address or a CIDR block.", [text]
        )
    return find(
        project.access_list,
        str(ipaddress.ip_network(text, strict=False)),
        "ATLAS_NETWORK_PERMISSION_ENTRY_NOT_FOUND",
        f"IP address {text} is not on the access list of group {project.id}.",
        text,
        project.id,
    )


async def get_entry(request: Request) -> Response:
    """Return one entry of a project's IP access list, by address or CIDR block."""
    project = find_project(request)
    entry = find_entry(request, project)
    return reply(request, Query(request), entry_document(hrefs(request), project, entry))


def record_of(project: Project, fields: dict[str, Any]) -> Record:
    """An entry as the service keeps it: its block always, its address too when it is one address."""
    network = ipaddress.ip_network(fields.get("cidrBlock") or fields["ipAddress"], strict=False)
    record: Record = {"cidrBlock": str(network), "groupId": project.id}
    if network.num_addresses == 1:
        record["ipAddress"] = str(network.network_address)
    if "comment" in fields:
        record["comment"] = fields["comment"]
    return dict(sorted(record.items()))


@takes(PAGE_PARAMS)
@writes(201, ENTRIES, description="Created: the project's access list, its first page.")
async def add_entries(request: Request) -> Response:
    """Add entries to a project's IP access list.

    The body is a JSON array of entries. An entry already listed keeps its place and takes the
    comment sent, as does one given twice in the body (10.0.0.0/8 and 10.0.0.1/8 are one block);
    the answer is the access list."""
    project = find_project(request)
    Query(request, PAGE_PARAMS)  # a bad query parameter is refused before anything is written
    given = [record_of(project, fields) for fields in await read_fields(request)]
    records = {record["cidrBlock"]: record for record in given}  # a block given twice: once, the later kept
    for record in records.values():
        # A new record each time, never one changed in place: the list's cache holds records by identity.
        project.access_list[record["cidrBlock"]] = record
        project_event(request, project, "NETWORK_PERMISSION_ENTRY_ADDED", whitelistEntry=record["cidrBlock"])
    return listed(request, project, write_status(request))


@writes(204, description="No Content: the entry is gone.")
async def delete_entry(request: Request) -> Response:
    """Remove one entry from a project's IP access list, by address or CIDR block."""
    project = find_project(request)
    query = Query(request)
    entry = find_entry(request, project)
    del project.access_list[entry["cidrBlock"]]
    project_event(request, project, "NETWORK_PERMISSION_ENTRY_REMOVED", whitelistEntry=entry["cidrBlock"])
    return done(request, query)


async def legacy_whitelist(request: Request) -> Response:
    """The access list under its legacy name, which the real project still links (sparse links)
    and its API description no longer documents: it answers, as the real one does."""
    project = find_project(request)
    url_of = hrefs(request)
    return list_reply(
        request,
        list(project.access_list.values()),
        lambda e: entry_document(url_of, project, e),
        url_of("groups", project.id, "whitelist"),
    )
