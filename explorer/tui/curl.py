"""A resource's request as a curl command, credentials as variables never their values."""

from __future__ import annotations

import shlex

from explorer.api.resource import Resource


def as_curl(resource: Resource, api_key: bool) -> str:
    """`curl` for the request that made `resource`: $TOKEN, or $PUBLIC_KEY:$PRIVATE_KEY with Digest."""
    parts = ["curl"]
    if resource.method != "GET":
        parts += ["-X", resource.method]
    if api_key:
        parts += ["--digest", "-u", '"$PUBLIC_KEY:$PRIVATE_KEY"']
    elif not resource.foreign:
        parts += ["-H", '"Authorization: Bearer $TOKEN"']
    parts += ["-H", shlex.quote("Accept: application/json"), shlex.quote(resource.url)]
    return " ".join(parts)
