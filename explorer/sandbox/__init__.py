"""A faithful local implementation of the administration API: demo, test and classroom server."""

from explorer.sandbox.app import create_app
from explorer.sandbox.settings import Settings

__all__ = ["Settings", "create_app"]
