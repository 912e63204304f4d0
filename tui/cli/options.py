"""The options the plain `warledger` (the TUI) takes: `--db` and `--player`, read without
Typer by tui.cli.start and with it by tui.cli.typer_app; and `--lang`, which every command takes."""

from __future__ import annotations

import sys
from typing import overload


def tui_options(args: list[str]) -> dict[str, str] | None:
    """`--db` and `--player` when they are all the arguments, else None."""
    options: dict[str, str] = {}
    rest = list(args)
    while rest:
        name, sep, value = rest.pop(0).partition("=")
        if name not in ("--db", "--player") or name in options:
            return None
        if not sep:
            if not rest:
                return None
            value = rest.pop(0)
        options[name] = value
    return options


@overload
def player_option(name: str) -> str: ...
@overload
def player_option(name: None) -> None: ...
def player_option(name: str | None) -> str | None:
    """`--player` checked like any player's name (rules.fields.player_name); a bad one ends
    the program with one line and exit status 2."""
    if name is None:
        return None
    from rules.errors import RuleError
    from rules.fields import player_name

    try:
        return player_name(name, "--player")
    except RuleError as e:
        from tui.text.literal import visible

        reason = str(e).removeprefix("--player").lstrip(" :")
        print(f"warledger: --player: {visible(reason)}", file=sys.stderr)
        raise SystemExit(2) from None


def language_option(args: list[str]) -> list[str]:
    """Set the language from `--lang ro|en` (wherever it is given; then WARLEDGER_LANG, the
    locale, English: i18n.choose_language) and give back the other arguments. A language
    with no catalog ends the program with one line and exit status 2."""
    from i18n import _, choose_language, language_of_locale, languages, set_language

    rest, flag = [], None
    words = iter(args)
    for word in words:
        name, sep, value = word.partition("=")
        if name != "--lang" or word == "--":
            rest.append(word)
            if word == "--":
                rest.extend(words)
            continue
        flag = value if sep else next(words, "")
        if language_of_locale(flag) is None:
            from tui.text.literal import visible

            set_language(choose_language())  # said in the language asked for otherwise
            # TRANSLATORS: {given} is what followed --lang, quoted ('fr'); {languages}
            # the languages there are: en, ro.
            reason = _("{given} is not one of {languages}").format(
                given=repr(visible(flag)), languages=", ".join(languages()))
            print(f"warledger: --lang: {reason}", file=sys.stderr)
            raise SystemExit(2)
    set_language(choose_language(flag))
    return rest
