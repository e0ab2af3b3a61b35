"""Writes made safe: off until asked for, said exactly before they go, and undoable.

Operators point the explorer at production, so a session reads only, unless its profile says
`writes = true`, or the caller asks for writes (the explorer's command line has a flag and a
variable for it, and says which in `asked`). A profile that says `writes = false` is a production
profile: then not even asking turns them on.

    policy = write_policy(credentials.writes, asked="the caller")
    session = Session(credentials, writes=policy)
    outgoing = await session.prepare_write("PATCH", "/groups/1", body)   # what would go, exactly
    resource = await session.send_write(outgoing)                   # only after the person said yes

A write is sent once: never retried, never held for a retry (a 429 or 503 is shown, with its
Retry-After, and the person decides). What the screen and the commands show before sending is an
`Outgoing`: the method, URL, every header (credentials as ***) and the body, as they will go.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from explorer.api.body_check import top_schema
from explorer.api.changes import Change, changes, key_path, patch_changes
from explorer.api.config_file import config_path
from explorer.api.errors import ConfigError

WRITE_METHODS = ("POST", "PUT", "PATCH", "DELETE")
READ_METHODS = ("GET", "HEAD", "OPTIONS")  # safe (RFC 9110 9.2.1): every other method is treated as a write


def is_write_method(method: str) -> bool:
    """Whether a method may change what it is sent to: any but GET, HEAD and OPTIONS, in any case (PURGE too)."""
    return method.upper() not in READ_METHODS


WITH_BODY = ("POST", "PUT", "PATCH")
IDENTIFYING = ("name", "username", "groupName", "clusterName", "ipAddress", "cidrBlock", "roleName", "id")
NOT_EDITABLE = {"links", "id", "_id", "created", "createdDate", "updated", "lastUpdated"}


class WritesRefused(ConfigError):
    """Writes asked for where a profile says writes = false: the run stops, said."""


@dataclass(frozen=True)
class WritePolicy:
    """Whether a session may write, and what said so (shown in the status bar and in refusals)."""

    on: bool
    because: str  # "the profile prod says writes = false", how writes were asked for, "the default"
    profile_forbids: bool = False


def write_policy(
    profile_writes: bool | None,
    *,
    asked: str | None = None,
    profile: str | None = None,
    origin: str | None = None,
    path: Path | None = None,
) -> WritePolicy:
    """Return the session's policy: the caller asks; the profile allows, forbids, or leaves it to the caller.

    A profile's `writes = false` refuses the ask with a ConfigError naming the profile.

    Args:
        profile_writes: The profile's `writes`: True, False, or None (unset, or no profile).
        asked: How writes were asked for, in the caller's words (the explorer's flag, or its variable): said
            as what turned them on, and in a refusal; None when they were not.
        profile: The profile that `profile_writes` comes from.
        origin: The session's origin, when `profile` is not the session's own but one that names that origin
            with `writes = false` (the origin is read-only whatever the credentials): the messages say so.
        path: The config file that holds the profile, named in the refusal; None for the user's config.toml.

    Returns:
        Whether the session may write, and what said so.

    Raises:
        WritesRefused: When writes are asked for and the profile says false.
    """
    if profile_writes is False:
        where = path or config_path()
        if asked and origin:
            raise WritesRefused(
                f"Writes are off for {origin}: the profile {profile!r} names it with writes = false, so {asked} is "
                "refused",
                f"{origin} is read-only on purpose. To write there, use a profile for it that says writes = true, "
                f"or change writes = false in {where}.",
            )
        if asked:
            raise WritesRefused(
                f"Writes are off for the profile {profile!r} (writes = false): {asked} is refused",
                f"The profile {profile!r} is read-only on purpose. To write, use another profile, or change "
                f"writes = false in {where}.",
            )
        reason = f"the profile {profile!r} says writes = false" + (f" for {origin}" if origin else "")
        return WritePolicy(False, reason, profile_forbids=True)
    if asked:
        return WritePolicy(True, asked)
    if profile_writes:
        return WritePolicy(True, f"the profile {profile!r} says writes = true")
    return WritePolicy(False, "the default")


@dataclass(frozen=True)
class Outgoing:
    """A request exactly as it will be sent: what the preview shows and `Session.send_write` sends.

    `headers` are every header in the order they go, credentials shown as `***` (the real ones are
    added by the auth flow as it sends). `body` is the bytes sent, empty for none.
    """

    method: str
    url: str
    headers: tuple[tuple[str, str], ...]
    body: bytes = b""

    @property
    def body_text(self) -> str:
        """The body as text for a preview (the body is JSON the person typed: UTF-8)."""
        return self.body.decode("utf-8", "replace")

    def header(self, name: str) -> str | None:
        """A header's value as it goes (credentials as ***), or None."""
        wanted = name.lower()
        return next((value for key, value in self.headers if key.lower() == wanted), None)


