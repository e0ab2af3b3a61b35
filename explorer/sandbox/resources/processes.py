"""Processes (the mongod and mongos hosts of clusters) and their measurements over time."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import urlencode

from starlette.requests import Request
from starlette.responses import Response

from explorer.sandbox.documents import ApiProblem
from explorer.sandbox.links import Hrefs, with_links
from explorer.sandbox.pages import PAGE_PARAMS
from explorer.sandbox.query import Query, invalid, takes
from explorer.sandbox.resources.common import find, find_project, hrefs, list_reply, reply, sandbox
from explorer.sandbox.seed.metrics import METRICS, measurement_value
from explorer.sandbox.world import Project, Record, iso

GRANULARITIES = {"PT1M": 60, "PT5M": 300, "PT1H": 3600, "P1D": 86400}
DURATION = re.compile(r"P(?:([0-9]+)D)?(?:T(?:([0-9]+)H)?(?:([0-9]+)M)?(?:([0-9]+)S)?)?")
MAX_POINTS = 1440
LONGEST_PERIOD = timedelta(days=36_500)
MEASUREMENT_PARAMS = frozenset({"granularity", "period", "start", "end", "m"})


def process_document(url_of: Hrefs, project: Project, process: Record, full: bool) -> dict[str, Any]:
    base = ("groups", project.id, "processes", process["id"])
    links = [url_of.link("self", *base)]
    if full:
        links += [
            url_of.link("measurements", *base, "measurements"),
            url_of.link("cluster", "groups", project.id, "clusters", process["clusterName"]),
        ]
    return with_links(process, links)


def find_process(request: Request) -> tuple[Project, Record]:
    project = find_project(request)
    process_id = request.path_params["processId"]
    process = find(
        project.processes,
        process_id,
        "PROCESS_NOT_FOUND",
        f"No process {process_id} exists in group {project.id}.",
        process_id,
        project.id,
    )
    return project, process


@takes(PAGE_PARAMS)
async def list_processes(request: Request) -> Response:
    """Return the processes of a project: the mongod and mongos hosts of its clusters."""
    project = find_project(request)
    url_of = hrefs(request)
    return list_reply(
        request,
        list(project.processes.values()),
        lambda p: process_document(url_of, project, p, False),
        url_of("groups", project.id, "processes"),
    )


async def get_process(request: Request) -> Response:
    """Return one process of a project."""
    project, process = find_process(request)
    return reply(request, Query(request), process_document(hrefs(request), project, process, True))


def parse_duration(value: str) -> timedelta:
    match = DURATION.fullmatch(value)
    if not match or value in ("P", "PT") or value.endswith("T"):
        raise invalid("period", value, "expected an ISO 8601 duration such as P1D or PT12H")
    days, hours, minutes, seconds = (int(g or 0) for g in match.groups())
    try:
        period = timedelta(days=days, hours=hours, minutes=minutes, seconds=seconds)
    except OverflowError:  # past timedelta's 999,999,999 days: as long as a duration can be
        period = timedelta.max
    if period > LONGEST_PERIOD:  # and so a start a date can have
        raise invalid("period", value, "expected a duration of at most 100 years")
    if not period:
        raise invalid("period", value, "expected a duration longer than zero")
    return period


def window(request: Request, query: Query, step: int) -> tuple[datetime, datetime]:
    """The measured interval: `period` back from now, or `start` to `end`, on step boundaries."""
    period, start, end = query.one("period"), query.date("start"), query.date("end")
    if period is not None and (start or end):
        raise ApiProblem(400, "INVALID_QUERY_PARAMETER", "Give either period, or start and end; not both.", ["period"])
    if (start is None) != (end is None):
        raise ApiProblem(400, "INVALID_QUERY_PARAMETER", "Give start and end together.", ["start", "end"])
    if start is None or end is None:
        now = int(sandbox(request).clock()) // step * step
        end = datetime.fromtimestamp(now, UTC)
        start = end - parse_duration(period or "P1D")
    if end <= start:
        raise ApiProblem(400, "INVALID_QUERY_PARAMETER", "The end must be after the start.", ["start", "end"])
    return start, end


@takes(MEASUREMENT_PARAMS)
async def measurements(request: Request) -> Response:
    """Return measurements of one process over a period, at a granularity."""
    project, process = find_process(request)
    query = Query(request, MEASUREMENT_PARAMS)
    granularity = query.choice("granularity", tuple(GRANULARITIES)) or "PT1H"
    step = GRANULARITIES[granularity]
    start, end = window(request, query, step)
    first = -(-int(start.timestamp()) // step) * step
    stamps = range(first, int(end.timestamp()) + 1, step)
    if len(stamps) > MAX_POINTS:
        raise ApiProblem(
            400,
            "INVALID_QUERY_PARAMETER",
            f"That asks for {len(stamps)} data points a metric; the most is {MAX_POINTS}. Use a coarser granularity.",
            ["granularity"],
        )
    wanted = set(query.many("m"))
    unknown = wanted - {name for name, *_ in METRICS}
    if unknown:
        name = sorted(unknown)[0]
        raise invalid("m", name, "expected a metric name such as CONNECTIONS")
    seed = sandbox(request).settings.seed
    series = []
    for name, units, typical, spread in METRICS:
        if wanted and name not in wanted:
            continue
        points = []
        for stamp in stamps:
            moment = datetime.fromtimestamp(stamp, UTC)
            points.append(
                {
                    "timestamp": iso(moment),
                    "value": measurement_value(seed, process["id"], name, moment, typical, spread),
                }
            )
        series.append({"dataPoints": points, "name": name, "units": units})

    url_of = hrefs(request)
    base = ("groups", project.id, "processes", process["id"])
    params = [(k, v) for k, v in request.query_params.multi_items() if k != "granularity"]
    self_href = url_of(*base, "measurements") + "?" + urlencode([("granularity", granularity), *params])
    document = {
        "end": iso(end),
        "granularity": granularity,
        "groupId": project.id,
        "hostId": process["id"],
        "measurements": series,
        "processId": process["id"],
        "start": iso(start),
    }
    links = [{"href": self_href, "rel": "self"}, url_of.link("host", *base)]
    return reply(request, query, with_links(document, links))
