"""Organizations, their teams and their users; and a user by ID."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from explorer.sandbox.links import Hrefs, with_links
from explorer.sandbox.pages import PAGE_PARAMS
from explorer.sandbox.query import Query, takes
from explorer.sandbox.resources.common import (
    find,
    find_org,
    hrefs,
    list_reply,
    not_found,
    object_id,
    reply,
    world,
)
from explorer.sandbox.resources.projects import project_document
from explorer.sandbox.world import Org, Record, Team


def org_document(url_of: Hrefs, org: Org, full: bool) -> dict[str, Any]:
    links = [url_of.link("self", "orgs", org.id)]
    if full:
        links += [url_of.link(name, "orgs", org.id, name) for name in ("groups", "teams", "users", "events")]
    return with_links(org.fields, links)


def team_document(url_of: Hrefs, team: Team, full: bool) -> dict[str, Any]:
    links = [url_of.link("self", "orgs", team.org_id, "teams", team.id)]
    if full:
        links += [
            url_of.link("users", "orgs", team.org_id, "teams", team.id, "users"),
            url_of.link("org", "orgs", team.org_id),
        ]
    return with_links(team.fields, links)


def member_document(url_of: Hrefs, user: Record) -> dict[str, Any]:
    """A user as an item of an organization's (or a team's) list of users."""
    fields = {
        "country": user["country"],
        "createdAt": user["createdAt"],
        "firstName": user["firstName"],
        "id": user["id"],
        "lastAuth": user["lastAuth"],
        "lastName": user["lastName"],
        "mobileNumber": user["mobileNumber"],
        "orgMembershipStatus": user["orgMembershipStatus"],
        "roles": {
            "groupRoleAssignments": [
                {"groupId": group_id, "groupRoles": roles} for group_id, roles in user["groupRoles"].items()
            ],
            "orgRoles": user["orgRoles"],
        },
        "teamIds": user["teamIds"],
        "username": user["username"],
    }
    return with_links(fields, [url_of.link("self", "users", user["id"])])


def user_document(url_of: Hrefs, user: Record) -> dict[str, Any]:
    roles = [{"orgId": user["orgId"], "roleName": role} for role in user["orgRoles"]]
    roles += [
        {"groupId": group_id, "roleName": role} for group_id, names in user["groupRoles"].items() for role in names
    ]
    fields = {
        "country": user["country"],
        "createdAt": user["createdAt"],
        "emailAddress": user["emailAddress"],
        "firstName": user["firstName"],
        "id": user["id"],
        "lastAuth": user["lastAuth"],
        "lastName": user["lastName"],
        "roles": roles,
        "teamIds": user["teamIds"],
        "username": user["username"],
    }
    return with_links(fields, [url_of.link("self", "users", user["id"]), url_of.link("org", "orgs", user["orgId"])])


@takes(PAGE_PARAMS)
async def list_orgs(request: Request) -> Response:
    """Return the organizations."""
    url_of = hrefs(request)
    return list_reply(
        request, list(world(request).orgs.values()), lambda o: org_document(url_of, o, False), url_of("orgs")
    )


async def get_org(request: Request) -> Response:
    """Return one organization."""
    org = find_org(request)
    return reply(request, Query(request), org_document(hrefs(request), org, True))


@takes(PAGE_PARAMS)
async def org_projects(request: Request) -> Response:
    """Return the projects of an organization."""
    org = find_org(request)
    url_of = hrefs(request)
    projects = world(request).projects_of(org.id)
    return list_reply(request, projects, lambda p: project_document(url_of, p, False), url_of("orgs", org.id, "groups"))


@takes(PAGE_PARAMS)
async def org_teams(request: Request) -> Response:
    """Return the teams of an organization."""
    org = find_org(request)
    url_of = hrefs(request)
    teams = [world(request).teams[t] for t in org.team_ids]
    return list_reply(request, teams, lambda t: team_document(url_of, t, False), url_of("orgs", org.id, "teams"))


def find_team(request: Request, org: Org) -> Team:
    team_id = request.path_params["teamId"]
    team = world(request).teams.get(team_id)
    if team is None or team.org_id != org.id:
        raise not_found("TEAM_NOT_FOUND", f"No team with ID {team_id} exists in organization {org.id}.", team_id)
    return team


async def get_team(request: Request) -> Response:
    """Return one team of an organization."""
    team = find_team(request, find_org(request))
    return reply(request, Query(request), team_document(hrefs(request), team, True))


@takes(PAGE_PARAMS)
async def team_users(request: Request) -> Response:
    """Return the users of one team."""
    org = find_org(request)
    team = find_team(request, org)
    url_of = hrefs(request)
    users = [world(request).users[u] for u in team.user_ids]
    return list_reply(
        request, users, lambda u: member_document(url_of, u), url_of("orgs", org.id, "teams", team.id, "users")
    )


@takes(PAGE_PARAMS)
async def org_users(request: Request) -> Response:
    """Return the users of an organization."""
    org = find_org(request)
    url_of = hrefs(request)
    users = [world(request).users[u] for u in org.user_ids]
    return list_reply(request, users, lambda u: member_document(url_of, u), url_of("orgs", org.id, "users"))


async def get_user(request: Request) -> Response:
    """Return one user, by ID."""
    user_id = object_id(request.path_params["userId"], "user", "INVALID_USER_ID")
    user = find(world(request).users, user_id, "USER_NOT_FOUND", f"No user with ID {user_id} exists.")
    return reply(request, Query(request), user_document(hrefs(request), user))
