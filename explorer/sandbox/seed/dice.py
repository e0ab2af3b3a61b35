"""The seed's random choices, and the helpers every part of the world is made with."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import TypeVar

from explorer.sandbox.world import IdFactory

T = TypeVar("T")


class Dice:
    """One random stream for the whole world, so that a seed decides everything in order."""

    def __init__(self, rng: random.Random, ids: IdFactory, epoch: datetime) -> None:
        self.rng = rng
        self.ids = ids
        self.epoch = epoch

    def choice(self, options: Sequence[T]) -> T:
        return self.rng.choice(options)

    def sample(self, options: Sequence[T], count: int) -> list[T]:
        return self.rng.sample(options, count)

    def integer(self, low: int, high: int) -> int:
        return self.rng.randint(low, high)

    def chance(self, probability: float) -> bool:
        return self.rng.random() < probability

    def ago(self, low_days: float, high_days: float) -> datetime:
        """A moment between `low_days` and `high_days` before the world's epoch, to the second."""
        seconds = self.rng.uniform(low_days, high_days) * 86400
        return (self.epoch - timedelta(seconds=seconds)).replace(microsecond=0)

    def new_id(self, moment: datetime) -> str:
        return self.ids(moment)

    def name(self, length: int) -> str:
        return "".join(self.rng.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(length))

    def ip(self) -> str:
        first = self.rng.choice([52, 34, 18, 203])
        return f"{first}.{self.rng.randrange(256)}.{self.rng.randrange(256)}.{self.rng.randrange(1, 255)}"


def derived_id(text: str) -> str:
    """A 24-hex identifier that follows from `text`, without drawing from the dice."""
    return hashlib.sha1(text.encode()).hexdigest()[:24]
