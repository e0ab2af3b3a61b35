"""A request's secrets learnt, and a URL kept redacted: for the files that keep what was sent.

The journal, the drafts and the baselines keep URLs and what a service said back; these say what of
a request is a secret (its token, what it sent under a secret's name) and how a URL is kept.
"""

from __future__ import annotations

from urllib.parse import parse_qsl

import httpx

from explorer.api.known_secrets import KnownSecrets
from explorer.api.redaction import Redaction, is_secret


def learn_request(known: KnownSecrets, request: httpx.Request) -> None:
    """Know the credentials a request carries, and the values it sends under a secret's name.

    Its Authorization header's token, and what a person sent as `-H X-Api-Key: …` or `-q
    access_token=…`: a service may say them back anywhere (a `self` link, an error's detail), and a
    file that keeps its answer must mask them there too.

    Args:
        known: The credentials to add to.
        request: The request as it goes.
    """
    headers = list(request.headers.multi_items())
    query = parse_qsl(request.url.query.decode("ascii", "replace"), keep_blank_values=True)
    known.learn_headers(headers)
    known.learn_named([*headers, *query], is_secret)


def kept_url(url: str, known: KnownSecrets | None = None) -> str:
    """Return a URL as a file keeps it, with the values of secret-named query parameters, a password
    in it and the known credentials replaced (as `Redaction.url` does).

    Args:
        url: The URL, as given or sent.
        known: The credentials to mask in it too; it learns the secret-named query values it holds.
            None: by names alone, so that the same URL is always kept the same (a key).

    Returns:
        The URL as text, redacted; a text that is not a URL, with the known credentials masked.
    """
    known = known if known is not None else KnownSecrets()
    try:
        parsed = httpx.URL(url)
    except (httpx.InvalidURL, TypeError):
        return known.mask(url)
    known.learn_named(parse_qsl(parsed.query.decode("ascii", "replace"), keep_blank_values=True), is_secret)
    text, _ = Redaction(known=known).url(parsed, "url")
    return text
