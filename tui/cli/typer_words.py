"""Words Typer itself prints (usage lines, help headings, errors), in the reader's language.

Typer asks the standard library's gettext() for some of them ("Options", "Commands", "Missing
command."): i18n.speak_for_libraries() has that answered from our catalog, and TYPER_WORDS
marks them here so the catalogs hold them. The rest are plain English in the click Typer
carries inside it (typer._click: "Usage:", "Error:", "Missing argument 'session'."): Command
and Group print those through our catalog, and WarledgerGroup.main shows errors so. In
English every line is Typer's own, to the byte. A Typer upgrade that rewords one shows it in
English until it is added here.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from typing import Any, Protocol

import typer
from typer.core import TyperCommand, TyperGroup

from i18n import N_, SOURCE, _, language

# What Typer's own code passes to gettext() (typer/core.py), exactly.
TYPER_WORDS = (
    N_("Options"), N_("Arguments"), N_("Commands"), N_("Missing command."),
    # TRANSLATORS: {name!r} is the command as typed, in quotes ('sesions'): keep the !r.
    N_("No such command {name!r}."),
    N_("Aborted!"), N_("required"), N_("(dynamic)"),
    # TRANSLATORS: in the help, after an option: "[default: 2222]".
    N_("default: {default}"), N_("env var: {var}"),
)

# Typer's English sentences (its click's) as it formats them, and the message each becomes:
# the names it quotes ('--port', --jsn) and the values kept as they are.
SENTENCES = (
    (re.compile(r"Missing argument (?P<name>.+)\."), N_("Missing argument {name}.")),
    (re.compile(r"Missing option (?P<name>.+)\."), N_("Missing option {name}.")),
    (re.compile(r"Invalid value for (?P<name>.+?): (?P<reason>.*)"),
     # TRANSLATORS: {name} is an option or argument ('--port'), {reason} why its value is wrong.
     N_("Invalid value for {name}: {reason}")),
    (re.compile(r"Invalid value: (?P<reason>.*)"), N_("Invalid value: {reason}")),
    (re.compile(r"No such option: (?P<name>\S+) \(Possible options: (?P<options>.*)\)"),
     N_("No such option: {name} (Possible options: {options})")),
    (re.compile(r"No such option: (?P<name>\S+)"), N_("No such option: {name}")),
    (re.compile(r"Option (?P<name>'.*') requires an argument\."),
     N_("Option {name} requires an argument.")),
    (re.compile(r"Option (?P<name>'.*') does not take a value\."),
     N_("Option {name} does not take a value.")),
    (re.compile(r"Got unexpected extra argument\(s\) \((?P<words>.*)\)"),
     # TRANSLATORS: {words} are the arguments too many, as typed.
     N_("Got unexpected extra argument(s) ({words})")),
    (re.compile(r"(?P<message>.+)\. Did you mean (?P<names>.+)\?"),
     # TRANSLATORS: {message} is a sentence already said ("No such command 'sesions'"),
     # {names} the commands meant, in quotes.
     N_("{message}. Did you mean {names}?")),
)
# Why a value is refused (pydantic's words, through Typer).
REASONS = (
    (re.compile(r"Input should be a valid integer, unable to parse string as an integer"),
     N_("Input should be a valid integer, unable to parse string as an integer")),
    (re.compile(r"Input should be greater than or equal to (?P<n>\S+)"),
     N_("Input should be greater than or equal to {n}")),
    (re.compile(r"Input should be less than or equal to (?P<n>\S+)"),
     N_("Input should be less than or equal to {n}")),
)


def translated(message: str, table=SENTENCES) -> str:
    """Typer's English `message` in the reader's language, when it is one of `table`'s
    sentences; else as it is (a sentence Typer had translated already, or one not known)."""
    for pattern, msgid in table:
        if (match := pattern.fullmatch(message)) is not None:
            found = match.groupdict()
            if "reason" in found:
                found["reason"] = translated(found["reason"], REASONS)
            if "message" in found:
                found["message"] = translated(found["message"])
            return _(msgid).format(**found)
    return message


def usage_prefix() -> str:
    return _("Usage:") + " "


class _Usage(Protocol):
    """What _Words needs of the command it is mixed into."""

    def collect_usage_pieces(self, ctx: Any) -> list[str]: ...


class _Words:
    """A command whose usage line and help option speak the reader's language."""

    def format_usage(self: _Usage, ctx, formatter) -> None:
        formatter.write_usage(ctx.command_path, " ".join(self.collect_usage_pieces(ctx)),
                              prefix=usage_prefix())

    def get_help_option(self, ctx):
        option = super().get_help_option(ctx)
        if option is not None:
            option.help = _("Show this message and exit.")
        return option


class Command(_Words, TyperCommand):
    """A command (`warledger sessions`) whose usage line and help option speak the
    reader's language."""


class Group(_Words, TyperGroup):
    """A group of commands (`warledger serve`), as Command."""


class WarledgerGroup(Group):
    """The `warledger` command: Typer's errors shown in the reader's language (Typer's own
    output in English), with Typer's exit statuses (2 for a usage error)."""

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True,
             windows_expand_args: bool = True, **extra: Any) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, windows_expand_args,
                                **extra)
        try:
            done = super().main(args, prog_name, complete_var, False, windows_expand_args,
                                **extra)
        except typer.Abort:
            typer.echo(_("Aborted!"), err=True)
            sys.exit(1)
        except typer.TyperException as e:
            show = getattr(e, "show", None)
            if language() == SOURCE and show is not None:
                show()
            else:
                show_error(e)
            sys.exit(e.exit_code)
        # What Typer would have exited with: an Exit's status (--help: 0), else 0.
        sys.exit(done if isinstance(done, int) and not isinstance(done, bool) else 0)


def show_error(e: typer.TyperException) -> None:
    """Typer's lines for an error (its usage line and a hint when it knows the command,
    then "Error: ..."), in the reader's language."""
    if type(e).__name__ == "NoArgsIsHelpError":  # the help itself, already ours
        e.show()  # type: ignore[attr-defined]
        return
    ctx = getattr(e, "ctx", None)
    if ctx is not None:
        hint = ""
        if ctx.command.get_help_option(ctx) is not None:
            # TRANSLATORS: {command} is the command typed (warledger export), {option} --help.
            hint = _("Try '{command} {option}' for help.").format(
                command=ctx.command_path, option=ctx.help_option_names[0]) + "\n"
        typer.echo(f"{ctx.get_usage()}\n{hint}", err=True, color=ctx.color)
    typer.echo(_("Error: {message}").format(message=translated(e.format_message())),
               err=True, color=getattr(ctx, "color", None))
