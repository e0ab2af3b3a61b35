"""The status bar: the token's time left, the last response, the last error and the rate limits.

It reads the session once a second and never causes a request. Clicking the error (or the
screen's key for it) asks for the whole document. One widget, one line of Content: its parts are
styled spans, so the bar costs one node to lay out, and its colours follow the theme.

While a request is held after a refusal (a 429 or 503 whose Retry-After runs), the status is the
refusal's, and the screen's key for the error shows its document. While a request is on its way
(the screen says so: show_request), the bar says it in place of the last answer's status, with its
seconds and Esc; the token endpoint's meter is drawn only where a token endpoint is asked.

The line is laid out by priority for the width it has: the token state first, then the error,
then the status of the last response, then the meters, which shrink first. The first meter is the
limit of the resource on screen, as the server stated it with its last answer to that request
(`rate limit`), or the client's own count of its project's minute where the server states none
(`project`); the second, the token endpoint's. A request held for a rate limit (or a Retry-After)
is drawn beside the meter of the limit it waits for.

It is one module, long as it is, because what the parts say and the order they give way in are
one decision: a part's words, its place and its priority are read together.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from rich.cells import cell_len
from textual import events
from textual.content import Content
from textual.geometry import Region
from textual.message import Message
from textual.style import Style
from textual.widgets import Static

from explorer.api.counts import counted
from explorer.api.errors import ApiError
from explorer.api.ratelimit import TOKEN_BUCKET, Reading
from explorer.api.resource import Resource
from explorer.api.session import Session
from explorer.api.versions import deprecation
from explorer.api.watching import Watch
from explorer.tui.palette import status_class
from explorer.tui.safe_text import visible
from explorer.tui.url_layout import path_line

Span = tuple[str, str | Style]

SEPARATOR = " │ "  # the same at every width and whatever the line says: the parts never jump
DIGITS = re.compile(r"[\d,]+")
TOKEN_STYLES = {  # else expired's
    "valid": "$token-valid",
    "refreshing": "$token-refreshing",
    "requested": "$token-refreshing",
    "none": "$text",
}
METER = 5  # cells of the rate-limit meter: ███░░
WORDS, BAR, NAME = 2, 1, 0  # how much of a meter is drawn: all, its name and bar, its name only if held
WATCHING, WATCHED_NAME, WATCHED_COUNT = 2, 1, 0  # what is watched: in words, by its name cut, by a count
WATCH_NAME = 14  # the most cells of a watched resource's name where room is short (`◉ sandbox-clust…`)


PATH_ROOM, PATH_ROOM_SHORT = 40, 20  # cells of a request on its way's path, cut as the Log cuts one
LEAST = 8  # cells of a cut part that still say something (`⚠ 404 N…`): less, and it gives way whole
ROOMY = 78  # cells of an 80-column terminal's bar: from there on an error is cut, `read-only` stays

READ_ONLY: Span = ("read-only", "$text-muted")
WRITES_ON: Span = ("writes on", "bold $text-warning")


@dataclass(frozen=True)
class Shape:
    """How much of each part the line draws."""

    resource: int = WORDS
    token_endpoint: int = WORDS
    refreshes: bool = True
    status: bool = True
    elapsed: bool = True  # the status's `· 2 ms`, and a deprecation's sunset date
    read_only: bool = True  # `read-only` said; `writes on` is said in every shape
    watching: int = WATCHING  # what is watched: in words; by its name (cut to WATCH_NAME); else `◉ 2` only


# From the richest line to the poorest: the first that fits is drawn. The token endpoint's meter
# gives way first (its words, then its bar), then the refresh count, then the resource's meter (its
# words, then its bar: the server's figures can be long, 9998 of 10000 left), then the status's time
# (a held 429 keeps its code beside its countdown), then the status (an error says its own), then
# `read-only` (the safe state; `writes on` never gives way) below 80 columns; from 80 columns on, the
# error is cut instead. What is watched gives way in steps: its words (`◉ watching … 3s ago`) early,
# its name (cut) only last, to a count (`◉ 1`), which says nothing of what it is.
SHAPES = (
    Shape(),
    Shape(token_endpoint=BAR),
    Shape(token_endpoint=NAME),
    Shape(token_endpoint=NAME, refreshes=False),
    Shape(token_endpoint=NAME, refreshes=False, watching=WATCHED_NAME),
    Shape(resource=BAR, token_endpoint=NAME, refreshes=False, watching=WATCHED_NAME),
    Shape(resource=NAME, token_endpoint=NAME, refreshes=False, watching=WATCHED_NAME),
    Shape(resource=NAME, token_endpoint=NAME, refreshes=False, watching=WATCHED_NAME, elapsed=False),
    Shape(resource=NAME, token_endpoint=NAME, refreshes=False, status=False, watching=WATCHED_NAME),
    Shape(resource=NAME, token_endpoint=NAME, refreshes=False, status=False, read_only=False, watching=WATCHED_NAME),
    Shape(resource=NAME, token_endpoint=NAME, refreshes=False, status=False, read_only=False, watching=WATCHED_COUNT),
)


@dataclass(frozen=True)
class UnderWay:
    """A request on its way: its method, its path and query (from the API root), when it was sent."""

    method: str
    path: str
    since: float


@dataclass(frozen=True)
class HeldRequest:
    """A request waiting to be sent: the limit it waits for (a bucket_of, or None) and for how long."""

    bucket: str | None
    seconds: float


class StatusBar(Static):
    DEFAULT_CSS = """
    StatusBar {
        height: 1;
        background: $panel;
        color: $text;
        padding: 0 1;
    }
    """

    class ErrorSelected(Message):
        """The error in the bar was clicked: show the whole document."""

        def __init__(self, error: ApiError) -> None:
            super().__init__()
            self.error = error

    class Placed(Message):
        """The bar has a new place on the screen (its first layout, a resize, or a line above it that
        came or went): notices stand above it."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.session: Session | None = None
        self.bucket: str | None = None  # the limit of the resource on screen (a bucket_of)
        self.response: Resource | None = None
        self.error: ApiError | None = None
        self.last_line: tuple[str, tuple[Any, ...]] | None = None  # the line last drawn: its text and styles
        self.watches: Callable[[], list[Watch]] = list  # the running watches, read at every tick
        self.label: str | None = None  # the tree's line under the cursor, when the tree cuts it
        self.widths: dict[str, int] = {}  # the widest each part has been, by its form (form_of)
        self.place = Region()  # where the bar was last said to be (placed)
        self.measured: dict[str, int] = {}  # the width of each part of the line last drawn, by its form
        self.under_way: UnderWay | None = None  # the request on its way, said until its answer

    def follow(self, session: Session) -> None:
        """Follow this session: its token and rate limits, read once a second."""
        self.session = session
        self.tick()
        self.set_interval(1.0, self.tick)

    def show_response(self, resource: Resource) -> None:
        """The last response: its status, and the limit whose meter the bar shows."""
        self.bucket = None if resource.limit == TOKEN_BUCKET else resource.limit
        self.response = resource
        self.tick()

    def show_watches(self, running: Callable[[], list[Watch]]) -> None:
        """Say what is watched, read from `running` at every tick: which, and when it was last fetched."""
        self.watches = running
        self.tick()

    def show_request(self, under_way: UnderWay | None) -> None:
        """A request on its way (None: it ended): said at once, in place of the last answer's status."""
        if under_way != self.under_way:
            self.under_way = under_way
            self.tick()

    def show_label(self, label: str | None) -> None:
        """The tree's line under the cursor, whole, after the token state (None: the tree shows it whole)."""
        if label != self.label:
            self.label = label
            self.tick()

    def show_error(self, error: ApiError | None) -> None:
        self.error = error
        self.tooltip = "Click the error for the whole document (or press x)" if error else None
        self.tick()

    def show_failure(self, error: ApiError) -> None:
        """An error that came with no answer (a URL refused before it was sent, a service that could
        not be reached): said alone, without the last answer's status, which is not its."""
        self.response = None
        self.show_error(error)

    @property
    def held_error(self) -> ApiError | None:
        """The refusal a held request waits out (its status is on the bar), while it does; else None."""
        after = self.session.throttle.waiting_response if self.session is not None else None
        return after.error if after is not None else None

    def action_select_error(self) -> None:
        if self.error is not None:
            self.post_message(self.ErrorSelected(self.error))

    def on_resize(self, event: events.Resize) -> None:
        self.widths.clear()
        self.tick()
        self.placed()

    def on_mount(self) -> None:
        self.screen.screen_layout_refresh_signal.subscribe(self, lambda _: self.placed())  # moved, not resized

    def placed(self) -> None:
        """Say where the bar is, when that changed (StatusBar.Placed)."""
        if self.region != self.place:
            self.place = self.region
            self.post_message(self.Placed())

    def tick(self) -> None:
        """Redraw the line if it changed: the bar is one line whatever it says, so no layout is asked for
        (a layout of the screen each second was most of what an idle explorer cost)."""
        line = self.line(self.content_size.width)
        for part, width in self.measured.items():  # the next line's parts start no further left
            self.widths[part] = max(width, self.widths.get(part, 0))
        drawn = (line.plain, tuple(line.spans))  # Content compares its text only
        if drawn != self.last_line:
            self.last_line = drawn
            self.update(line, layout=False)

    # The line ---------------------------------------------------------------------------------

    def line(self, width: int) -> Content:
        """The richest line that fits `width` cells (every part, while the width is not known yet).

        The cursor's label ranks below the status and `read-only`: before a shape without the status,
        the last with it is tried with the label cut (or gone). Where even the poorest does not fit,
        the label is cut first, then the error."""
        before: Shape | None = None
        for shape in SHAPES:
            if not shape.read_only and self.error is not None and width >= ROOMY:
                shape = replace(shape, read_only=True)  # from 80 columns on, the error is cut instead
                break
            if self.label is not None and before is not None and before.status and not shape.status:
                line = self.drawn(before, label_room=self.label_room(before, width))
                if line.cell_length <= width:
                    return line
            for padded in (True, False):
                line = self.drawn(shape, padded=padded)
                if not width or line.cell_length <= width:
                    return line
            before = shape
        label_room = None
        if self.label is not None:
            label_room = self.label_room(shape, width)
            line = self.drawn(shape, label_room=label_room)
        if self.error is None or line.cell_length <= width:
            return line
        # Even the error alone does not fit: it gets the room the rest leaves (its `…` is 1 cell), and
        # never less than a few words: what comes after it is cut by the edge instead.
        spare = width - self.drawn(shape, error_room=1, label_room=label_room).cell_length
        return self.drawn(shape, error_room=max(LEAST, 1 + spare), label_room=label_room)

    def label_room(self, shape: Shape, width: int) -> int:
        """The cells the cursor's label gets in `shape` on `width`: what the rest leaves, or 0 (it gives
        way whole) when that is too little to read."""
        room = 1 + width - self.drawn(shape, label_room=1).cell_length
        return room if room >= LEAST else 0

    def drawn(
        self,
        shape: Shape,
        error_room: int | None = None,
        label_room: int | None = None,
        padded: bool = False,
    ) -> Content:
        """The parts this shape keeps, in their order; the error and the label cut to their rooms if given.

        Padded, each part but the last is as wide as it has been at its widest with the same words (till
        the next resize): a countdown, a time in ms or a count that loses a digit does not pull the
        parts after it left; a part that says something else (another status) may."""
        now = self.session.clocks.wall() if self.session is not None else 0.0
        groups: list[list[Span]] = []
        if self.session is not None:
            groups.append(self.token(now, shape.refreshes, shape.read_only))
        if self.label is not None and label_room != 0:
            groups.append([(self.label if label_room is None else shortened(self.label, label_room), "$text")])
        groups.append(watching(self.watches(), now, shape.watching))
        if self.under_way is not None and not self.status_in_view:
            groups.append(self.request_part(self.under_way, now, shape))
        status = shape.status and self.last_response is not None and self.status_in_view
        if status:
            groups.append(self.status(shape.elapsed))
        if self.error is not None:
            groups.append(self.error_part(self.error, status, error_room))
        if self.session is not None:
            groups.append(self.meters(shape, now))
        nonempty = [group for group in groups if group]
        self.measured = {form_of(group): sum(cell_len(part) for part, _ in group) for group in nonempty}
        spans: list[Span] = []
        for at, group in enumerate(nonempty):
            if spans:
                spans.append((SEPARATOR, "$text-muted"))
            spans += group
            if padded and at < len(nonempty) - 1:
                form = form_of(group)
                spans.append((" " * (self.widths.get(form, 0) - self.measured[form]), ""))
        return Content.assemble(*spans)

    def token(self, now: float, refreshes: bool, read_only: bool = True) -> list[Span]:
        """`read-only · token valid 59:53 · 0 refreshes`, or `API key · Digest`; `replay of FILE` on a
        recording. `read-only` or `writes on` (in the warning colour) always leads: whether a key can
        change the service is never a guess.

        `● rec` leads while --har writes the session (and goes when it stops writing), as a
        recorder's light does: whoever shares the screen knows the exchanges are kept.
        """
        if self.session is None:
            return []
        writes: list[Span] = [WRITES_ON if self.session.writes_allowed else READ_ONLY, (" · ", "$text-muted")]
        if not (self.session.writes_allowed or read_only):
            writes = []
        if self.session.har.replay is not None:
            return [*writes, (f"replay of {visible(self.session.har.replay)}", "$accent")]
        recording: list[Span] = [("● rec", "$error"), (" · ", "$text-muted")] if self.session.recorder else []
        recording += writes
        state = self.session.token_state
        if state is None:
            return [*recording, ("API key · Digest", "$token-valid")]
        status = state.status(now)
        text = f"token {status}"
        if status in ("valid", "refreshing"):
            text += f" {state.countdown(now)}"
        if refreshes:
            text += f" · {counted(state.refreshes, 'refresh', 'refreshes')}"
        return [*recording, (text, TOKEN_STYLES.get(status, "$token-expired"))]

    @property
    def asks_token_endpoint(self) -> bool:
        """Whether the session asks a token endpoint, whose meter is then drawn: an API key (Digest)
        never does, nor does a replay, whose token the recording's stand-in makes up (replay.py)."""
        session = self.session
        return session is not None and session.token_state is not None and session.har.replay is None

    @property
    def status_in_view(self) -> bool:
        """Whether the last answer's status is said: not while a request is on its way (it is the
        previous answer's), unless that request is held after a refusal: then the refusal's status
        and the countdown beside its meter say the request, not `waiting for …`."""
        waiting_out = self.session is not None and self.session.throttle.waiting_response is not None
        return self.under_way is None or waiting_out

    def request_part(self, under_way: UnderWay, now: float, shape: Shape) -> list[Span]:
        """`waiting for GET /groups/687b…6b43/events · 3s · Esc cancels`; where room is short, its path
        cut shorter (`…/events`), then only `waiting 3s · Esc cancels`."""
        seconds = f"{max(0.0, now - under_way.since):.0f}s"
        if not shape.status:
            return [(f"waiting {seconds} · Esc cancels", "$accent")]
        path = path_line(under_way.path, PATH_ROOM if shape.elapsed else PATH_ROOM_SHORT)
        return [(visible(f"waiting for {under_way.method} {path} · {seconds} · Esc cancels"), "$accent")]

    @property
    def last_response(self) -> Resource | None:
        """The refusal a held request waits out (a 429 while its Retry-After runs), else the response shown."""
        after = self.session.throttle.waiting_response if self.session is not None else None
        return after or self.response

    def status(self, elapsed: bool = True) -> list[Span]:
        """`404 Not Found · 2 ms`, in the colour of its class; where room is short, without its time
        (and a deprecation without its sunset date: `200 OK · deprecated`)."""
        resource = self.last_response
        if resource is None:
            return []
        line = f"{resource.status} {resource.reason}"
        if elapsed:
            line += f" · {resource.elapsed * 1000:.0f} ms"
        spans: list[Span] = [(visible(line), f"${status_class(resource.status)}")]
        sunset = deprecation(resource.headers)
        if sunset is not None:  # `· deprecated; sunset 2027-07-01`: the Headers pane names the version
            text = " · deprecated" + (sunset.partition(" is deprecated")[2] if elapsed else "")
            spans.append((visible(text), "$text-warning"))
        return spans

    def error_part(self, error: ApiError, beside_status: bool, room: int | None) -> list[Span]:
        """`⚠ 404 Not Found · GROUP_NOT_FOUND: …`, clickable; without its status beside the same response's."""
        text = visible(error.line())
        response = self.last_response
        if beside_status and response is not None and error is response.error and error.status:
            head = visible(f"{error.status} {error.reason} · ")
            text = text.removeprefix(head)
        text = f"⚠ {text}"
        if room is not None:
            text = shortened(text, room)
        clickable = Style.parse("$text-error") + Style.from_meta({"@click": "select_error"})
        return [(text, clickable)]

    def meters(self, shape: Shape, now: float) -> list[Span]:
        """The resource's meter and the token endpoint's, and a held request beside what it waits for."""
        if self.session is None:
            return []
        limits = self.session.rate_limits
        held = held_request(self.session, now)
        bucket = held.bucket if held is not None and held.bucket not in (None, TOKEN_BUCKET) else self.bucket

        def wait(key: str | None) -> float | None:
            return held.seconds if held is not None and held.bucket == key else None

        reading = limits.reading(bucket) if bucket else None
        alone = held is not None and held.bucket != TOKEN_BUCKET and (held.bucket is None or reading is None)
        drawn: list[list[Span]] = [[(f"request held {held.seconds:.0f}s", "$meter-held")]] if held and alone else []
        if reading is not None:
            drawn.append(meter(reading, wait(bucket), shape.resource))
        if self.asks_token_endpoint:
            drawn.append(meter(limits.token_reading(), wait(TOKEN_BUCKET), shape.token_endpoint))
        spans: list[Span] = []
        for one in filter(None, drawn):
            spans += [("  ", ""), *one] if spans else one
        return spans


