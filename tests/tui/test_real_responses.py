"""Every response recorded from the real service renders in every pane without error."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal

from explorer.tui.palette import PaletteApp
from explorer.tui.widgets.headers_view import HeadersView
from explorer.tui.widgets.json_view import JsonPane
from explorer.tui.widgets.page_view import PageView
from explorer.tui.widgets.status_bar import StatusBar
from tests.real_response import as_resource


class Panes(PaletteApp):
    """The panes side by side, so that one refresh draws all of them."""

    def compose(self) -> ComposeResult:
        with Horizontal():
            yield PageView()
            yield JsonPane()
            yield HeadersView()
        yield StatusBar()


async def test_every_real_response_in_every_pane(real_responses):
    app = Panes()
    app.animation_level = "none"
    async with app.run_test(size=(240, 40)) as pilot:
        page, json, headers, status = (app.query_one(kind) for kind in (PageView, JsonPane, HeadersView, StatusBar))
        for path in real_responses:
            resource = as_resource(path)
            page.show(resource)
            json.show(resource)
            headers.show(resource)
            status.show_response(resource)
            status.show_error(resource.error)
            await pilot.pause()
            assert app.is_running, path.name
            if resource.error:  # beside its own status, the error is its code and detail
                detail = resource.error.line().removeprefix(f"{resource.status} {resource.reason} · ")
                assert str(status.render()).endswith(f"⚠ {detail}"), path.name
            shown = app.export_screenshot().replace("&#160;", " ")  # what a person sees
            assert resource.reason in shown or resource.status == 200, path.name
