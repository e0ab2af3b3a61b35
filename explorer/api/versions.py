"""API versions: the media type a request names, the version an answer was served in, and its sunset.

The service's current API (`/api/<vendor>/v2`) answers every request that does not name a version
with `406 INVALID_VERSION_DATE`. A version is a date, named in the Accept header:
`application/vnd.<vendor>.2023-01-01+json`. An answer says the version it was served in, in its
Content-Type, and a deprecated version's answers carry `Deprecation` and `Sunset` headers. The
spec's own root (`/api/service/v1.0`) takes plain `application/json`, as before.
"""

from __future__ import annotations

import datetime
import email.utils
import re
from collections.abc import Mapping

PLAIN = "application/json"
DEFAULT_VERSION = "2023-01-01"  # the first dated version, which every resource of the v2 API serves
VERSIONED_ROOT = re.compile(r"^/api/([A-Za-z0-9_-]+)/v2(?:/|$)")
SERVED = re.compile(r"application/vnd\.[A-Za-z0-9_-]+\.(\d{4}-\d{2}-\d{2})\+json", re.IGNORECASE)


def vendor_of(api_root: str) -> str | None:
    """`atlas` for an API root at `/api/atlas/v2`: an API whose requests name a version; else None."""
    match = VERSIONED_ROOT.match(api_root)
    return match.group(1) if match else None


def accept_for(vendor: str | None, version: str | None) -> str:
    """The Accept header for a request: the vendor's media type of `version` (or the default) where
    the API is versioned, plain JSON where it is not (`vendor` None)."""
    return f"application/vnd.{vendor}.{version or DEFAULT_VERSION}+json" if vendor else PLAIN


def check_version(text: str) -> str:
    """A version as the service names them, a date such as 2024-08-05; ValueError otherwise."""
    text = text.strip()
    try:
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
            datetime.date.fromisoformat(text)  # a real day: 2024-02-30 is not one
            return text
    except ValueError:
        pass
    raise ValueError(f"{text!r} is not a date such as 2024-08-05")


def served_version(content_type: str | None) -> str | None:
    """The version an answer was served in, from its Content-Type; None for plain JSON."""
    match = SERVED.search(content_type or "")
    return match.group(1) if match else None


def deprecation(headers: Mapping[str, str]) -> str | None:
    """`version 2023-01-01 is deprecated; sunset 2027-07-01`, when the answer says its version is deprecated."""
    if "deprecation" not in headers and "sunset" not in headers:
        return None
    version = served_version(headers.get("content-type"))
    text = f"version {version} is deprecated" if version else "this version is deprecated"
    sunset = headers.get("sunset")
    if sunset:
        text += f"; sunset {day_of(sunset)}"
    return text


def day_of(text: str) -> str:
    """An HTTP date (`Thu, 01 Jul 2027 00:00:00 GMT`) or a day (`1 Jul 2027`) as 2027-07-01; else as given."""
    text = text.strip()
    try:
        return email.utils.parsedate_to_datetime(text).date().isoformat()
    except (TypeError, ValueError, IndexError):
        pass
    try:
        return datetime.datetime.strptime(text, "%d %b %Y").date().isoformat()
    except ValueError:
        return text
