"""The JSON view: the body as received (or pretty), coloured, searchable, paths copyable.

Built on Textual's Line API: only the lines on screen are rendered, each highlighted when it
first shows and then cached. Long lines wrap by slicing at the pane's width, so a 5 MB body on one
line costs one index, not a layout. The pretty view is made in a thread for large bodies.
It is one view: its lines, cursor, search and colours all read the same wrapped lines.
"""

from __future__ import annotations

import bisect
import json
import re
from array import array
from itertools import accumulate
from typing import Any

from rich.style import Style
from rich.text import Text
from textual import work
from textual.binding import Binding
from textual.geometry import Size
from textual.message import Message
from textual.strip import Strip

from explorer.api.changes import jq_path
from explorer.api.resource import Resource
from explorer.tui.cursor_keys import moving
from explorer.tui.safe_text import text, visible
from explorer.tui.widgets.line_cursor import LineCursorView

PRETTY_NOW = 512 * 1024  # bodies up to this size are pretty-printed at once; larger ones in a thread
TOKENS = re.compile(
    r'(?P<key>"(?:[^"\\]|\\.)*"(?=\s*:))'
    r'|(?P<string>"(?:[^"\\]|\\.)*"?)'
    r"|(?P<number>-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)"
    r"|(?P<literal>\btrue\b|\bfalse\b|\bnull\b)"
    r"|(?P<punctuation>[{}\[\],:])"
)
STYLES = {  # theme colours by name (palette.py), so lines made before a change of theme follow it
    "key": "json-key",
    "string": "json-string",
    "number": "json-number",
    "literal": "json-literal",
    "punctuation": "json-muted",
}
ESCAPE = re.compile(r"\\.", re.DOTALL)  # a backslash and what it escapes
KEY_AFTER = re.compile(r"\s*:")  # after a string, what makes it a key
STOPS = frozenset(' \t,:[]{}"')  # what a number or a word (true, false, null) cannot go on through
MOST_WORD = 64  # characters read before a slice for a number cut at its start
MATCH = Style(reverse=True)
MAX_TOKENS = 256  # long lines whose tokens are kept; more, and they are found again
MAX_MATCHES = 100_000


class Pretty:
    """A value indented two spaces a level, one line per value, and the path of each line.

    Paths are not kept as strings (a 5 MB body has a quarter of a million lines): each line keeps
    the line where its container opens and its key or index there, and a path is made when asked.
    """

    def __init__(self, value: Any) -> None:
        self.lines: list[str] = []
        self.parents = array("l")  # per line: the line its container opens on; -1 at the top
        self.steps: list[str | int | None] = []  # per line: its key or index in that container
        self.walk(value, 0, -1, None, "", "")

    def walk(self, value: Any, depth: int, parent: int, step: str | int | None, prefix: str, comma: str) -> None:
        pad = "  " * depth
        here = len(self.lines)
        if isinstance(value, dict) and value:
            self.add(f"{pad}{prefix}{{", parent, step)
            last = len(value) - 1
            for index, (key, child) in enumerate(value.items()):
                name = json.dumps(key, ensure_ascii=False)
                self.walk(child, depth + 1, here, key, f"{name}: ", "," if index < last else "")
            self.add(f"{pad}}}{comma}", parent, step)
        elif isinstance(value, list) and value:
            self.add(f"{pad}{prefix}[", parent, step)
            last = len(value) - 1
            for index, child in enumerate(value):
                self.walk(child, depth + 1, here, index, "", "," if index < last else "")
            self.add(f"{pad}]{comma}", parent, step)
        else:
            self.add(f"{pad}{prefix}{json.dumps(value, ensure_ascii=False)}{comma}", parent, step)

    def add(self, line: str, parent: int, step: str | int | None) -> None:
        self.lines.append(line)
        self.parents.append(parent)
        self.steps.append(step)

    def path(self, line: int) -> str:
        """The path of the value on this line, as jq writes it: `.results[3].name`."""
        steps = []
        while line >= 0:
            steps.append(self.steps[line])
            line = self.parents[line]
        return jq_path(step for step in reversed(steps) if step is not None)


