"""The screen's watches (w): each resource watched in a worker of its own, fetched again and again
as watching.py paces it, until it is deleted, its condition holds, or `w` stops it.

Several resources can be watched at once; their fetches share the rate limit, so each is spaced by
the number watched on the same limit. The flow owns the watches and their workers; the screen is
told of every fetch (`seen`) and shows what it means: the tree's badge, the Watch pane, the status
bar, the panes when the watched resource is in view.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any
from urllib.parse import urljoin, urlsplit

from textual.screen import Screen
from textual.worker import Worker

from explorer.api.changes import Compared
from explorer.api.filters import JqRunner
from explorer.api.resource import Resource
from explorer.api.session import Session
from explorer.api.watching import (
    DELETED,
    EVERY,
    HELD,
    NOT_THERE,
    Seen,
    Watch,
    faster,
    follow,
    session_pace,
    slower,
)
from explorer.tui.nodes import self_href, without_query


def made_by(answer: Resource) -> str | None:
    """The URL of what a create's `201` made (its `Location` on the same origin, else the `self`
    link of the document it answered with): what `w` on that answer watches, not the list it was
    posted to, which never turns IDLE. None for any other answer."""
    if answer.status != 201 or answer.error is not None:
        return None
    location = str(answer.headers.get("location") or "")
    if location:
        url = urljoin(answer.url, location)
        if urlsplit(url).netloc == urlsplit(answer.url).netloc:
            return url
    return self_href(answer.document)


WRITTEN = "the condition held, then a write changed it"
DELETING = "deleting"  # a DELETE the service took (202) and goes on with: gone once it answers 404
GONE = (DELETED, NOT_THERE)  # how a watch ends when the resource is not there


class WatchFlow:
    """The watches of one screen's session, by URL (without its query)."""

    def __init__(self, screen: Screen[Any], session: Session, runner: JqRunner, seen: Seen) -> None:
        self.screen = screen
        self.session = session
        self.runner = runner  # where conditions run (the screen's, shared with the JSON pane's filter)
        self.seen = seen  # told after every fetch: the watch, the new version or None, the answer
        self.watches: dict[str, Watch] = {}  # the ended ones too, until watched again: their timelines stay
        self.workers: dict[str, Worker[None]] = {}
        self.pace = session_pace(session, self.sharing)
        self.gone: dict[str, str] = {}  # URL without query -> DELETED or DELETING: what a DELETE's answer said

    def watch_for(self, url: str) -> Watch | None:
        """The watch of a URL, running or ended; None if it was never watched."""
        return self.watches.get(without_query(url))

    def running(self) -> list[Watch]:
        return [watch for watch in self.watches.values() if watch.ended is None]

    def sharing(self, bucket: str) -> int:
        """How many running watches spend the same limit: each takes its share."""
        return max(1, sum(1 for watch in self.running() if watch.bucket == bucket))

    def start(self, url: str, title: str, until: str | None, every: float = EVERY) -> Watch:
        """Watch a URL: fetched at once (the answer in view may be a write's, or old), then as paced."""
        key = without_query(url)
        self.stop(url, None)
        watch = Watch(url, title, every, until)
        self.watches[key] = watch
        self.workers[key] = self.screen.run_worker(self.follow(watch), group="watch", exit_on_error=False)
        return watch

    def stop(self, url: str, why: str | None = "stopped") -> Watch | None:
        """Stop a running watch (`w` again); its timeline stays. None if none was running."""
        key = without_query(url)
        worker = self.workers.pop(key, None)
        if worker is not None:
            worker.cancel()
        watch = self.watches.get(key)
        if watch is not None and watch.ended is None and why is not None:
            watch.ended = why
            return watch
        return None

    def written(self, url: str) -> bool:
        """A write changed the resource: a condition said to hold may no longer (`✓ held` goes from
        the tree; the Watch pane says why). True when a watch's word changed."""
        watch = self.watch_for(url)
        if watch is None or watch.ended != HELD:
            return False
        watch.ended = WRITTEN
        return True

    def deleted(self, url: str, status: int) -> None:
        """A DELETE of `url` was answered `status` (2xx): gone, or going while the service goes on (202)."""
        self.gone[without_query(url)] = DELETING if status == 202 else DELETED

    def fetched(self, url: str, status: int) -> bool:
        """An answer for `url` says whether what was deleted is gone (a 404) or there again (made
        anew: a 2xx once gone). True when what the tree says of it changed."""
        key = without_query(url)
        was = self.gone.get(key)
        if was == DELETING and status in (404, 410):
            self.gone[key] = DELETED
        elif was == DELETED and 200 <= status < 300:
            del self.gone[key]
        return self.gone.get(key) != was

    def word(self, url: str) -> str | None:
        """DELETED when `url` is known to be gone (its DELETE answered, or a watch saw it go), DELETING
        while the service goes on deleting it; None when nothing says so."""
        watch = self.watch_for(url)
        if watch is not None and watch.ended in GONE:
            return DELETED
        return self.gone.get(without_query(url))

    def step(self, url: str, quicker: bool) -> Watch | None:
        """`+` (slower: more time between fetches) or `-` (quicker) on a running watch."""
        watch = self.watch_for(url)
        if watch is None or watch.ended is not None:
            return None
        watch.every = faster(watch.every) if quicker else slower(watch.every)
        return watch

    async def follow(self, watch: Watch) -> None:
        """The worker of one watch: `follow` (watching.py) on the session, its answers told to the screen."""
        sleep = self.session.throttle.sleep  # the session's way to wait: a test's clock moves with it

        async def fetch(url: str) -> Resource:
            resource = await self.session.fetch(url)
            await asyncio.to_thread(resource.prepare)  # a big body decoded off the screen's thread, as `r` does
            return resource

        try:
            await follow(watch, fetch, self.runner, self.session.clocks.wall, sleep, self.pace, self.seen)
        except Exception as error:  # a fault of ours ends this watch, said, and never the screen
            watch.ended = f"stopped by an error: {type(error).__name__}: {error}"
            self.seen(watch, None, None)

    def close(self) -> None:
        """Stop every watch: the screen is going."""
        for worker in self.workers.values():
            worker.cancel()
        self.workers.clear()


