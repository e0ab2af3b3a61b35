"""The keys that move a cursor through lines, shared by the widgets that have one (the table, the JSON
view). Below the widgets: the key registry (keys.py) sits above them and reads their bindings."""

from __future__ import annotations

from textual.binding import Binding


def moving(prefix: str) -> list[Binding]:
    """The keys that move a cursor through lines, with ids under `prefix` (`json.up`, `table.up`).

    The widget provides the actions: cursor(step), page(direction), edge(direction).
    """
    return [
        Binding("up", "cursor(-1)", "Up", show=False, id=f"{prefix}.up"),
        Binding("down", "cursor(1)", "Down", show=False, id=f"{prefix}.down"),
        Binding("pageup", "page(-1)", "Page up", show=False, id=f"{prefix}.page_up"),
        Binding("pagedown", "page(1)", "Page down", show=False, id=f"{prefix}.page_down"),
        Binding("home", "edge(-1)", "Top", show=False, id=f"{prefix}.top"),
        Binding("end", "edge(1)", "Bottom", show=False, id=f"{prefix}.bottom"),
    ]
