"""A project and what it holds, as its plan says: clusters, users, access list, teams, activity."""

from __future__ import annotations

from datetime import timedelta

from explorer.sandbox.seed import activity, clusters
from explorer.sandbox.seed.catalog import DATABASE_ROLES, PROJECT_ROLES, SERVICE_NAMES, TEAM_ROLES, ProjectPlan
from explorer.sandbox.seed.dice import Dice
from explorer.sandbox.world import Org, Project, Record, World, iso


def project(world: World, dice: Dice, owner: Org, members: list[Record], plan: ProjectPlan) -> None:
    created = dice.ago(200, 700)
    made = Project(
        {
            "created": iso(created),
            "id": dice.new_id(created),
            "name": plan.name,
            "orgId": owner.id,
            "tags": [{"key": k, "value": v} for k, v in plan.tags],
            "withDefaultAlertsSettings": True,
        },
        authorized=plan.granted,
    )
    world.projects[made.id] = made
    for user in dice.sample(members, min(3, len(members))):
        user["groupRoles"][made.id] = [dice.choice(PROJECT_ROLES)]
    for cluster_plan in plan.clusters:
        clusters.cluster(dice, made, cluster_plan)
    for index in range(plan.database_users):
        database_user(dice, made, index)
    if not plan.new:
        access_list(dice, made)
        activity.alert_configs(dice, made)
        for team_id in dice.sample(owner.team_ids, min(2, len(owner.team_ids))):
            made.teams[team_id] = {"roleNames": dice.sample(TEAM_ROLES, 2), "teamId": team_id}
    activity.alerts(dice, made, plan.alerts)
    made.events.extend(activity.project_events(dice, made, members, plan.events))


def database_user(dice: Dice, owner: Project, index: int) -> None:
    """Service users, or numbered students in the training project (who expire after the course)."""
    training = owner.fields["name"] == "training-lab"
    if training:
        username = f"student{index + 1:02d}"
    else:
        username = SERVICE_NAMES[index % len(SERVICE_NAMES)] + ("" if index < len(SERVICE_NAMES) else f"-{index}")
    role = dice.choice(DATABASE_ROLES)
    user: Record = {
        "awsIAMType": "NONE",
        "databaseName": "admin",
        "groupId": owner.id,
        "labels": [{"key": "owner", "value": dice.choice(["platform", "data-eng", "support"])}]
        if index % 3 == 0
        else [],
        "ldapAuthType": "NONE",
        "oidcAuthType": "NONE",
        "roles": [{"databaseName": "admin", "roleName": role}],
        "scopes": [],
        "username": username,
        "x509Type": "NONE",
    }
    if owner.clusters and index % 2 == 1:
        user["scopes"] = [{"name": dice.choice(list(owner.clusters)), "type": "CLUSTER"}]
    if training:
        user["deleteAfterDate"] = iso(dice.epoch + timedelta(days=14))
    owner.database_users[("admin", username)] = user


def access_list(dice: Dice, owner: Project) -> None:
    entries = [("10.20.0.0/16", "office VPN"), (f"{dice.ip()}/32", "CI runners"), (f"{dice.ip()}/32", "on-call laptop")]
    if owner.fields["name"] == "production":
        entries.append(("192.0.2.0/24", "partner integration"))
    for cidr, comment in entries:
        entry = {"cidrBlock": cidr, "comment": comment, "groupId": owner.id}
        if cidr.endswith("/32"):
            entry["ipAddress"] = cidr.removesuffix("/32")
        owner.access_list[cidr] = entry
