"""The `explorer` command line: one parser, and each command's own module does the work."""

from __future__ import annotations

import argparse
import importlib
import os
import re
import sys
from collections.abc import Sequence
from typing import Any, NoReturn, Protocol

from explorer import __version__
from explorer.startup_terminal import keys_kept_as_typed

# httpx imports its own command line (click, pygments, rich's progress bars) when click is
# installed, and uvicorn installs it: 20 ms of every start for a program we never run.
sys.modules.setdefault("httpx._main", None)  # type: ignore[arg-type]


class Parser(argparse.ArgumentParser):
    """argparse, but its errors never repeat what may be a secret given to a flag it does not know
    (`--secret=VALUE`, `--secret VALUE`): only the flag is named. Its commands' parsers are Parsers too."""

    words: list[str] | None = None
    # A command whose positionals may come before, between or after its flags (a write's ITEMs:
    # `explorer patch URL --writes name=x`), as HTTPie takes them: argparse's intermixed parsing.
    intermixed = False
    mixing = False  # within the intermixed parse, which parses twice through parse_known_args

    # typeshed's overloads (a namespace type per call) are more than a Parser needs: one signature here.
    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: Any = None
    ) -> tuple[Any, list[str]]:
        if self.mixing:
            return super().parse_known_args(args, namespace)
        self.words = list(sys.argv[1:] if args is None else args)
        if not self.intermixed:
            return super().parse_known_args(args, namespace)
        self.mixing = True
        try:
            return super().parse_known_intermixed_args(args, namespace)
        finally:
            self.mixing = False

    def parse_args(self, args: Sequence[str] | None = None, namespace: Any = None) -> Any:  # type: ignore[override]
        parsed, unknown = self.parse_known_args(args, namespace)
        if unknown:
            # a command's usage errors show its own usage
            getattr(parsed, "parser", self).error(f"unrecognized arguments: {' '.join(values_hidden(unknown))}")
        return parsed

    def error(self, message: str) -> NoReturn:
        words = self.words if self.words is not None else sys.argv[1:]
        for at, word in enumerate(words):
            after = words[at + 1] if at + 1 < len(words) else None
            name, equals, _ = word.partition("=")
            if word.startswith("-") and equals:
                message = message.replace(word, f"{name}=…")  # an unknown or ambiguous flag, repeated whole
            elif (
                self.unknown(word)
                and after
                and not after.startswith("-")
                and "invalid choice:" in message
                and after in message
            ):
                # the value of a flag it does not know, taken for the COMMAND
                message = f"unrecognized arguments: {word} …"
        super().error(message)

    def unknown(self, word: str) -> bool:
        """A flag this parser does not know (abbreviations of the ones it knows are known)."""
        if not word.startswith("-") or word == "-":
            return False
        flags = self.flags()
        return word not in flags and not (
            self.allow_abbrev and word.startswith("--") and any(known.startswith(word) for known in flags)
        )

    def flags(self) -> set[str]:
        """The flags this parser knows, read off its own help: argparse keeps its table private."""
        return set(re.findall(r"(?<![\w-])--?[A-Za-z0-9][\w-]*", self.format_help()))


def values_hidden(unknown: list[str]) -> list[str]:
    """Unrecognized arguments as an error names them: a value after a flag, or in `--flag=value`, as …"""
    shown = []
    for at, word in enumerate(unknown):
        before = unknown[at - 1] if at else None
        name, equals, _ = word.partition("=")
        if word.startswith("-") and equals:
            shown.append(f"{name}=…")
        elif before and before.startswith("-") and "=" not in before and not word.startswith("-"):
            shown.append("…")
        else:
            shown.append(word)
    return shown


class Command(Protocol):
    """A command: a module (get, logout) or an object (the writes) with these two; one whose
    positionals may come anywhere among its flags (a write's ITEMs) says `items_anywhere = True`."""

    def add_arguments(self, parser: argparse.ArgumentParser) -> None: ...

    def run(self, args: argparse.Namespace) -> int: ...


WRITE_EXIT_CODES = (
    "Exit codes: 0 for 2xx, 3 for 3xx, 4 for 4xx, 5 for 5xx, 1 when no answer was had (connection, TLS, "
    "configuration) or the write was not confirmed, 2 for usage (writes off, a body that is not JSON, no terminal "
    "to ask on without --yes)."
)
WRITE_HELP = (
    "Writes are off until --writes, EXPLORER_WRITES=1 or the profile's writes = true turns them on (a profile's "
    "writes = false refuses even --writes). At a terminal the request is shown as it will go and asked for first; "
    "from a script, --yes sends it (at a terminal, --yes answers Send? [y/N], but a DELETE's name is still typed). "
    "--dry-run prints it and its curl, and sends nothing. It is sent once, never "
    "retried. The answer's body goes to stdout as received."
)


def parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The `explorer` parser, its commands' flags and all.

    Args:
        argv: The words it is for, when known: only a command named among them is given its flags
            (its module imported), so that `explorer --demo` imports no command's module at launch
            and `explorer get` none but get's. None: every command's, for anything that reads the
            parser whole.

    Returns:
        The parser; `parse_args` sets `run`, the function to call with the parsed arguments.
    """
    from explorer import launch
    from explorer.connection import add_connection_arguments

    root = Parser(
        prog="explorer",
        description="Explore and debug a browsable REST administration API. "
        "Without a command: the explorer screen, on the configured service (or --demo).",
    )
    root.add_argument("--version", action="version", version=f"explorer {__version__}")
    root.add_argument("--demo", action="store_true", help="use the sandbox in process: no network, no setup")
    add_connection_arguments(root, root=True)
    screen = root.add_argument_group("the screen")
    screen.add_argument("--theme", metavar="NAME", help="a theme for this run (the palette's choice is kept)")
    screen.add_argument(
        "--presenter",
        action="store_true",
        help="for an audience: show each key and the requests it sent, in the projector theme unless --theme",
    )
    root.set_defaults(run=launch.run, parser=root)
    commands = root.add_subparsers(dest="command", metavar="COMMAND")
    registered: tuple[tuple[str, str, str, str], ...] = (  # name, where its Command is, summary, description
        (
            "get",
            "explorer.commands.get",
            "print one resource's body, as received",
            "Print a resource's body to stdout as the service sent it. Exit codes: 0 for 2xx, 3 for 3xx, "
            "4 for 4xx, 5 for 5xx, 1 when no answer was had (connection, TLS, configuration), 2 for usage. "
            "With --watch: the document, then each change as it is seen; 0 when --until holds (or, without it, "
            "when the resource is deleted), 1 when --for runs out, 4 on an error.",
        ),
        (
            "diff",
            "explorer.commands.diff",
            "compare two documents field by field (API paths, files, stdin)",
            "Compare two documents, each an API path or URL, a JSON file (@FILE, or a file that exists), a baseline "
            "(@NAME, @PROFILE:NAME: explorer baseline) or - for stdin, field by field: lists of entities matched "
            "by id or name, not by position. Exit codes, as "
            "diff's: 0 when the same, 1 when they differ, 2 for trouble (usage, a file that is not JSON, a fetch "
            "that failed).",
        ),
        (
            "baseline",
            "explorer.commands.baseline",
            "save a resource as it is now under a name, to compare with later (explorer diff @NAME PATH)",
            "Save a resource as it is now under a name (save NAME PATH), per profile, its secrets taken out; list "
            "them, show one as JSON, delete one. explorer diff @NAME PATH compares a resource with a baseline, "
            "and @PROFILE:NAME with another profile's: what differs between staging and production. Exit codes: "
            "0; 1 when the fetch failed, the baseline is not there, or the file cannot be used; 2 for usage.",
        ),
        (
            "post",
            "explorer.commands.write:post",
            "create: send a POST with a JSON body (writes on only when asked)",
            "Send a POST to TARGET with a JSON body: --data JSON (or @FILE, @- for stdin), or items after TARGET "
            f"(name=value, a string; name:=JSON, any JSON value). {WRITE_HELP} {WRITE_EXIT_CODES}",
        ),
        (
            "put",
            "explorer.commands.write:put",
            "replace: send a PUT with a JSON body (writes on only when asked)",
            "Send a PUT to TARGET with a JSON body, as post takes one. At a terminal the preview shows, field by "
            f"field, what it changes in the resource fetched again just now. {WRITE_HELP} {WRITE_EXIT_CODES}",
        ),
        (
            "patch",
            "explorer.commands.write:patch",
            "change named fields: send a PATCH with a JSON body (writes on only when asked)",
            "Send a PATCH to TARGET with a JSON body, as post takes one. At a terminal the preview shows, field by "
            f"field, what it changes in the resource fetched again just now. {WRITE_HELP} {WRITE_EXIT_CODES}",
        ),
        (
            "delete",
            "explorer.commands.write:delete",
            "delete: send a DELETE (writes on only when asked)",
            "Send a DELETE to TARGET. At a terminal it asks for the resource's name (or id) to be typed. "
            f"{WRITE_HELP} {WRITE_EXIT_CODES}",
        ),
        (
            "history",
            "explorer.commands.history",
            "list the exchanges kept across sessions, search them, show one",
            "List the exchanges kept across sessions (GETs and writes, the screen's and the commands'), newest "
            "first, with their secrets taken out; search them with --grep, show one whole with N. The history is "
            "history.sqlite3 in the user's state folder; --no-history (or [history] keep = false in the config "
            "file) keeps none. Exit codes: 0; 1 when the history cannot be read or N is not kept; 2 for usage.",
        ),
        (
            "journal",
            "explorer.commands.journal",
            "list every write attempted from here and what became of it; undo a PATCH or PUT later",
            "List every write attempted (sent, failed, refused, may have reached), newest first: a journal that is "
            "never rewritten, in the user's state folder. N shows one whole (the body sent, the entity before, the "
            "answer); undo N puts back what a PATCH or PUT changed, from any session: the entity is fetched again, "
            "a field the write set that has changed since refuses it (unless --force), and the undo goes through "
            "the same preview and question as explorer patch (writes on). Exit codes: 0; 1 when the journal cannot "
            "be read, N is not noted, or an undo was declined or refused as changed since; 2 for usage or an undo "
            "that cannot be; 3, 4, 5 as a write's.",
        ),
        (
            "token",
            "explorer.commands.token",
            "print an access token for curl's $TOKEN, to stdout only",
            "Print an access token for these credentials to stdout, and nowhere else, for the $TOKEN of a request "
            "copied as curl: TOKEN=$(explorer token), with --profile NAME or the other connection flags the copy "
            "names. It is the token explorer get keeps between runs, got again when it has less than five minutes "
            "left; explorer logout revokes it. At a terminal it is printed only with --show. API keys have none: "
            "curl sends them with --digest. Exit codes: 0 printed; 1 when none was had (connection, TLS, "
            "configuration, API keys, the demo or a replay); 2 for usage (a terminal without --show); 4 or 5 when "
            "the token endpoint refused.",
        ),
        (
            "logout",
            "explorer.commands.logout",
            "revoke the cached token of the one-shot commands",
            "Revoke the token that explorer get keeps between runs for these credentials, and delete its file.",
        ),
        (
            "sandbox",
            "explorer.sandbox.command",
            "serve the local sandbox API on the network",
            "Serve the sandbox: a faithful local implementation of the administration API, with generated data, "
            "for demos, tests and classes.",
        ),
        (
            "serve",
            "explorer.classroom.command",
            "a class in the browser: the explorer for every student, on one sandbox",
            "Serve the explorer to browsers on the network, each tab its own explorer on one classroom sandbox "
            "started here. The address to give students (with its class key) is printed, with a QR code of it. "
            "Nothing is fetched from the internet.",
        ),
    )
    named = None if argv is None else set(argv)
    for name, where, summary, description in registered:
        sub = commands.add_parser(name, help=summary, description=description)
        if named is not None and name not in named:
            continue  # not this run's command: `explorer --help` needs only its summary
        command = command_at(where)
        command.add_arguments(sub)
        if isinstance(sub, Parser):
            sub.intermixed = getattr(command, "items_anywhere", False)
        sub.set_defaults(run=command.run, parser=sub)  # a command's usage errors show its own usage
    return root


def command_at(where: str) -> Command:
    """Import a command: `package.module` (the module is the command) or `package.module:name`."""
    module_name, _, name = where.partition(":")
    module = importlib.import_module(module_name)
    command: Command = getattr(module, name) if name else module
    return command


def main(argv: list[str] | None = None) -> int:
    try:
        with keys_kept_as_typed() as terminal:  # from the first line: keys typed while the screen starts
            words = sys.argv[1:] if argv is None else argv
            args = parser(words).parse_args(words)  # most of the start's imports: ctrl+c may come here too
            if args.command is not None:
                terminal.restore()  # a command reads its terminal in line mode (a question, a secret)
            return run(args)
    except KeyboardInterrupt:
        return 130


def run(args: argparse.Namespace) -> int:
    try:
        code: int = args.run(args)
        return code
    except BrokenPipeError:
        # The reader went away (`explorer get … | head`): that is how pipes end, not an error.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except Exception as error:
        from explorer.crash import report_crash

        report_crash("explorer: unexpected", error, f"explorer {getattr(args, 'command', None) or ''}".strip())
        return 1
