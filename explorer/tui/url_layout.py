"""Where you are, in one line of the header: the URL in view as it was sent, cut to the room;
and a URL on as many lines as it needs, broken between its segments (a dialog's `Act on …`).

No Textual here: the screen measures the room and puts the line in its title.
"""

from __future__ import annotations

import re

from rich.cells import cell_len

PIECES = re.compile(r"[^/?&]*(?:/+|[?&])|[^/?&]+$")  # a URL's segments, each with the `/` after it


VIEW = ("pageNum", "itemsPerPage", "pretty", "envelope")  # the query's parameters that say what the panes show


def title_url(url: str, room: int) -> str:
    """The URL in view in `room` cells: whole, as it was sent, when it fits (a copy of it works).
    Too long, it keeps its end, which tells one place from another: the resource (the path's last
    segment) and the query's page, size and switches; what gives way, in order, is the path before
    the resource (cut from the left, `…`), the origin, the query's other parameters
    (`…/events?…&pageNum=2&itemsPerPage=100`), then the resource's middle
    (`…/6938b8…623491a?pretty=true&envelope=true`), then those parameters from the left, the page's
    number last (`…/events?…&pageNum=2&envelope=true`), the last of them cut in its middle rather
    than lost (`…/groups?itemsPerPage=999…999`)."""
    if cell_len(url) <= room:
        return url
    scheme = url.find("://")
    path_at = url.find("/", scheme + 3) if scheme >= 0 else -1
    if path_at < 0:
        return "…" + tail(url, room - 1)
    origin, rest = url[:path_at], url[path_at:]
    path, mark, query = rest.partition("?")
    resource = path[path.rfind("/") :]
    before = path[: len(path) - len(resource)]
    short = short_query(query, VIEW)
    for head, end in ((origin, mark + query), ("", mark + query), ("", short)):
        free = room - cell_len(f"{head}…{resource}{end}")
        if free >= 0:
            return f"{head}…{tail(before, free)}{resource}{end}"
    keep = room - cell_len(f"…{short}")
    if keep >= RESOURCE_LEAST and cell_len(resource) > keep:
        return f"…{middle(resource, keep)}{short}"
    view_pairs = [pair for pair in query.split("&") if pair.partition("=")[0] in VIEW] if query else []
    while True:
        cut = len(view_pairs) < len(query.split("&")) if query else False
        head = f"…{resource}" + ("?…" if cut else "?" if view_pairs else "")
        line = head + ("&" if cut and view_pairs else "") + "&".join(view_pairs)
        if cell_len(line) <= room or not view_pairs:
            return line if cell_len(line) <= room else "…" + tail(line, room - 1)
        free = room - cell_len(head + ("&" if cut else ""))
        if len(view_pairs) == 1 and free >= RESOURCE_LEAST:  # the last parameter: cut in its middle, not lost whole
            return head + ("&" if cut else "") + middle(view_pairs[0], free)
        view_pairs.remove(next((pair for pair in view_pairs if not pair.startswith("pageNum=")), view_pairs[0]))


def path_line(path: str, room: int) -> str:
    """A path and its query (the Log's `/groups/687b…6b43/events?pageNum=2&itemsPerPage=100`) in
    `room` cells. Too long, it gives way as the title's URL does, so that what tells two requests
    apart stays: first the path before the resource (cut from the left, `…6b43/events?…`), then the
    query's parameters other than the page's (`…/events?…&pageNum=2&itemsPerPage=100`), then the
    resource, from the left too (`…ents?…&pageNum=2&itemsPerPage=100`, `…rs-prod`), then the page's
    size (`…nts?…&pageNum=2`, `…s?pageNum=2`): every page of a list ends in the same
    `itemsPerPage=100`, so the page's number is the last to go."""
    if cell_len(path) <= room:
        return path
    path, mark, query = path.partition("?")
    resource = path[max(0, path.rfind("/")) :]
    before = path[: len(path) - len(resource)]
    short = short_query(query, PAGING)
    for rest in (f"{mark}{query}", short):
        free = room - cell_len(resource + rest)
        if cell_len(before) <= free:
            return before + resource + rest
        if free >= 1:
            return f"…{tail(before, free - 1)}{resource}{rest}"
    if cell_len(short) > room - 1:  # not even the paging query: its page's number, without the size
        page = short_query(query, ("pageNum",))
        numbers = [pair for pair in query.split("&") if pair.partition("=")[0] == "pageNum"]
        short = page if cell_len(page) <= room - 1 or not numbers else f"?{numbers[-1]}"
        free = room - cell_len(resource + short)
        if free >= 1:
            return f"…{tail(before, free - 1)}{resource}{short}"
    return "…" + tail(resource + short, room - 1)


PAGING = ("pageNum", "itemsPerPage")  # the query's parameters that say which page of a list


def short_query(query: str, names: tuple[str, ...]) -> str:
    """`?query` with only the parameters `names` (`?…&pageNum=2`), `?…` where it has none of them."""
    if not query:
        return ""
    pairs = query.split("&")
    wanted = [pair for pair in pairs if pair.partition("=")[0] in names]
    if len(wanted) == len(pairs):
        return f"?{query}"
    return "?…" + "".join(f"&{pair}" for pair in wanted)


def url_lines(url: str, room: int, lead: str = "") -> list[str]:
    """`lead` and `url` in lines of `room` cells, broken after a `/` (or a `?`, an `&`), never
    inside a segment: `…/clusters/` then `reporting`, not `…/clusters/reportin` then `g`. A segment
    wider than the room is cut in its middle, as the title cuts a resource (`687b4…b43/`)."""
    rows = [lead]
    for piece in PIECES.findall(url):
        if cell_len(piece) > room:
            piece = middle(piece, room)
        if cell_len(rows[-1] + piece) <= room:
            rows[-1] += piece
        else:
            rows.append(piece)
    return [row.rstrip() for row in rows]


RESOURCE_LEAST = 9  # cells of a resource cut in the middle that still tell it apart (`/693…491a`)


def middle(text: str, cells: int) -> str:
    """`text` in `cells` cells, its middle given way to `…`: both ends tell an id apart."""
    end = tail(text, (cells - 1) // 2)
    return tail(text[::-1], cells - 1 - cell_len(end))[::-1] + "…" + end


def tail(text: str, cells: int) -> str:
    """The end of `text` that fits `cells` cells."""
    end = ""
    for char in reversed(text):
        if cell_len(char + end) > cells:
            break
        end = char + end
    return end