def highlight(line: str) -> Text:
    """Colours for a line of JSON; anything else stays plain."""
    shown = text(line)
    for match in TOKENS.finditer(shown.plain):
        kind = match.lastgroup
        if kind:
            shown.stylize(STYLES[kind], match.start(), match.end())
    return shown


class Tokens:
    """One line too long for the pane, to colour a slice at a time as the whole line reads: a string
    that wraps keeps its colour on every line it takes (read alone, its ids were numbers).

    Where strings begin and end is read from a copy of the line with its escapes blanked, so that
    each quote left opens or closes one: whether a slice starts inside a string is a count of the
    quotes before it, which Python makes at C speed, so a 5 MB body on one line costs little more
    to draw at its end than at its start.
    """

    def __init__(self, line: str) -> None:
        self.line = line
        self.quotes = ESCAPE.sub("__", line)  # the same length: `\"` is no quote, `\\` no escape

    def slice(self, start: int, stop: int) -> Text:
        """line[start:stop], coloured as the whole line reads."""
        shown = Text(no_wrap=True, end="")
        at = start
        if self.quotes.count('"', 0, start) % 2:  # inside a string: it goes on in its colour
            at = self.string(shown, self.quotes.rfind('"', 0, start), start, stop)
        else:  # a number or word cut at the start: read from its start
            while at > 0 and start - at < MOST_WORD and self.line[at - 1] not in STOPS:
                at -= 1
        while at < stop:
            opens = self.quotes.find('"', at, stop)
            upto = stop if opens < 0 else opens
            for match in TOKENS.finditer(self.line, at, upto if opens >= 0 else min(len(self.line), stop + MOST_WORD)):
                if match.start() >= upto:
                    break
                if match.lastgroup and match.end() > start:
                    added(shown, self.line, max(at, start), max(match.start(), start), "")
                    at = added(shown, self.line, max(match.start(), start), min(match.end(), upto), match.lastgroup)
            added(shown, self.line, max(at, start), upto, "")
            at = upto if opens < 0 else self.string(shown, opens, opens, stop)
        return shown

    def string(self, shown: Text, opens: int, start: int, stop: int) -> int:
        """Add the part from `start` (up to `stop`) of the string (or key) opening at `opens`; where it ends."""
        closes = self.quotes.find('"', opens + 1)
        ends = len(self.line) if closes < 0 else closes + 1
        kind = "key" if closes >= 0 and KEY_AFTER.match(self.line, ends) else "string"
        return added(shown, self.line, start, min(ends, stop), kind)


def added(shown: Text, line: str, start: int, stop: int, kind: str) -> int:
    """Add line[start:stop] to `shown` in the colour of its kind (none: plain); where it stopped."""
    if stop > start:
        shown.append_text(text(line[start:stop], STYLES[kind] if kind else ""))
    return max(start, stop)