def body_bytes(text: str) -> bytes:
    """A body typed as JSON, as it is sent: the text itself, so what was previewed is what goes.

    Raises ValueError (with json's position) when the text is not JSON: nothing that is not is sent."""
    if not text.strip():
        return b""
    json.loads(text)
    return text.encode("utf-8")


def identity_of(document: Any) -> str | None:
    """What names an entity for a typed confirmation: its name, or id, or address; None if it has none."""
    if isinstance(document, dict):
        for key in IDENTIFYING:
            value = document.get(key)
            if isinstance(value, str | int) and not isinstance(value, bool) and str(value).strip():
                return str(value)
    return None


def delete_name(entity: Any, url: str) -> str:
    """What a DELETE asks to have typed: the entity's name (or id, or address), else its path's last
    segment as a person reads it (percent-decoded)."""
    return identity_of(entity) or unquote(urlsplit(url).path.rstrip("/").rpartition("/")[2])


def delete_answers(entity: Any, url: str) -> set[str]:
    """What a DELETE's confirmation takes: the name it asks for (delete_name), the entity's id, and
    its path's last segment; so typing the id the URL shows is as good as typing the name."""
    last = unquote(urlsplit(url).path.rstrip("/").rpartition("/")[2])
    ids = [str(entity["id"])] if isinstance(entity, dict) and isinstance(entity.get("id"), str | int) else []
    return {delete_name(entity, url), last, *ids} - {""}


def write_changes(method: str, entity: Any, sent: Any, schema: Mapping[str, Any] | None = None) -> list[Change]:
    """What a PATCH or PUT of `sent` changes in `entity` as it is now, for a preview; `schema` is the
    write's request schema whole (its $refs are followed here).

    A PATCH changes only the fields it names. A PUT replaces what a write may send (`editable`), so
    the fields it leaves out of those are removed; links, ids and read-only fields are not its to remove.
    """
    if method == "PATCH":
        return patch_changes(entity, sent)
    if isinstance(entity, dict) and isinstance(sent, dict):
        editable_fields = editable(entity, top_schema(schema))
        entity = {name: value for name, value in entity.items() if name in sent or name in editable_fields}
    return changes(entity, sent)


def read_only_fields(schema: Mapping[str, Any] | None) -> set[str]:
    """The top-level fields a (resolved) request schema marks readOnly."""
    properties = schema.get("properties") if isinstance(schema, Mapping) else None
    if not isinstance(properties, Mapping):
        return set()
    return {name for name, field in properties.items() if isinstance(field, Mapping) and field.get("readOnly") is True}


