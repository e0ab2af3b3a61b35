"""The library's errors in the login form's words: a field where the command line would name a
flag, and the field a failed connection is about (the cursor goes there)."""

from __future__ import annotations

from explorer.api.errors import ApiError

# How the form changes a hint's setting (ApiError.hint_in): here the fix is a field.
FORM_SETTINGS = {"ca_bundle": "Put it in the CA bundle field."}
INVALID_CLIENT = "Check the Client ID and the Secret (as the service account's page shows them)."
# The library's 404 hint speaks of IDs in a path and links from the root: the form has neither
NOT_THERE = "Check the API root: it is the address where the API starts, such as https://host/api/service/v1.0."
# What the library's other hints call a field, and the form's label for it ("Is the base URL right…")
FORM_WORDS = {
    "the base URL": "the API root",
    "The base URL": "The API root",
    "No base URL": "No API root",
    "in the environment or a profile": "in the Client ID and Secret fields",
}


def field_for(error: ApiError) -> str | None:
    """The field a failed connection is about, if one is: a refused secret, a URL where nothing
    answers as the API does, a certificate its authority is not named for."""
    if error.oauth_error == "invalid_client":
        return "secret"  # the likelier mistake of the two (ID and secret); the client ID is just above it
    if error.kind == "tls":
        return "ca_bundle"
    elsewhere = ("connect", "dns", "timeout", "tls-certificate", "insecure", "origin", "not-json")
    if error.kind in elsewhere or error.status in (404, 406):
        return "base_url"
    return None


def form_hint(error: ApiError) -> str | None:
    """The library's hint in the form's words: a field for its setting, the API root for the base
    URL, no path's IDs (a 404: the form has one URL, the API root); `explorer get` words it with its
    own flags, the screen with its."""
    if not error.hint:
        return None
    if error.oauth_error == "invalid_client":
        return INVALID_CLIENT
    if error.status == 404:
        return NOT_THERE
    return in_form_words(error.hint_in(FORM_SETTINGS) or "")


def in_form_words(text: str) -> str:
    """`text` with the library's names for what the form has fields for put as the form's labels."""
    for library_words, label in FORM_WORDS.items():
        text = text.replace(library_words, label)
    return text
