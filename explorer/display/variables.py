"""The explorer's environment variables: the one each setting is read from, and the one that asks for writes.

The library reads the environment only through the names its caller gives (`Credentials.resolve`'s
`variables`); these are the names the explorer gives, on the command line and on the screen alike.
"""

from __future__ import annotations

from collections.abc import Mapping

# The variable of each field the library may read from the environment (config.VARIABLE_FIELDS).
VARIABLES = {
    "base_url": "EXPLORER_BASE_URL",
    "client_id": "EXPLORER_CLIENT_ID",
    "client_secret": "EXPLORER_CLIENT_SECRET",
    "public_key": "EXPLORER_PUBLIC_KEY",
    "private_key": "EXPLORER_PRIVATE_KEY",
    "ca_bundle": "EXPLORER_CA_BUNDLE",
    "profile": "EXPLORER_PROFILE",
    "api_version": "EXPLORER_API_VERSION",
    "openapi": "EXPLORER_OPENAPI",
}
WRITES = "EXPLORER_WRITES"  # 1 (or true, yes, on) asks for writes, as --writes does
WRITES_FLAG = "--writes"


def writes_asked(flag: bool, environ: Mapping[str, str]) -> str | None:
    """Say how writes were asked for, as the write policy names it: the flag, else the variable.

    Args:
        flag: Whether --writes was given.
        environ: The environment, where EXPLORER_WRITES is read.

    Returns:
        "--writes", "EXPLORER_WRITES=1", or None when writes were not asked for.
    """
    if flag:
        return WRITES_FLAG
    if environ.get(WRITES, "").strip().lower() in ("1", "true", "yes", "on"):
        return f"{WRITES}=1"
    return None