def editable(entity: Any, schema: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """An entity's fields a PATCH may send: not links or ids, not what the schema marks readOnly,
    and, where the schema lists its properties, only those it lists."""
    if not isinstance(entity, dict):
        return {}
    skipped = NOT_EDITABLE | read_only_fields(schema)
    properties = schema.get("properties") if isinstance(schema, Mapping) else None
    known = set(properties) if isinstance(properties, Mapping) and properties else None
    return {
        name: value
        for name, value in entity.items()
        if name not in skipped and not name.endswith("Id") and (known is None or name in known)
    }


@dataclass(frozen=True)
class UndoBody:
    """The PATCH that puts back what a PATCH or PUT changed, and what it cannot put back.

    `added`: fields the write added (a PATCH only sets fields: it cannot remove them). `unrestorable`:
    fields a PUT removed that the undo's PATCH may not write (its schema marks them readOnly or does
    not list them), so they stay removed.
    """

    body: dict[str, Any]
    added: list[str] = field(default_factory=list)
    unrestorable: list[str] = field(default_factory=list)

    def caveat(self) -> str | None:
        """What the undo cannot put back, in a sentence for its preview; None when it puts back all."""
        losses = []
        if self.unrestorable:
            names = ", ".join(key_path("", name) for name in self.unrestorable)
            losses.append(f"the PUT removed {names}, which a PATCH here may not write (read-only or not in its schema)")
        if self.added:
            names = ", ".join(key_path("", name) for name in self.added)
            losses.append(f"the write added {names}, which a PATCH cannot remove (it only sets fields)")
        return f"This undo cannot put everything back: {'; '.join(losses)}." if losses else None


def undo_body(
    before: Any,
    sent: Any,
    *,
    method: str = "PATCH",
    written: Mapping[str, Any] | None = None,
    undo: Mapping[str, Any] | None = None,
) -> UndoBody:
    """The PATCH that puts back what a PATCH or PUT of `sent` changed in `before` (the entity as it
    was fetched just before the write).

    Args:
        before: The entity before the write.
        sent: The write's body.
        method: "PATCH" or "PUT": a PUT also removed the fields a write may send that it left out
            (as its preview said), and the undo sets those back too, where its PATCH may write them.
        written: The write's request schema whole (its $refs followed here), if the description gives one.
        undo: The undo's PATCH request schema whole, if the description gives one.

    Returns:
        The undo's body (each changed field's value before), the fields it cannot remove (the write
        added them) and those it cannot restore (a PUT removed them; the undo's PATCH may not write them).
    """
    if not isinstance(before, dict) or not isinstance(sent, dict):
        return UndoBody({})
    body = {name: before[name] for name in sent if name in before and before[name] != sent[name]}
    added = [name for name in sent if name not in before]
    unrestorable = []
    if method == "PUT":
        writable = editable(before, top_schema(undo))
        for name in editable(before, top_schema(written)):
            if name in sent:
                continue
            if name in writable:
                body[name] = before[name]
            else:
                unrestorable.append(name)
    return UndoBody(body, added, unrestorable)


@dataclass(frozen=True)
class WriteChoice:
    """One write that can be made on a resource: documented by the API description or by convention."""

    method: str
    url: str  # where it goes (the resource's own URL)
    summary: str
    roles: tuple[str, ...] = ()
    documented: bool = True
    template: str | None = None

    @property
    def label(self) -> str:
        """`PATCH  Update one project` for a list of choices."""
        return f"{self.method:<6} {self.summary}"


def conventional_choices(url: str, is_list: bool, is_root: bool) -> list[WriteChoice]:
    """What the conventions allow without a description (spec 4.5): POST on a list; PATCH, PUT and
    DELETE on an entity; nothing on the root. Marked as not documented."""
    if is_root:
        return []
    undocumented = "not documented: the convention for a"
    if is_list:
        return [WriteChoice("POST", url, f"Create an item ({undocumented} list)", documented=False)]
    return [
        WriteChoice("PATCH", url, f"Update named fields ({undocumented}n entity)", documented=False),
        WriteChoice("PUT", url, f"Replace it ({undocumented}n entity)", documented=False),
        WriteChoice("DELETE", url, f"Remove it ({undocumented}n entity)", documented=False),
    ]
