"""Which profile applies to a base URL: a profile is bound to the origin its base_url names, and an origin a
profile names with `writes = false` is read-only for every session there but one through a profile for it
that says `writes = true`. config.py asks here when it resolves credentials and when the login form connects;
profiles.py when it saves one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from explorer.api.errors import ApiError, ConfigError
from explorer.api.urls import check_base_url, is_loopback, origin_text


def origin_of_text(url: Any) -> str | None:
    """The origin a base URL names (`https://host:443`), as the base URL's rules read it; None when it is none."""
    if not isinstance(url, str):
        return None
    try:
        return origin_text(check_base_url(url))
    except ApiError:
        return None


def names_origin(settings: Mapping[str, Any], url: str) -> bool:
    """Whether a profile's base_url is on the same origin as `url`: only then does the profile apply to it."""
    theirs = origin_of_text(settings.get("base_url"))
    return theirs is not None and theirs == origin_of_text(url)


def server_of(url: Any) -> tuple[str, int | None] | None:
    """The machine and port a base URL reaches, whatever it is called: the host without a trailing dot,
    every loopback name as one (`localhost`, `127.0.0.1`, `[::1]`), the scheme's default port filled in;
    None when it is no base URL."""
    if not isinstance(url, str):
        return None
    try:
        checked = check_base_url(url)
    except ApiError:
        return None
    host = checked.host.rstrip(".").lower()
    port = checked.port or {"https": 443, "http": 80}.get(checked.scheme)
    return ("loopback" if is_loopback(host) else host), port


def read_only_profile(profiles: Mapping[str, Any], url: str) -> str | None:
    """The first profile (by name) that does not allow writes (`writes = false`) and names the server `url`
    reaches, under any of its names (`server_of`): another spelling of a read-only origin is read-only too."""
    server = server_of(url)
    for name in sorted(profiles):
        settings = profiles[name]
        if not isinstance(settings, dict) or settings.get("writes") in (None, True):
            continue
        if names_origin(settings, url) or (server is not None and server_of(settings.get("base_url")) == server):
            return str(name)
    return None


def origin_writes(profiles: Mapping[str, Any], chosen: str | None, url: str) -> tuple[bool | None, str | None]:
    """What the config file says of writes at `url`'s origin, and which profile says it.

    Args:
        profiles: The config file's profiles.
        chosen: The profile the session comes from, if it applies to `url` (it names the same origin).
        url: The session's base URL.

    Returns:
        The chosen profile's `writes` and its name, when it says true or false; else (False, NAME) when a profile
        NAME naming the same origin says writes = false; else (None, chosen).
    """
    settings = profiles.get(chosen) if chosen else None
    profile_writes = settings.get("writes") if isinstance(settings, dict) else None
    if profile_writes is True:
        return True, chosen
    if profile_writes is not None:
        return False, chosen
    guard = read_only_profile(profiles, url)
    return (False, guard) if guard else (None, chosen)


def detached_profile(name: str, settings: Mapping[str, Any], url: str) -> ConfigError:
    """Why a profile is not used for a base URL on another origin, naming both origins, and what to do."""
    asked = origin_of_text(url) or url
    theirs = origin_of_text(settings.get("base_url"))
    if theirs is None:
        summary = f"The profile {name!r} names no base_url, so its credentials go to no origin: not to {asked}"
    else:
        summary = f"The profile {name!r} is for {theirs}, not {asked}: its credentials go only to {theirs}"
    return ConfigError(
        summary,
        f"Give {asked} its own credentials in the environment or a profile; to use the profile {name!r}, "
        "leave the base URL to it.",
        setting="base_url",
    )