@dataclass(frozen=True)
class Marked:
    """What `m` marked: its URL, when it was received (`m` on the same answer unmarks), and its document."""

    url: str
    received_at: float
    compared: Compared


def same_resource(one: str, other: str) -> bool:
    """Whether two URLs are the same resource (the query aside: a page, pretty=true)."""
    return without_query(one) == without_query(other)


def badge_of(watch: Watch | None, marked: bool, gone: str | None = None) -> str | None:
    """What the tree says beside a resource: `◆ marked`, `◉ watched`, how its watch ended, `✗ deleted`
    (or `deleting`) once known (WatchFlow.word); None: nothing."""
    parts = ["◆ marked"] if marked else []
    if watch is not None:
        if watch.ended is None:
            parts.append("◉ watched")
        elif watch.ended == HELD:
            parts.append("✓ held")
    if gone is not None:
        parts.append(f"✗ {gone}")
    return " ".join(parts) or None


def name_of(document: Any) -> str | None:
    """What a document calls itself (a project's or a cluster's `name`), as the tree names an item;
    None for a document without one (a list, the root)."""
    if isinstance(document, dict) and isinstance(document.get("name"), str) and document["name"].strip():
        return str(document["name"])
    return None


def suggestion_for(document: Any) -> str | None:
    """The condition a watch of this document most likely waits for: a state becoming IDLE (or leaving it)."""
    if isinstance(document, dict) and isinstance(document.get("stateName"), str):
        return '.stateName != "IDLE"' if document["stateName"] == "IDLE" else '.stateName == "IDLE"'
    return None
