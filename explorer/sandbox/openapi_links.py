"""The links of the sandbox's API description (openapi.py): what a 201 leads to.

OpenAPI `links` say how one operation's answer feeds another's parameters. Each write that answers
201 with the thing it made links to every operation on that thing (a new project to its clusters,
users and access list; a new cluster to its reading, change and removal, snapshots and restore
jobs), its own path variables from the answer (CREATED), the others from the request's path.
Schemathesis's stateful phase follows them, as any reader of the description may.
"""

from __future__ import annotations

import re
from itertools import takewhile
from typing import Any

from explorer.sandbox.openapi_bodies import answer

VARIABLE = re.compile(r"\{(\w+)\}")
# Where a 201's answer names each path variable of what it made.
CREATED = {
    "groupId": "$response.body#/id",
    "clusterName": "$response.body#/name",
    "databaseName": "$response.body#/databaseName",
    "username": "$response.body#/username",
}


def link_created(paths: dict[str, dict[str, Any]]) -> None:
    """Add to each 201 of `paths` (the description's, variables as `{name}`) its links (see the module)."""
    for template, item in paths.items():
        for operation in item.values():
            created = operation["responses"].get("201")
            answers = created.get("content", {}).values() if created is not None else ()
            if not any(described.get("schema") == answer("Entity") for described in answers):
                continue  # nothing made, or a list (the access list's POST answers with the list)
            links = {}
            for target, target_item in paths.items():
                if not target.startswith(template + "/"):
                    continue
                segments = target.removeprefix(template + "/").split("/")
                own = list(takewhile(bool, map(VARIABLE.fullmatch, segments)))  # what it made: its {…}s first
                new = [found.group(1) for found in own if found]
                beyond = "/".join(segments[len(own) :])  # the rest names nothing else to fill in
                if not new or any(name not in CREATED for name in new) or VARIABLE.search(beyond):
                    continue
                parameters = {name: CREATED[name] for name in new}
                parameters |= {name: f"$request.path.{name}" for name in VARIABLE.findall(template)}
                for linked in target_item.values():
                    links[linked["operationId"]] = {"operationId": linked["operationId"], "parameters": parameters}
            if links:
                created["links"] = links
