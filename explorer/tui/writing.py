"""What the screen knows of writes, without Textual: what can be done here, drafts, the last undo.

The choices come from the API description where it documents writes on the path in view, else from
the conventions (POST on a list; PATCH, PUT, DELETE on an entity), marked as not documented. A draft
is kept by method and URL for the whole session: leaving the editor, or a refusal, never loses it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from explorer.api.body_check import top_schema
from explorer.api.description import Description, Operation
from explorer.api.drafts import DraftFile
from explorer.api.known_secrets import KnownSecrets
from explorer.api.resource import Resource
from explorer.api.unsafe_characters import UNSAFE
from explorer.api.writes import WITH_BODY, WriteChoice, conventional_choices, editable


def choices_for(resource: Resource, description: Description | None, is_root: bool) -> list[WriteChoice]:
    """The writes that can be made on `resource`: documented ones first-hand, else the conventions'."""
    url = resource.url.split("?", 1)[0]
    return documented_writes(url, description) or conventional_choices(url, resource.page_or_array is not None, is_root)


NOTHING_AT_ROOT = "Nothing can be written here: the root takes no writes."
UNKNOWN_MADE = (
    "The service did not say where what it made is (no Location, no self link): open it in the tree to act on it."
)


def made_choices(made: str | None, description: Description | None) -> list[WriteChoice]:
    """What can be done to what a create made (`made`: its URL, from the 201's Location or self link):
    the writes documented on its path, else the conventions' for an entity; none where the 201 did
    not say where it is. Never the list's POST again: `a` on a 201 with that POST's body made a
    second one."""
    if made is None:
        return []
    url = made.split("?", 1)[0]
    return documented_writes(url, description) or conventional_choices(url, is_list=False, is_root=False)


def documented_writes(url: str, description: Description | None) -> list[WriteChoice]:
    """The writes the API description documents on `url`'s path, each with its operation's template
    (which finds its request schema) and roles; none without a description or where it is silent."""
    path = url.split("://", 1)[-1].partition("/")[2]
    documented = description.writes("/" + path) if description is not None else []
    return [
        WriteChoice(
            op.method.upper(),
            url,
            op.summary or op.operation_id or f"{op.method.upper()} {op.template}",
            op.roles,
            template=op.template,
        )
        for op in documented
    ]


def undo_choice(undo: Undo, description: Description | None) -> WriteChoice:
    """The undo as a write: the PATCH the description documents on its URL, so its body is checked
    against the same schema as any PATCH there; where none is documented, a PATCH said to be so."""
    summary = "Undo the last PATCH or PUT"
    for choice in documented_writes(undo.url, description):
        if choice.method == "PATCH":
            return replace(choice, summary=summary)
    return WriteChoice("PATCH", undo.url, f"{summary} (no PATCH documented here: no schema to check it against)")


def operation_of(choice: WriteChoice, description: Description | None) -> Operation | None:
    """The documented operation a choice stands for, if it is documented."""
    if description is None or choice.template is None:
        return None
    return description.operations.get((choice.template, choice.method.lower()))


def prefill(choice: WriteChoice, resource: Resource, description: Description | None) -> str:
    """The body the editor starts with: for PATCH and PUT the entity's fields a write may send, for
    POST the description's example or a skeleton of its required fields, for DELETE nothing."""
    if choice.method not in WITH_BODY:
        return ""
    operation = operation_of(choice, description)
    schema = top_schema(description.request_schema(operation)) if operation and description else None
    if choice.method == "POST":
        if operation is not None and operation.example is not None:
            return pretty(operation.example)
        return pretty(skeleton(schema))
    if choice.method == "PATCH" and operation is not None and operation.example is not None and not resource.json:
        return pretty(operation.example)
    return pretty(editable(resource.json, schema))


