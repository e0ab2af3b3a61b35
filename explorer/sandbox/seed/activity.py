"""What happens in a project: alert configurations, the alerts they raised, and events."""

from __future__ import annotations

from datetime import datetime, timedelta

from explorer.sandbox.seed.catalog import ACTOR_EVENT_TYPES, ALERT_CONFIGS, CLUSTER_EVENT_TYPES, PROJECT_EVENT_TYPES
from explorer.sandbox.seed.dice import Dice, derived_id
from explorer.sandbox.world import Project, Record, iso


def alert_configs(dice: Dice, project: Project) -> None:
    created = datetime.fromisoformat(project.fields["created"])
    for event_type, threshold, metric in ALERT_CONFIGS:
        config: Record = {
            "created": iso(created),
            "enabled": True,
            "eventTypeName": event_type,
            "groupId": project.id,
            "id": dice.new_id(created),
            "matchers": [],
            "notifications": [
                {
                    "delayMin": dice.choice([0, 5, 15]),
                    "emailEnabled": True,
                    "intervalMin": dice.choice([5, 60]),
                    "notifierId": dice.new_id(created),
                    "roles": ["GROUP_OWNER"],
                    "smsEnabled": False,
                    "typeName": "GROUP",
                }
            ],
            "updated": iso(created + timedelta(days=dice.integer(0, 100))),
        }
        if threshold:
            config["threshold"] = threshold
        if metric:
            name, operator, value, units = metric
            config["metricThreshold"] = {
                "metricName": name,
                "mode": "AVERAGE",
                "operator": operator,
                "threshold": value,
                "units": units,
            }
        project.alert_configs[config["id"]] = config


def alerts(dice: Dice, project: Project, count: int) -> None:
    """`count` alerts: the newest four still open, a few tracking, the rest closed."""
    configs = list(project.alert_configs.values())
    processes = list(project.processes.values())
    for index in range(count if configs else 0):
        config = dice.choice(configs)
        created = dice.ago(0.01, 120)
        status = "OPEN" if index < 4 else ("TRACKING" if index % 17 == 0 else "CLOSED")
        alert: Record = {
            "alertConfigId": config["id"],
            "created": iso(created),
            "eventTypeName": config["eventTypeName"],
            "groupId": project.id,
            "id": dice.new_id(created),
            "lastNotified": iso(created + timedelta(minutes=2)),
            "orgId": project.org_id,
            "status": status,
            "updated": iso(created + timedelta(minutes=dice.integer(3, 300))),
        }
        if status == "CLOSED":
            alert["resolved"] = alert["updated"]
        if processes and config["eventTypeName"] != "USERS_WITHOUT_MULTI_FACTOR_AUTH":
            process = dice.choice(processes)
            alert["clusterName"] = process["clusterName"]
            alert["hostnameAndPort"] = process["id"]
            if "replicaSetName" in process:
                alert["replicaSetName"] = process["replicaSetName"]
        if "metricThreshold" in config:
            threshold = config["metricThreshold"]
            alert["metricName"] = threshold["metricName"]
            alert["currentValue"] = {
                "number": round(threshold["threshold"] + dice.rng.uniform(0.5, 9.5), 1),
                "units": "RAW",
            }
        project.alerts[alert["id"]] = alert


def project_events(dice: Dice, project: Project, members: list[Record], count: int) -> list[Record]:
    """`count` events over the last 90 days (180 for quieter projects); tiny projects just began."""
    events = []
    span = 90 if count > 200 else 180
    for index in range(count):
        created = dice.ago(0.001, span)
        if count < 5 and index == count - 1:
            event_type, created = "GROUP_CREATED", datetime.fromisoformat(project.fields["created"])
        else:
            event_type = dice.choice(PROJECT_EVENT_TYPES)
        event: Record = {
            "created": iso(created),
            "eventTypeName": event_type,
            "groupId": project.id,
            "id": dice.new_id(created),
            "isGlobalAdmin": False,
        }
        details(dice, event, project, members)
        events.append(event)
    return events


def details(dice: Dice, event: Record, project: Project, members: list[Record]) -> None:
    """What an event of its type names: the cluster, user, host, alert or actor involved."""
    event_type = event["eventTypeName"]
    actor = dice.choice(members)
    if (event_type.startswith("CLUSTER") or event_type in CLUSTER_EVENT_TYPES) and project.clusters:
        event["clusterName"] = dice.choice(list(project.clusters))
    if event_type.startswith("MONGODB_USER") and project.database_users:
        event["dbUserUsername"] = dice.choice([username for _, username in project.database_users])
    if event_type == "HOST_RESTARTED" and project.processes:
        process = dice.choice(list(project.processes.values()))
        event["hostname"], event["port"] = process["hostname"], process["port"]
    if event_type in ("ALERT_OPENED", "ALERT_CLOSED") and project.alerts:
        alert = dice.choice(list(project.alerts.values()))
        event["alertId"], event["alertConfigId"] = alert["id"], alert["alertConfigId"]
    if event_type in ACTOR_EVENT_TYPES:
        if dice.chance(0.5):
            event["apiKeyId"], event["publicKey"] = derived_id(event["id"]), "sandboxpub"
        else:
            event["userId"], event["username"] = actor["id"], actor["username"]
        event["remoteAddress"] = dice.ip()
