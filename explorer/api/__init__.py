"""The client library: sessions, credentials, resources, links, pages, errors, rate limits.

It imports no Textual, so scripts can use it:

    async with await Session.open(Credentials.resolve(profile="prod")) as session:
        resource = await session.fetch("/groups")
"""

from explorer.api.config import ConfigError, Credentials
from explorer.api.errors import ApiError
from explorer.api.resource import Link, Page, Resource
from explorer.api.secret import Secret
from explorer.api.session import Session

__all__ = ["ApiError", "ConfigError", "Credentials", "Link", "Page", "Resource", "Secret", "Session"]
