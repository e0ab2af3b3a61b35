"""The keys of the explorer: their ids, and the user's remapping from the config file.

Above the screen and the widgets: it reads their bindings (binding_groups). Nothing below imports it.

[keys]
"explorer.back" = "backspace,alt+left,h"
"explorer.quit" = "ctrl+q"
"""

from __future__ import annotations

import difflib
import unicodedata
from typing import Any

from textual.binding import Binding
from textual.keys import Keys

from explorer.api.errors import ConfigError
from explorer.tui.screens.main import MainScreen
from explorer.tui.widgets.items_table import ItemsTable
from explorer.tui.widgets.json_view import JsonView


def binding_groups() -> list[list[Binding]]:
    """The bindings of the screen, of each widget with keys of its own, of the compare dialog (its `n`),
    of the request editor (its ctrl+s) and of the history's two dialogs: each in the docs' table
    (docs/screen.md), and remappable: one key, one binding in each. The editor (Textual's TextArea) and
    the history are imported here, on first need, not at launch."""
    from explorer.tui.screens.compare import CompareScreen
    from explorer.tui.screens.editor import EditorScreen
    from explorer.tui.screens.history import HistoryEntryScreen, HistoryScreen

    owners = (MainScreen, ItemsTable, JsonView, CompareScreen, EditorScreen, HistoryScreen, HistoryEntryScreen)
    return [[b for b in owner.BINDINGS if isinstance(b, Binding)] for owner in owners]


def all_bindings() -> list[Binding]:
    return [binding for group in binding_groups() for binding in group]


MODIFIERS = {"ctrl", "alt", "shift", "super", "meta", "hyper"}


def is_key(name: str) -> bool:
    """Whether Textual knows a key by this name: `q`, `f5`, `ctrl+q`, `question_mark`, `alt+left`."""
    *modifiers, base = name.split("+")
    if not base or any(modifier not in MODIFIERS for modifier in modifiers):
        return False
    if len(base) == 1:
        return base.isprintable() and not base.isspace()
    if base in {key.value for key in Keys}:
        return True
    try:
        unicodedata.lookup(base.upper().replace("_", " "))
    except KeyError:
        return False
    return True


def check_keys(table: dict[str, str], where: str) -> None:
    """Every key a name Textual knows, and none given to two bindings that are active together."""
    for binding_id, keys in table.items():
        for key in keys.split(","):
            if not is_key(key.strip()):
                raise ConfigError(
                    f"In {where}, [keys] {binding_id!r} names {key.strip()!r}, which is not a key",
                    'Keys are named as Textual names them: "q", "f5", "ctrl+q", "alt+left", "question_mark".',
                )
    for group in binding_groups():
        holder: dict[str, str] = {}
        for binding in group:
            binding_id = binding.id or ""
            for key in table.get(binding_id, binding.key).split(","):
                other = holder.setdefault(key.strip(), binding_id)
                if other != binding_id:
                    raise ConfigError(
                        f"In {where}, [keys] gives {key.strip()!r} to both {other!r} and {binding_id!r}",
                        "Give one of them another key (a key can do one thing where both are active).",
                    )


def near_miss(binding_id: str, known: list[str]) -> str | None:
    """The known id `binding_id` was likely meant to be: within its namespace (`explorer.`), by the
    name after it, since the namespace alone makes `explorer.bogus` look like `explorer.tab_log`."""
    space, _, name = binding_id.rpartition(".")
    names = {one.rpartition(".")[2]: one for one in known if one.rpartition(".")[0] == space}
    if names:
        close = difflib.get_close_matches(name, list(names), n=1)
        return names[close[0]] if close else None
    close = difflib.get_close_matches(binding_id, known, n=1)
    return close[0] if close else None


def keymap_from(config: dict[str, Any], where: str) -> dict[str, str]:
    """The [keys] table, checked: only known ids (a near miss is named), each given a string of keys."""
    table = config.get("keys", {})
    if not isinstance(table, dict):
        raise ConfigError(
            f"In {where}, [keys] must be a table of binding ids and keys",
            'Write them under a [keys] table, a line each: "explorer.reload" = "f5".',
        )
    if not table:
        return {}  # the bindings are not gathered (their screens not imported) at launch for nothing
    known = sorted(b.id for b in all_bindings() if b.id)
    for binding_id, keys in table.items():
        if binding_id not in known:
            close = near_miss(binding_id, known)
            raise ConfigError(
                f"In {where}, [keys] names {binding_id!r}, which is not a key of the explorer",
                (f"Did you mean {close!r}? " if close else "")
                + "The ids are listed by ? in the explorer, and in docs/screen.md.",
            )
        if not isinstance(keys, str) or not keys.strip():
            raise ConfigError(
                f'In {where}, [keys] {binding_id!r} must be keys such as "ctrl+q"',
                'Give its keys as a string, several separated by commas: "f5,ctrl+r".',
            )
    keymap = {str(k): str(v) for k, v in table.items()}
    check_keys(keymap, where)
    return keymap


TREE = ("enter, space", "open a node; fold or unfold it", "(fixed)")  # Textual's: no id


def key_table(keymap: dict[str, str]) -> list[tuple[str, str, str]]:
    """(keys, what they do, id) for every binding, as remapped; first the tree's own, which are
    Textual's and have no id."""
    rows = [TREE]
    for binding in all_bindings():
        keys = keymap.get(binding.id or "", binding.key)
        shown = ", ".join(display(key) for key in keys.split(","))
        rows.append((shown, binding.description, binding.id or ""))
    return rows


def display(key: str) -> str:
    names = {"right_square_bracket": "]", "left_square_bracket": "[", "question_mark": "?", "slash": "/",
             "plus": "+", "minus": "-", "less_than_sign": "<", "greater_than_sign": ">",
             "equals_sign": "=", "vertical_line": "|", "escape": "esc"}  # fmt: skip
    return names.get(key.strip(), key.strip())
