"""A failure's hint in the command line's words: the flag or variable that changes its setting.

The library says what went wrong and which setting would help (`ApiError.setting`: a longer
deadline, a CA bundle); it knows none of the flags. These are the commands' words for each, added
after the library's hint by `ApiError.hint_in`. The screen has its own (`explorer/tui/hint_words.py`).
"""

from __future__ import annotations

from explorer.api.errors import ApiError

VERSION = "--api-version DATE (EXPLORER_API_VERSION, or api_version in the profile)"
# The words for what the config file and the environment give, the same on the command line and the screen
PROFILES = "docs/configuration.md shows one, or save one from the login form."
ACCOUNT = (
    "Or set EXPLORER_CLIENT_ID and EXPLORER_CLIENT_SECRET (a service account), or EXPLORER_PUBLIC_KEY and "
    "EXPLORER_PRIVATE_KEY (an API key)."
)
SECRET = "Or set EXPLORER_CLIENT_SECRET (or EXPLORER_PRIVATE_KEY) for this run: it comes before the profile."
FLAG_WORDS = {
    "writes": "To write, turn writes on: --writes, EXPLORER_WRITES=1, or writes = true in the profile.",
    "client": "They are read from --client-id or EXPLORER_CLIENT_ID, EXPLORER_CLIENT_SECRET, or the profile.",
    "api_key": "The keys are read from --public-key or EXPLORER_PUBLIC_KEY, EXPLORER_PRIVATE_KEY, or the profile.",
    "credentials": "Credentials are read from the flags, EXPLORER_* variables or the profile.",
    "tokens": "explorer logout revokes the one explorer get keeps.",
    "api_version": f"Name one with {VERSION}, or send your own Accept with explorer get -H.",
    "openapi": f"Name one with {VERSION}, give the API description with --openapi FILE_OR_URL, or send your own "
    "Accept with explorer get -H.",
    "accept": "Send it with explorer get -H 'Accept: …' (Y in the explorer copies the request as curl).",
    "timeout": "--timeout SECONDS waits longer.",
    "deadline": "If the service is only slow, --deadline SECONDS allows more.",
    "max_body": "If it is a real answer, --max-body MB allows more.",
    "max_depth": "Set it with --max-depth LEVELS.",
    "ca_bundle": "--ca-bundle FILE names it (EXPLORER_CA_BUNDLE, or ca_bundle in the profile).",
    "base_url": "Explore it with --base-url URL and its credentials, or --profile NAME.",
    "api_root": "Give the right one with --base-url URL (EXPLORER_BASE_URL, or base_url in the profile).",
    "service": "On the command line, --base-url URL (or EXPLORER_BASE_URL) names one; --demo explores the sandbox.",
    "profile": "On the command line, --profile NAME (or EXPLORER_PROFILE) chooses one.",
    "profiles": PROFILES,
    "account": ACCOUNT,
    "secret": SECRET,
    "description": "Name it with --openapi FILE_OR_URL (EXPLORER_OPENAPI, or openapi in the profile).",
}


def command_line_hint(error: ApiError) -> str | None:
    """The error's hint, then the flag that changes its setting, if one does."""
    return error.hint_in(FLAG_WORDS)
