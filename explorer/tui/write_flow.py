"""A write from choice to answer: choose (a), edit, preview, confirm, send once, show, undo (u).

Each step is a screen the person answers; the flow awaits them in a worker, so the main screen
stays live. Nothing is sent but from the preview's yes. A refusal, a cancelled preview or Esc in the
editor keep the draft. Back from the preview, the editor opens where it was left (cursor, selection,
scroll); a refusal reopens it with the field it names marked and the cursor on that field's line.

The flow's screens (the act list, the editor with Textual's TextArea, the preview) are imported on
the first write, not at launch: the first screen does without them.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from functools import partial
from typing import TYPE_CHECKING, Any, Protocol, cast

from textual.app import App

from explorer.api.body_check import Problem, check_body
from explorer.api.changes import Change, changes
from explorer.api.config_file import DRAFTS_FILE, state_file
from explorer.api.drafts import DraftFile
from explorer.api.errors import ApiError
from explorer.api.once import look_before, redirected
from explorer.api.resource import Resource
from explorer.api.session import Session
from explorer.api.writes import Outgoing, WriteChoice, body_bytes, delete_answers, delete_name, undo_body, write_changes
from explorer.display.shell_forms import reached_by
from explorer.tui.hint_words import screen_hint
from explorer.tui.safe_text import visible
from explorer.tui.typeahead import TypedAhead
from explorer.tui.watch_flow import made_by
from explorer.tui.writing import (
    NOTHING_AT_ROOT,
    UNKNOWN_MADE,
    Drafts,
    Undo,
    choices_for,
    made_choices,
    operation_of,
    prefill,
    pretty,
    undo_choice,
)

if TYPE_CHECKING:
    from explorer.tui.screens.editor import Place

DRAFT_KEPT = "Draft kept, in the next session too: a, then the same write, opens it again."  # on leaving the editor
SEND_AGAIN = "ctrl+s, then Enter, sends it again."  # after a write not sent again (a 3xx, a token refused)
LOG_SHOWS = "The Log pane (4) shows what went."


class Withdraws(Protocol):
    """What the flow needs of the app beyond Textual's: a notice taken down once it no longer holds."""

    def withdraw(self, message: str) -> None: ...


NOISE = (".links",)  # what a service changes on every answer, and no write is about