def skeleton(schema: Any) -> Any:
    """The required fields of a schema, each an empty value of its type: {} without a schema."""
    if not isinstance(schema, dict):
        return {}
    if schema.get("type") == "array":
        return (
            [skeleton(top_schema({**schema["items"], "components": schema.get("components")}))]
            if isinstance(schema.get("items"), dict)
            else []
        )
    found = schema.get("properties")
    properties: dict[str, Any] = found if isinstance(found, dict) else {}
    listed = schema.get("required")
    required: list[Any] = listed if isinstance(listed, list) else []
    empty = {"string": "", "integer": 0, "number": 0, "boolean": False, "array": [], "object": {}}
    result: dict[str, Any] = {}
    for name in required:
        field_schema = properties.get(name) if isinstance(name, str) else None
        kind = field_schema.get("type") if isinstance(field_schema, dict) else None
        if isinstance(name, str) and not (isinstance(field_schema, dict) and field_schema.get("readOnly")):
            result[name] = empty.get(str(kind))
    return result


def pretty(document: Any) -> str:
    """A document as the editor shows it: indented, its text as it reads, except what would act on the
    terminal or turn the line around (bidi overrides, invisible marks), which stays a JSON escape
    (`\\u202e`): the same value, seen for what it is."""
    return UNSAFE.sub(escaped, json.dumps(document, indent=2, ensure_ascii=False))


def escaped(found: re.Match[str]) -> str:
    """A character `pretty` keeps as a JSON escape; the indentation's own line breaks stay as they are
    (a line break inside a string is escaped by json already)."""
    character = found.group()
    return character if character == "\n" else f"\\u{ord(character):04x}"


@dataclass
class Undo:
    """The last PATCH or PUT, kept so that `u` can put it back (undo_body makes the PATCH that does,
    with the schema of the PATCH documented there), previewed and confirmed like any write."""

    url: str
    method: str  # "PATCH" or "PUT": a PUT also removed the fields it left out
    before: dict[str, Any]  # the entity as fetched just before the write
    sent: Any  # the write's body
    schema: Mapping[str, Any] | None = None  # the write's request schema, if the description gives one
    noted: int | None = None  # the write's number in the journal, which the undo names as the one it undoes


@dataclass
class Drafts:
    """Bodies being written, by method and URL: kept whatever happens to the editor, and, with a
    `store`, from one session to the next (set aside when the editor closes, recalled when it opens)."""

    bodies: dict[tuple[str, str], str] = field(default_factory=dict)
    store: DraftFile | None = None
    known: KnownSecrets | None = None  # the session's credentials, masked in what is stored

    def get(self, choice: WriteChoice) -> str | None:
        return self.bodies.get((choice.method, choice.url))

    def keep(self, choice: WriteChoice, text: str) -> None:
        self.bodies[(choice.method, choice.url)] = text

    def forget(self, choice: WriteChoice) -> None:
        """Let go of the body in memory (an undo's, left unsent); one set aside stays in the store."""
        self.bodies.pop((choice.method, choice.url), None)

    async def recall(self, choice: WriteChoice) -> None:
        """Bring back a draft an earlier session set aside, unless this one has its own."""
        key = (choice.method, choice.url)
        if self.store is None or key in self.bodies:
            return
        with contextlib.suppress(OSError):  # no file to read: no draft, as before there were files
            kept = await asyncio.to_thread(self.store.get, *key)
            if kept is not None and key not in self.bodies:
                self.bodies[key] = kept

    async def set_aside(self, choice: WriteChoice) -> str | None:
        """Store the draft for the sessions to come; why it could not be, or None."""
        key = (choice.method, choice.url)
        body = self.bodies.get(key)
        if self.store is None or body is None:
            return None
        try:
            await asyncio.to_thread(self.store.put, *key, body, time.time(), self.known)
        except OSError as error:
            return f"The draft is kept until the explorer quits, not after: {error}"
        return None

    async def sent(self, choice: WriteChoice) -> None:
        """The write went and was accepted: its draft is done, here and in the store."""
        key = (choice.method, choice.url)
        self.bodies.pop(key, None)
        if self.store is not None:
            with contextlib.suppress(OSError):
                await asyncio.to_thread(self.store.drop, *key)