def form_of(group: list[Span]) -> str:
    """A part's words without its figures: `200 OK · 2 ms` and `200 OK · 12 ms` are one form."""
    return "".join(DIGITS.sub("", part) for part, _ in group)


def watching(running: list[Watch], now: float, level: int) -> list[Span]:
    """`◉ watching reporting 3s ago`, `◉ 2 watched · reporting 3s ago`, `· slowed` while one is;
    shorter, `◉ reporting` or `◉ 2 · reporting` (a long name cut: `◉ sandbox-clust…`); shortest, `◉ 2`."""
    if not running:
        return []
    slowed = any(watch.slowed for watch in running)
    latest = max(running, key=lambda watch: watch.last_fetched or 0.0)
    if level != WATCHING:
        name = shortened(visible(latest.title), WATCH_NAME)
        if level == WATCHED_COUNT:
            head = f"◉ {len(running)}"
        else:
            head = f"◉ {name}" if len(running) == 1 else f"◉ {len(running)} · {name}"
        return [(head, "$accent"), *([(" slowed", "$text-warning")] if slowed else [])]
    head = (
        f"◉ watching {visible(latest.title)}"
        if len(running) == 1
        else f"◉ {len(running)} watched · {visible(latest.title)}"
    )
    when = f" {max(0.0, now - latest.last_fetched):.0f}s ago" if latest.last_fetched is not None else ""
    return [(head + when, "$accent"), *([(" · slowed", "$text-warning")] if slowed else [])]


