"""The session's log: one Exchange a request, token requests included, as the Log pane and the
presenter show them. The log keeps its newest LOG_SIZE; `since` reads what came after a number."""

from __future__ import annotations

from collections.abc import Reversible
from dataclasses import dataclass


@dataclass(frozen=True)
class Exchange:
    """One request of the session, token requests included, as the log shows it."""

    number: int  # 1, 2, 3 … for the session: the log drops its oldest, the numbers go on
    at: float
    method: str
    url: str
    status: int
    elapsed: float
    size: int
    counter_key: str | None  # the key of the rate-limit counter it fell under: "token", a project ID, or None
    target: str = ""  # the path and query as sent (`/api/service/v1.0/groups?pageNum=2`)


def since(log: Reversible[Exchange], number: int) -> list[Exchange]:
    """The exchanges after the one numbered `number`, oldest first, read from the newest end."""
    fresh: list[Exchange] = []
    for exchange in reversed(log):
        if exchange.number <= number:
            break
        fresh.append(exchange)
    fresh.reverse()
    return fresh
