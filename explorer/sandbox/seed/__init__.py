"""Fill a World from a seed: the same seed gives the same data, byte for byte.

Field names and shapes follow the responses recorded from the real service
(`tests/fixtures/real-responses/`); `catalog.py` holds the plan, the other modules make each part.
"""

from __future__ import annotations

import functools
import pickle
import random
from datetime import datetime

from explorer.sandbox.seed import people, projects
from explorer.sandbox.seed.catalog import EPOCH, ORGS
from explorer.sandbox.seed.dice import Dice
from explorer.sandbox.world import IdFactory, World


def seed_world(seed: int, epoch: datetime = EPOCH) -> World:
    """The whole world for `seed`, deterministic, and a world of its own each time.

    It is made once for each seed and epoch (about 25 ms, most of it the projects' events) and kept as
    bytes: each later call is a fresh copy of it in about 2 ms, with its own random state, so what it
    makes next (a new cluster's id) is what the first would have made.

    Args:
        seed: The seed of every random choice.
        epoch: The moment the data is dated from.

    Returns:
        A world no other call shares.
    """
    world: World = pickle.loads(made(seed, epoch))  # bytes this process made itself
    return world


@functools.cache
def made(seed: int, epoch: datetime) -> bytes:
    """`seed`'s world, pickled: made once for each seed and epoch."""
    return pickle.dumps(generated(seed, epoch), protocol=pickle.HIGHEST_PROTOCOL)


def generated(seed: int, epoch: datetime) -> World:
    """The world for `seed`, made choice by choice."""
    rng = random.Random(seed)
    world = World(epoch=epoch, ids=IdFactory(rng))
    dice = Dice(rng, world.ids, epoch)
    taken_names: set[tuple[str, str]] = set()
    for plan in ORGS:
        org = people.org(world, dice, plan.name)
        members = people.users(world, dice, org, taken_names, plan.members)
        people.teams(world, dice, org, members, plan.teams)
        for project_plan in plan.projects:
            projects.project(world, dice, org, members, project_plan)
        org.events.extend(people.org_events(world, dice, org, members, plan.events))
    return world
