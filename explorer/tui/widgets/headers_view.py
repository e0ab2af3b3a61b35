"""The Headers pane: the request as sent (credentials as ***) and the response headers; after a
failure, the request as sent and `no answer: why`, or that nothing was sent and why."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from explorer.api.errors import ApiError
from explorer.api.resource import Resource
from explorer.api.secret import redact_header
from explorer.api.versions import deprecation, served_version
from explorer.tui.palette import status_class
from explorer.tui.safe_text import visible


class HeadersView(VerticalScroll, can_focus=True):
    """Every header whole: a line too long for the pane goes on over the next lines (a long URL or
    value is broken where the pane ends), so a person debugging reads each to its last character."""

    DEFAULT_CSS = """
    HeadersView {
        padding: 0 1;
    }
    """

    def compose(self) -> ComposeResult:
        yield Static(id="headers")

    def show(self, resource: Resource) -> None:
        out = Text(overflow="fold")  # a word longer than the pane (a URL) is broken, not cut
        out.append(visible(f"{resource.method} {resource.url}"), "bold")
        out.append("\n")
        for name, value in resource.request_headers:
            self.header(out, name, value)
        out.append("\n")
        out.append(visible(f"{resource.http_version} "), "bold")
        start = len(out)
        out.append(visible(f"{resource.status} {resource.reason}"), "bold")
        out.stylize(status_class(resource.status), start)  # a theme style by name: never in one string with "bold"
        out.append(f"  {resource.elapsed * 1000:.0f} ms · {resource.size:,} bytes", "dim")
        version = served_version(resource.headers.get("content-type"))
        if version is not None:
            out.append(f" · version {version}", "dim")
        out.append("\n")
        sunset = deprecation(resource.headers)
        if sunset is not None:
            start = len(out)
            out.append(visible(sunset), "bold")
            out.stylize("meter-low", start)  # the theme's warning amber
            out.append("\n")
        for name, value in resource.headers.multi_items():
            self.header(out, name, redact_header(name, value))
        self.query_one("#headers", Static).update(out)

    def show_failure(self, error: ApiError) -> None:
        """A request that got no answer: the request as it went out, then `no answer: why`. One refused
        before it was sent (another origin, no token): that nothing was sent, and why, in a line. Never
        the headers of an earlier answer beside a failure."""
        out = Text(overflow="fold")
        asked = f"{error.method} {error.url}" if error.method and error.url else None
        if error.sent is None:
            out.append("Nothing was sent" + (f": {visible(asked)}" if asked else ""), "bold")
            out.append("\n")
            out.append(visible(error.line()))
        else:
            out.append(visible(asked or ""), "bold")
            out.append("\n")
            for name, value in error.sent:
                self.header(out, name, value)
            out.append("\n")
            start = len(out)
            out.append(visible(f"no answer: {error.line()}"), "bold")
            out.stylize(status_class(500), start)
        self.query_one("#headers", Static).update(out)

    @staticmethod
    def header(out: Text, name: str, value: str) -> None:
        out.append(visible(name), "json-key")
        out.append(": ")
        out.append(visible(value))
        out.append("\n")