def held_request(session: Session, now: float) -> HeldRequest | None:
    """The request the session holds now, the limit it waits on (None: under no limit) and for how long."""
    until = session.throttle.waiting_until
    if until is None or until <= now:
        return None
    return HeldRequest(session.throttle.waiting_bucket, until - now)


def meter(reading: Reading, held: float | None, level: int) -> list[Span]:
    """`rate limit ████░ 1198 of 1200 left`: how much of a limit is left, or how long a request waits.

    At level BAR without its words, at NAME only a held request's wait (`rate limit held 40s`).
    """
    waiting = [(f"held {held:.0f}s", "$meter-held")] if held is not None else []
    if level == NAME:
        return [(f"{reading.name} ", ""), *waiting] if waiting else []
    share = reading.left / reading.limit if reading.limit else 0.0
    cells = min(METER, max(1 if reading.left > 0 else 0, round(share * METER)))  # empty only when nothing is left
    if held is not None or reading.left == 0 or reading.waiting:
        style = "$meter-held"
    elif share <= 0.2:
        style = "$meter-low"
    else:
        style = "$meter-ok"
    spans: list[Span] = [(f"{reading.name} ", ""), ("█" * cells + "░" * (METER - cells), style)]
    if waiting:
        return [*spans, (" ", ""), *waiting]
    return [*spans, (f" {reading.words}", "")] if level == WORDS else spans


def shortened(text: str, room: int) -> str:
    """`text` whole if it fits `room` cells, else cut at a word boundary and ended with `…`; a first
    word longer than the room is cut in it (`MONGODB_USER_…`), not drawn as a lone `…`."""
    if cell_len(text) <= room:
        return text
    fitted = ""
    for word in text.split(" "):
        longer = f"{fitted} {word}" if fitted else word
        if cell_len(longer.rstrip(" ·:,;") + "…") > room:
            break
        fitted = longer
    if not fitted.rstrip(" ·:,;"):
        fitted = text
        while fitted and cell_len(fitted + "…") > room:
            fitted = fitted[:-1]
    return fitted.rstrip(" ·:,;") + "…"