class WriteFlow:
    """The session's writes on the screen: its drafts and the last undo, kept between writes."""

    def __init__(
        self, app: App[Any], session: Session, ahead: TypedAhead, answered: Callable[[Resource, WriteChoice], None]
    ) -> None:
        self.app = app
        self.session = session
        self.ahead = ahead  # the app's: the keys typed after a choice or the preview's Esc wait for the editor
        self.answered = answered  # the screen shows the answer and fetches again what it changed
        self.drafts = Drafts(store=DraftFile(state_file(DRAFTS_FILE)), known=session.recent.secrets)
        self.places: dict[tuple[str, str], Place] = {}  # where each draft's editor was left with Esc, as Drafts
        self.undo: Undo | None = None
        self.sending = False  # a write is on its way to the service: no other flow may cancel this one now

    async def act(self, resource: Resource, is_root: bool) -> None:
        """`a`: list what can be done to `resource`; the chosen write goes to the editor."""
        description = await self.session.load_description()
        from explorer.tui.screens.act import ActScreen

        url, choices, nothing = resource.url, choices_for(resource, description, is_root), NOTHING_AT_ROOT
        if resource.status == 201:  # a create's answer: what it made, never the list's POST (a second one) again
            made = made_by(resource)
            url, choices, nothing = made or resource.url, made_choices(made, description), UNKNOWN_MADE
        policy = self.session.write_policy
        choice = await self.app.push_screen_wait(
            ActScreen(url, choices, policy.on, policy.because, self.ahead, nothing)
        )
        if choice is not None:
            await self.write(choice, resource)

    async def undo_last(self) -> None:
        """`u`: the PATCH that puts back what the last PATCH or PUT changed, through the editor and preview."""
        undo = self.undo
        if undo is None:
            self.app.notify("Nothing to undo: only a PATCH or PUT sent from here can be undone.")
            return
        description = await self.session.load_description()
        choice = undo_choice(undo, description)
        operation = operation_of(choice, description)
        schema = description.request_schema(operation) if description and operation else None
        putting_back = undo_body(undo.before, undo.sent, method=undo.method, written=undo.schema, undo=schema)
        caveat = putting_back.caveat()  # said on opening it, and in its preview
        if not putting_back.body:
            changed_none = f"Nothing to undo: the last {undo.method} changed no field."
            message = f"Nothing to put back: {caveat}" if caveat else changed_none
            self.app.notify(visible(message), severity="warning", markup=False)
            return
        if caveat:
            self.app.notify(visible(caveat), severity="warning", markup=False)
        self.drafts.keep(choice, pretty(putting_back.body))
        self.places.pop((choice.method, choice.url), None)  # a new body: from its start
        await self.write(choice, None, caveat, undoes=undo.noted, undo=True)

    async def write(
        self,
        choice: WriteChoice,
        resource: Resource | None,
        caveat: str | None = None,
        undoes: int | None = None,
        undo: bool = False,
    ) -> None:
        """Edit, preview and send `choice` until it is accepted or the person leaves (the draft kept);
        `caveat`: what its preview warns of besides (what an undo cannot put back); `undoes`: the
        journal's number of the write it puts back; `undo`: it is `u`'s (left unsent, no draft is kept)."""
        from explorer.tui.screens.editor import EditorScreen, Place, refusal_problem

        description = self.session.description
        operation = operation_of(choice, description)
        schema = description.request_schema(operation) if description and operation else None
        await self.drafts.recall(choice)  # one an earlier session set aside
        if self.drafts.get(choice) is None and resource is not None:
            self.drafts.keep(choice, prefill(choice, resource, description))
        opened = resource.json if resource is not None and resource.error is None else None
        about = self.about(choice)
        refusal = None
        key = (choice.method, choice.url)
        place = self.places.pop(key, Place()) if self.drafts.get(choice) is not None else Place()
        cast(Withdraws, self.app).withdraw(DRAFT_KEPT)  # the draft is open again: said, not over it
        while True:
            editor = EditorScreen(
                choice,
                self.drafts.get(choice) or "",
                schema=schema,
                keep=partial(self.drafts.keep, choice),
                prepare=partial(self.prepared, choice),
                base_url=str(self.session.base_url),
                reached_by=reached_by(self.session),
                ca_bundle=self.session.credentials.ca_bundle,
                refusal=refusal,
                about=about,
                place=place,
                ahead=self.ahead,
            )
            edited = await self.app.push_screen_wait(editor)
            if isinstance(edited, Place):
                if undo:  # an undo left unsent is no draft of a PATCH: u makes it again
                    self.drafts.forget(choice)
                    self.app.notify("The undo was not sent: u makes it again.", markup=False)
                    return
                self.places[key] = edited
                problem = await self.drafts.set_aside(choice)
                if problem is not None:
                    self.app.notify(visible(problem), severity="warning", markup=False)
                elif choice.method != "DELETE":
                    self.app.notify(DRAFT_KEPT, markup=False)
                return
            body, place = edited
            answer = await self.preview_and_send(choice, body, opened, schema, caveat, undoes)
            if answer is None:
                continue  # back to the editor, as it was: the same draft, at the same place
            if (pointed := redirected(answer)) is not None:  # not followed, nothing sent there: the draft stays
                refusal = Problem(0, f"{visible(pointed)} {SEND_AGAIN}")
                continue
            if answer.error is None:
                await self.drafts.sent(choice)
                return
            message = visible(answer.error.line())
            if answer.error.written == "no":  # refused for its token, which is renewed now: not sent again
                message = f"{message} · {visible(answer.error.hint or '')} {SEND_AGAIN}"
            refusal = refusal_problem(body, field_named(answer.error, body), message)
            if refusal.line:
                place = Place.on_line(refusal.line)  # to the field the service refused

    def about(self, choice: WriteChoice) -> str:
        policy = self.session.write_policy
        state = "writes on" if policy.on else f"read-only ({policy.because}): prepare and copy only"
        roles = f" · roles: {' or '.join(choice.roles)}" if choice.roles else ""
        return f"{visible(choice.summary)}{roles} · {state}"

    async def prepared(self, choice: WriteChoice, text: str) -> Any:
        return await self.session.prepare_write(choice.method, choice.url, body_bytes(text))

    async def preview_and_send(
        self,
        choice: WriteChoice,
        body: str,
        opened: Any,
        schema: Mapping[str, Any] | None,
        caveat: str | None = None,
        undoes: int | None = None,
    ) -> Resource | None:
        """The preview, against the entity as it is now; the answer if the person said send, else None."""
        from explorer.tui.screens.preview import PreviewScreen

        try:
            outgoing = await self.prepared(choice, body)
        except (ApiError, ValueError) as error:
            self.app.notify(visible(str(error)), severity="error", markup=False)
            return None
        sent = json.loads(body) if body.strip() else None  # the editor lets only JSON through
        differences: list[Change] | None = None
        moved: list[Change] = []
        identity = None
        accepted: set[str] = set()
        now: Any = None
        unfetched: str | None = None  # why the entity could not be fetched just now
        if choice.method in ("PATCH", "PUT", "DELETE"):
            try:
                fresh = await self.session.fetch(choice.url)
            except ApiError as error:
                fresh, unfetched = None, error.line()
            if fresh is not None and fresh.error is not None:
                unfetched = fresh.error.line()
            now = fresh.json if fresh is not None and fresh.error is None else None
            if now is not None and choice.method in ("PATCH", "PUT"):
                differences = write_changes(choice.method, now, sent, schema)
            if opened is not None and now is not None:
                moved = [change for change in changes(opened, now) if not change.path.startswith(NOISE)]
            if choice.method == "DELETE":
                entity = now if now is not None else opened
                identity = delete_name(entity, choice.url)
                accepted = delete_answers(entity, choice.url)
        policy = self.session.write_policy
        preview = PreviewScreen(
            outgoing,
            differences=differences,
            moved=moved,
            identity=identity,
            accepted=accepted,
            unfetched=unfetched,
            problems=len(check_body(body, schema)) if schema is not None else 0,
            writes_on=policy.on,
            because=policy.because,
            ahead=self.ahead,
            caveat=caveat,
        )
        if not await self.app.push_screen_wait(preview):
            return None
        self.sending = True  # until its answer, or its failure, is said and its undo made
        try:
            return await self.send(choice, outgoing, now, sent, schema, undoes)
        finally:
            self.sending = False

    async def send(
        self,
        choice: WriteChoice,
        outgoing: Outgoing,
        now: Any,
        sent: Any,
        schema: Mapping[str, Any] | None,
        undoes: int | None,
    ) -> Resource | None:
        """Send the previewed write, once: its answer shown and its undo kept; None if none came."""
        try:
            answer = await self.session.send_write(outgoing, before=now, undoes=undoes)
        except ApiError as error:
            if error.written == "maybe":  # it went, and no answer came: how to look, in the screen's words
                error.hint = f"{look_before(choice.method, f'GET {choice.url}')} {LOG_SHOWS}"
            self.app.notify(
                f"{visible(error.line())}\n{visible(screen_hint(error) or '')}", severity="error", markup=False
            )
            return None
        if (pointed := redirected(answer)) is not None:  # never `done`: said as it is, and the draft kept
            self.app.notify(visible(pointed), severity="warning", markup=False)
            return answer
        self.answered(answer, choice)
        if answer.error is None and choice.method in ("PATCH", "PUT") and isinstance(now, dict):
            noted = self.session.last_noted
            self.undo = Undo(choice.url, choice.method, now, sent, schema, noted)  # u makes its PATCH (undo_body)
        return answer


def field_named(error: ApiError, body: str) -> str | None:
    """The body's field a refusal names: in its parameters, else in its detail; None if none is."""
    try:
        sent = json.loads(body)
    except ValueError:
        return None
    entries = sent if isinstance(sent, list) else [sent]  # the access list takes an array of entries
    fields = {name for entry in entries if isinstance(entry, dict) for name in entry}
    for parameter in error.parameters:
        if isinstance(parameter, str) and parameter in fields:
            return parameter
    detail = error.detail or ""
    return next((name for name in sorted(fields, key=len, reverse=True) if name in detail), None)
