"""The client library: sessions, credentials, resources, links, pages, errors, rate limits.

It imports no Textual, so scripts can use it. With a profile in the config file (its
`default_profile`: a base URL, a client ID and a secret), this prints the projects' names
(tests/api/test_library_example.py runs it, against the sandbox):

    import asyncio

    from explorer.api import ApiError, Credentials, Session


    async def main() -> None:
        async with Session(Credentials.resolve()) as session:
            projects = await session.fetch("/groups")
            if projects.error is not None:
                raise projects.error  # the error document, as an ApiError: .line() and .hint say it
            assert projects.page is not None
            for project in projects.page.results:
                print(project["name"])


    try:
        asyncio.run(main())
    except ApiError as error:  # no answer (refused, unreachable), or an error document
        print(error.line())
"""

from explorer.api.config import Credentials
from explorer.api.errors import ApiError, ConfigError
from explorer.api.history import History, HistoryEntry
from explorer.api.options import Bounds, Caches, Clocks, Har
from explorer.api.resource import Link, Page, Resource
from explorer.api.secret import Secret
from explorer.api.session import Session

__all__ = [
    "ApiError",
    "Bounds",
    "Caches",
    "Clocks",
    "ConfigError",
    "History",
    "HistoryEntry",
    "Credentials",
    "Har",
    "Link",
    "Page",
    "Resource",
    "Secret",
    "Session",
]