class JsonView(LineCursorView):
    """The lines of a body, wrapped at the pane's width, drawn only when on screen.

    The cursor moves through the wrapped lines; `c` copies the path of the value on its line.
    """

    BINDINGS = [
        *moving("json"),
        Binding("v", "toggle_view", "Raw/pretty", id="json.toggle_view"),
        Binding("c", "copy_path", "Copy path", id="json.copy_path"),
        Binding("n", "next_match(1)", "Next match", id="json.next_match"),
        Binding("N", "next_match(-1)", "Previous match", show=False, id="json.previous_match"),
    ]
    DEFAULT_CSS = """
    JsonView {
        overflow-y: scroll;
        overflow-x: hidden;
    }
    """

    class Changed(Message):
        """The view, cursor or search changed: the pane's title line says where things are."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.raw: list[str] = []
        self.pretty: Pretty | None = None
        self.value: Any = None
        self.parsed = False
        self.showing_pretty = False
        self.not_json: str | None = None  # why the body has no pretty view, when it is not empty
        self.lines: list[str] = []
        self.ends: list[int] = []  # ends[i]: wrapped lines up to and including physical line i
        self.width_for = 0
        self.tokens: dict[int, Tokens] = {}  # physical line: its tokens, for the long lines drawn
        self.matches: list[tuple[int, int]] = []  # (physical line, column)
        self.term = ""
        self.match_index = -1
        self.generation = 0
        self.filtered: str | None = None  # what a jq filter shows instead of the body (`| .name · 1 result`)
        self.nothing: str | None = None  # why there is no body to show (a request with no answer)

    # What is shown ---------------------------------------------------------------------------

    def show(self, resource: Resource) -> None:
        """Show a body: as received at first when large, pretty at once when small and JSON."""
        self.generation += 1
        self.raw = resource.text.split("\n")
        self.pretty = None
        self.value, self.parsed = resource.json, resource.json is not None
        self.matches, self.match_index = [], -1
        self.not_json = resource.json_error
        self.filtered = self.nothing = None
        if self.parsed and len(resource.body) <= PRETTY_NOW:
            self.pretty = Pretty(self.value)  # within the session's --max-depth: the walk has room
            self.use(pretty=True)
        else:
            self.use(pretty=False)
            if self.parsed:
                # After the first paint: a thread working now would slow that paint (the GIL).
                self.call_after_refresh(self.make_pretty, self.value, self.generation)

    def show_value(self, value: Any, filter_line: str) -> None:
        """Show a value that is not a body as received (a jq filter's results); `filter_line` is the filter's line."""
        self.generation += 1
        self.pretty = Pretty(value)
        self.raw = [json.dumps(value, ensure_ascii=False)]
        self.value, self.parsed = value, True
        self.matches, self.match_index = [], -1
        self.not_json = self.nothing = None
        self.filtered = filter_line
        self.use(pretty=True)

    def show_nothing(self, why: str) -> None:
        """No body, and why (`no JSON: no answer came`): not the last body, which is another request's."""
        self.generation += 1
        self.raw, self.pretty, self.value, self.parsed = [], None, None, False
        self.matches, self.match_index = [], -1
        self.not_json = self.filtered = None
        self.nothing = why
        self.use(pretty=False)

    def show_filter_line(self, line: str) -> None:
        """Show `line` on the filter's line (a filter that failed, over the body it left as it was)."""
        self.filtered = line
        self.post_message(self.Changed())

    @work(thread=True, exclusive=True, group="pretty", description="the pretty view")  # not repr(value): 50 MB
    def make_pretty(self, value: Any, generation: int) -> None:
        self.app.call_from_thread(self.pretty_ready, Pretty(value), generation)

    def pretty_ready(self, made: Pretty, generation: int) -> None:
        if generation == self.generation:
            self.pretty = made
            self.post_message(self.Changed())

    def use(self, pretty: bool) -> None:
        self.showing_pretty = pretty and self.pretty is not None
        self.lines = self.pretty.lines if self.showing_pretty and self.pretty else self.raw
        self.width_for = 0
        self.matches = self.find(self.term) if self.term else []
        self.match_index = -1
        self.layout_lines()
        self.cursor = 0
        self.scroll_to(0, 0, animate=False)
        self.post_message(self.Changed())

    def layout_lines(self) -> None:
        """Where each physical line's wrapped lines start, for the pane's width."""
        width = max(1, self.scrollable_content_region.width or self.size.width or 80)
        if width == self.width_for:
            return
        self.width_for = width
        self.ends = list(accumulate(max(1, -(-len(line) // width)) for line in self.lines))
        self.cache.clear()
        self.virtual_size = Size(width, self.ends[-1] if self.ends else 0)

    def on_resize(self) -> None:
        if self.lines:
            physical = self.locate(self.cursor)[0] if self.ends else 0
            self.layout_lines()
            self.cursor = self.first_of(physical)

    @property
    def total(self) -> int:
        return self.ends[-1] if self.ends else 0

    @property
    def line_count(self) -> int:
        return self.total

    def locate(self, wrapped: int) -> tuple[int, int]:
        """(physical line, which slice of it) for a wrapped line number."""
        physical = bisect.bisect_right(self.ends, wrapped)
        start = self.ends[physical - 1] if physical else 0
        return physical, wrapped - start

    def first_of(self, physical: int) -> int:
        return self.ends[physical - 1] if physical else 0

    # Drawing -------------------------------------------------------------------------------

    def render_body_line(self, line: int) -> Strip:
        physical, part = self.locate(line)
        width = self.width_for or self.size.width
        whole = self.lines[physical]
        if len(whole) <= width:
            shown, piece = highlight(whole), whole
        else:  # coloured as the whole line reads: a string keeps its colour where it wraps
            piece = whole[part * width : (part + 1) * width]
            shown = self.tokens_of(physical).slice(part * width, part * width + len(piece))
        for column in self.matches_on(physical, part * width, len(piece)):
            shown.stylize(MATCH, column, column + len(self.term))
        return Strip(shown.render(self.app.console))

    def tokens_of(self, physical: int) -> Tokens:
        """The tokens of a line that wraps, kept for the few lines on screen."""
        tokens = self.tokens.get(physical)
        if tokens is None or tokens.line is not self.lines[physical]:
            if len(self.tokens) >= MAX_TOKENS:
                self.tokens.clear()
            tokens = self.tokens[physical] = Tokens(self.lines[physical])
        return tokens

    def watch_cursor(self, old: int, new: int) -> None:
        super().watch_cursor(old, new)
        self.post_message(self.Changed())

    # Views, paths and search -----------------------------------------------------------------

    def action_toggle_view(self) -> None:
        if self.pretty is None:
            if self.not_json:
                note = f"No pretty view: the body is {self.not_json}."
            elif not self.parsed:
                note = "This body is not JSON: it has no pretty view."
            else:
                note = "Still making the pretty view…"
            self.notify(note)
            return
        self.use(pretty=not self.showing_pretty)

    def path_at_cursor(self) -> str | None:
        if not self.showing_pretty or self.pretty is None or not self.total:
            return None
        physical, _ = self.locate(self.cursor)
        return self.pretty.path(physical)

    def action_copy_path(self) -> None:
        path = self.path_at_cursor()
        if path is None:
            self.notify("Paths are copied from the pretty view: press v.")
            return
        self.app.copy_to_clipboard(path)
        self.notify(f"Copied {visible(path[:200])}", markup=False)

    def find(self, term: str) -> list[tuple[int, int]]:
        found: list[tuple[int, int]] = []
        folded = term.casefold()
        for number, line in enumerate(self.lines):
            haystack = line.casefold()
            column = haystack.find(folded)
            while column != -1 and len(found) < MAX_MATCHES:
                found.append((number, column))
                column = haystack.find(folded, column + max(1, len(folded)))
        return found

    def search(self, term: str) -> int:
        """Mark every match of `term` and move to the first after the cursor. Returns how many."""
        self.term = term
        self.matches = self.find(term) if term else []
        self.cache.clear()
        self.match_index = -1
        self.refresh()
        if self.matches:
            self.action_next_match(1)
        else:
            self.post_message(self.Changed())
        return len(self.matches)

    def action_next_match(self, step: int) -> None:
        if not self.matches:
            self.notify("No matches: search with /.")
            return
        self.match_index = (self.match_index + step) % len(self.matches)
        physical, column = self.matches[self.match_index]
        width = self.width_for or 1
        self.move(self.first_of(physical) + column // width)

    def matches_on(self, physical: int, start: int, length: int) -> list[int]:
        if not self.matches or not self.term:
            return []
        first = bisect.bisect_left(self.matches, (physical, start - len(self.term) + 1))
        columns = []
        for line, column in self.matches[first:]:
            if line != physical or column >= start + length:
                break
            columns.append(max(0, column - start))
        return columns

    def where_parts(self) -> list[str]:
        """The pane's title line: which view, which line, which path, which match (`“staging” 1/2`)."""
        if self.nothing is not None:
            return [self.nothing]
        view = "pretty" if self.showing_pretty else "as received"
        if self.pretty is None and self.parsed:
            view += " (pretty view on its way)"
        parts = [view, self.not_json] if self.not_json else [view]
        if self.total:
            physical, _ = self.locate(self.cursor)
            parts.append(f"line {physical + 1:,} of {len(self.lines):,}")
        path = self.path_at_cursor()
        if path:
            parts.append(path)
        if self.term:
            # Not on a match yet (a new document, a filter's results): `?/3`, as editors say it, not `0/3`
            shown = f"{self.match_index + 1:,}" if self.match_index >= 0 else "?" if self.matches else "0"
            parts.append(f"“{self.term}” {shown}/{len(self.matches):,}")
        return parts
