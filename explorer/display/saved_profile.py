"""What saving a profile did, in a sentence or two for the person (the login form's notice)."""

from __future__ import annotations

from explorer.api.profiles import SavedProfile
from explorer.api.system_keyring import SERVICE


def saved_words(saved: SavedProfile) -> str:
    """Say what `save_profile` saved where: the file, the secret's place, what to set, how to choose it.

    Args:
        saved: What was saved.

    Returns:
        The sentences, ending with a full stop.
    """
    message = f"Saved profile {saved.name!r} to {saved.path}"
    if saved.default:
        message += ", as the default profile (default_profile)"
    elif not saved.chosen:
        message += f" (use it with --profile {saved.name})"
    if saved.entry:
        message += (
            f". Its secret is in the system keyring (service {SERVICE!r}, entry {saved.entry!r}), not in the file"
        )
    elif saved.secret:
        instead = (
            f"Set {saved.variable} before the next start (the profile reads it from there), or type it"
            if saved.variable
            else "Type it"
        )
        message += (
            ", without its secret: there is no system keyring here to keep it in, and it is never written in "
            f"the file. {instead} in the form again then"
        )
    if saved.forbidding:
        message += f". Read-only (writes = false), as the profile {saved.forbidding!r} says of the same origin"
    elif saved.read_only:
        message += ". Read-only (writes = false), as the credentials were"
    return f"{message}."
