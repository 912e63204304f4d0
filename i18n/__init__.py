"""Every string warledger shows, in its reader's language.

The catalogs are gettext's: `i18n/locale/<language>/LC_MESSAGES/warledger.po`, compiled to
`.mo` beside it, managed with Babel (`README.md`, "Adding a language"). English is the
source language and needs no catalog.

One language per process is enough: each SSH player and each web tab is a process of its
own. Strings are translated when they are shown: a module-level constant holds a message
id (`N_("Upkeep")`) and `_()` runs at display time, so switching the language from the
palette redraws in the new one.

This package is the lowest layer: `rules`, `storage` and `tui` may import it, and it imports
none of them.
"""

from __future__ import annotations

import gettext
import os
import re
from collections.abc import Mapping
from datetime import datetime
from functools import cache
from pathlib import Path

DOMAIN = "warledger"
LOCALE_DIR = Path(__file__).parent / "locale"
SOURCE = "en"  # the language the messages are written in

# A locale name as a client may send it (LANG=ro_RO.UTF-8): letters, one region, one
# encoding, one modifier; anything else is ignored rather than looked up.
LOCALE_NAME = re.compile(r"[A-Za-z]{2,3}(?:[_-][A-Za-z0-9]{2,4})?(?:\.[A-Za-z0-9-]{1,20})?"
                         r"(?:@[A-Za-z0-9]{1,20})?")

_translation: gettext.NullTranslations = gettext.NullTranslations()
_language = SOURCE


@cache
def languages() -> tuple[str, ...]:
    """The languages there is a catalog for, the source language first."""
    found = sorted(p.parent.parent.name for p in LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.mo"))
    return (SOURCE, *found)


def language() -> str:
    """The language this process shows ('en', 'ro')."""
    return _language


def set_language(code: str | None) -> str:
    """Show `code` from now on (a language with no catalog shows the source language);
    the language now shown."""
    global _translation, _language
    code = code if code in languages() else SOURCE
    _translation = _catalog(code)
    _language = code
    return code


@cache
def _catalog(code: str) -> gettext.NullTranslations:
    if code == SOURCE:
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, LOCALE_DIR, languages=[code])


def _(message: str) -> str:
    """`message` in this process's language."""
    return _translation.gettext(message)


def N_(message: str) -> str:  # noqa: N802 - gettext's own name for a marker
    """A message id, translated later by `_()` where it is shown."""
    return message


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form for `n` (Romanian has three: 1, 0 and 2-19, 20 and more)."""
    return _translation.ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """`message` as meant in `context`, where one English word has two translations."""
    return _translation.pgettext(context, message)


def translation_of(code: str | None) -> gettext.NullTranslations:
    """The catalog of `code` (the source language's when it has none), for a line to one
    reader whose language is not this process's: a host's refusal to an SSH player."""
    return _catalog(code if code in languages() else SOURCE)


_STDLIB = (gettext.dgettext, gettext.dngettext, gettext.dpgettext, gettext.dnpgettext)


def speak_for_libraries() -> None:
    """Libraries that call the standard library's gettext() in its default domain (Typer's
    "Options", "Commands", "Aborted!") speak this process's language from now on: the
    default domain becomes warledger's, answered from the language set (now or later).
    Their messages are found only if our code marks them with N_ (tui/cli/typer_words.py)."""
    if gettext.dgettext is not _STDLIB[0]:
        return  # once is enough
    dgettext, dngettext, dpgettext, dnpgettext = _STDLIB

    def ours(domain: str) -> bool:
        return domain == DOMAIN

    gettext.dgettext = lambda domain, message: (
        _translation.gettext(message) if ours(domain) else dgettext(domain, message))
    gettext.dngettext = lambda domain, msgid1, msgid2, n: (
        _translation.ngettext(msgid1, msgid2, n) if ours(domain)
        else dngettext(domain, msgid1, msgid2, n))
    gettext.dpgettext = lambda domain, context, message: (
        _translation.pgettext(context, message) if ours(domain)
        else dpgettext(domain, context, message))
    gettext.dnpgettext = lambda domain, context, msgid1, msgid2, n: (
        _translation.npgettext(context, msgid1, msgid2, n) if ours(domain)
        else dnpgettext(domain, context, msgid1, msgid2, n))
    gettext.textdomain(DOMAIN)


# ------------------------------------------------------------ choosing

def language_of_locale(name: str | None) -> str | None:
    """The language a locale name asks for (`ro_RO.UTF-8` → 'ro'), if it is a plain locale
    name with a catalog here; 'C' and 'POSIX' ask for the source language."""
    if not name or len(name) > 40:
        return None
    if name in ("C", "POSIX") or name.startswith("C."):
        return SOURCE
    if not LOCALE_NAME.fullmatch(name):
        return None
    code = re.split(r"[_.@-]", name, maxsplit=1)[0].lower()
    return code if code in languages() else None


def choose_language(flag: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The language asked for: `--lang`, then WARLEDGER_LANG, then the locale (LC_ALL,
    LC_MESSAGES, LANG, as the C library reads them), then English."""
    environ = os.environ if environ is None else environ
    for asked in (flag, environ.get("WARLEDGER_LANG")):
        if asked and (code := language_of_locale(asked)):
            return code
    for variable in ("LC_ALL", "LC_MESSAGES", "LANG"):
        if value := environ.get(variable):
            # The first variable set decides, as in the C library, even when it names a
            # language with no catalog here.
            return language_of_locale(value) or SOURCE
    return SOURCE


def accept_language(header: str | None) -> str | None:
    """The language a browser's Accept-Language prefers among those with a catalog."""
    best: tuple[float, int, str] | None = None
    for order, part in enumerate((header or "")[:500].split(",")[:20]):
        name, _sep, params = part.strip().partition(";")
        quality = 1.0
        if (match := re.fullmatch(r"\s*q=([01](?:\.\d{0,3})?)\s*", params)) is not None:
            quality = float(match.group(1))
        code = SOURCE if name.strip() == "*" else language_of_locale(name.strip())
        if code and quality > 0 and (best is None or (quality, -order) > best[:2]):
            best = (quality, -order, code)
    return best[2] if best else None


def language_name(code: str) -> str:
    """A language as its own speakers write it ('English', 'Română')."""
    from babel import Locale

    return (Locale.parse(code).get_display_name(code) or code).capitalize()


# ------------------------------------------------------------ numbers and dates

def format_moment(moment: datetime, pattern: str) -> str:
    """A moment (aware) as the reader writes it, with a CLDR pattern ("EEE dd MMM HH:mm"):
    the names of days and months in the reader's language."""
    from babel.dates import format_datetime

    return format_datetime(moment, pattern, locale=_babel_locale())


def format_number(number: float) -> str:
    """A number with the reader's decimal separator (3.5 in English, 3,5 in Romanian)."""
    from babel.numbers import format_decimal

    return format_decimal(number, locale=_babel_locale())


def _babel_locale() -> str:
    return _language
