"""A faithful local implementation of the administration API: demo, test and classroom server."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from explorer.sandbox.settings import Settings

if TYPE_CHECKING:
    from explorer.sandbox.app import create_app

__all__ = ["Settings", "create_app"]


def __getattr__(name: str) -> Any:
    # The app pulls in Starlette; commands that never serve it (explorer get) start faster without.
    if name == "create_app":
        from explorer.sandbox.app import create_app

        return create_app
    raise AttributeError(name)
