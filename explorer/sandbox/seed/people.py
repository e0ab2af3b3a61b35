"""Organizations, their users and teams, and the organization's own events."""

from __future__ import annotations

from explorer.sandbox.seed.catalog import COUNTRIES, FIRST_NAMES, LAST_NAMES, ORG_EVENT_TYPES, TARGET_EVENT_TYPES
from explorer.sandbox.seed.dice import Dice
from explorer.sandbox.world import Org, Record, Team, World, iso


def org(world: World, dice: Dice, name: str) -> Org:
    created = dice.ago(900, 1200)
    made = Org({"id": dice.new_id(created), "isDeleted": False, "name": name, "skipDefaultAlertsSettings": False})
    world.orgs[made.id] = made
    return made


def users(world: World, dice: Dice, owner: Org, taken: set[tuple[str, str]], count: int) -> list[Record]:
    """`count` members with names no other organization uses; the first owns the organization."""
    domain = owner.fields["name"].split()[0].lower() + ".example"
    members: list[Record] = []
    while len(members) < count:
        first, last = dice.choice(FIRST_NAMES), dice.choice(LAST_NAMES)
        if (first, last) in taken:
            continue
        taken.add((first, last))
        created = dice.ago(30, 900)
        username = f"{first.lower()}.{last.lower()}@{domain}"
        user: Record = {
            "country": dice.choice(COUNTRIES),
            "createdAt": iso(created),
            "emailAddress": username,
            "firstName": first,
            "id": dice.new_id(created),
            "lastAuth": iso(dice.ago(0, 20)),
            "lastName": last,
            "mobileNumber": None,
            "orgId": owner.id,
            "orgMembershipStatus": "PENDING" if len(members) == count - 1 else "ACTIVE",
            "orgRoles": ["ORG_MEMBER"] if members else ["ORG_OWNER"],
            "groupRoles": {},
            "teamIds": [],
            "username": username,
        }
        world.users[user["id"]] = user
        owner.user_ids.append(user["id"])
        members.append(user)
    return members


def teams(world: World, dice: Dice, owner: Org, members: list[Record], names: list[str]) -> None:
    for name in names:
        created = dice.ago(100, 800)
        team = Team({"id": dice.new_id(created), "name": name}, owner.id)
        team.user_ids = [u["id"] for u in dice.sample(members, dice.integer(2, 5))]
        for user_id in team.user_ids:
            world.users[user_id]["teamIds"].append(team.id)
        world.teams[team.id] = team
        owner.team_ids.append(team.id)


def org_events(world: World, dice: Dice, owner: Org, members: list[Record], count: int) -> list[Record]:
    events = []
    for _ in range(count):
        created = dice.ago(0.01, 200)
        event_type = dice.choice(ORG_EVENT_TYPES)
        actor = dice.choice(members)
        event: Record = {
            "created": iso(created),
            "eventTypeName": event_type,
            "id": dice.new_id(created),
            "isGlobalAdmin": False,
            "orgId": owner.id,
            "remoteAddress": dice.ip(),
            "userId": actor["id"],
            "username": actor["username"],
        }
        if event_type in TARGET_EVENT_TYPES:
            event["targetUsername"] = dice.choice(members)["username"]
        if "TEAM" in event_type and owner.team_ids:
            event["teamId"] = dice.choice(owner.team_ids)
        projects = world.projects_of(owner.id)
        if event_type == "GROUP_CREATED" and projects:
            event["groupId"] = dice.choice(projects).id
        events.append(event)
    return events
