"""A failure's hint in the screen's words: what to start the explorer with to change its setting.

The library says what went wrong and which setting would help (`ApiError.setting`); it knows none
of the flags. The screen was started from a command line, so its words for most settings are that
line's flags, to start it again with; the login form has its own (`form_hints.py`), and the
commands theirs (`explorer/commands/hint_words.py`).
"""

from __future__ import annotations

from explorer.api.errors import ApiError

AGAIN = "Start explorer again with"
VERSION = "--api-version DATE (EXPLORER_API_VERSION, or api_version in the profile)"
SCREEN_WORDS = {
    "writes": f"To write, turn writes on: {AGAIN} --writes (EXPLORER_WRITES=1), or writes = true in the profile.",
    "client": "explorer reads them from the login form, --client-id or EXPLORER_CLIENT_ID and "
    "EXPLORER_CLIENT_SECRET, or the profile.",
    "api_key": "explorer reads them from --public-key or EXPLORER_PUBLIC_KEY and EXPLORER_PRIVATE_KEY, or the profile.",
    "credentials": "explorer reads them from the login form, the flags, EXPLORER_* variables or the profile.",
    "tokens": "explorer logout revokes the one explorer get keeps; the screen revokes its own as it quits.",
    "api_version": f"{AGAIN} {VERSION}, or Y copies the request as curl, to send with your own Accept.",
    "openapi": f"{AGAIN} {VERSION} or with the API description, --openapi FILE_OR_URL; or Y copies the request "
    "as curl, to send with your own Accept.",
    "accept": "Y copies the request as curl, to send with your own Accept (or explorer get -H 'Accept: …').",
    "timeout": f"{AGAIN} --timeout SECONDS to wait longer.",
    "deadline": f"If the service is only slow, {AGAIN.lower()} --deadline SECONDS to allow more.",
    "max_body": f"If it is a real answer, {AGAIN.lower()} --max-body MB to allow more.",
    "max_depth": f"{AGAIN} --max-depth LEVELS.",
    "ca_bundle": f"{AGAIN} --ca-bundle FILE (EXPLORER_CA_BUNDLE, or ca_bundle in the profile).",
    "base_url": "To explore it, start explorer with --base-url URL and its credentials, or --profile NAME.",
    "api_root": f"{AGAIN} the right one: --base-url URL (EXPLORER_BASE_URL, or base_url in the profile).",
    "service": "On the command line, --base-url URL (or EXPLORER_BASE_URL) names one; --demo explores the sandbox.",
    "profile": f"{AGAIN} --profile NAME (or EXPLORER_PROFILE) to choose one.",
    "profiles": "docs/configuration.md shows one, or save one from the login form.",
    "account": "Or set EXPLORER_CLIENT_ID and EXPLORER_CLIENT_SECRET (a service account), or EXPLORER_PUBLIC_KEY and "
    "EXPLORER_PRIVATE_KEY (an API key).",
    "secret": "Or set EXPLORER_CLIENT_SECRET (or EXPLORER_PRIVATE_KEY) for this run: it comes before the profile.",
    "description": f"{AGAIN} --openapi FILE_OR_URL (EXPLORER_OPENAPI, or openapi in the profile).",
}


def screen_hint(error: ApiError) -> str | None:
    """The error's hint, then what to start the explorer with to change its setting, if anything."""
    return error.hint_in(SCREEN_WORDS)
