"""The catalogs kept current with Babel: `uv run python -m i18n.catalogs`.

    python -m i18n.catalogs                     extract the messages (i18n/warledger.pot),
                                                update every language's .po, compile its .mo
    python -m i18n.catalogs --add ro FILE.json  the same, with translations from FILE first:
                                                {"msgid": "msgstr", "singular": ["one",
                                                "few", "many"], "context\\x04msgid": "..."}
    python -m i18n.catalogs --missing ro        the messages with no translation yet
    python -m i18n.catalogs --new LANG          a catalog for a new language

It is what `pybabel extract/update/compile -F babel.cfg` do, in one step, holding a lock so
that two people updating at once do not undo each other. Locations are kept without line
numbers: moving code does not churn the catalogs.
"""

from __future__ import annotations

import argparse
import fcntl
import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from i18n import DOMAIN, LOCALE_DIR, SOURCE

# The catalogs' header dates stay put: an update that adds nothing changes nothing.
STABLE_DATE = datetime(2026, 12, 1, tzinfo=UTC)
ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = Path(__file__).parent / f"{DOMAIN}.pot"
LAYERS = ("i18n", "rules", "storage", "tui")  # babel.cfg says the same for pybabel
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2),
            "npgettext": ((1, "c"), 2, 3)}


def po_path(code: str) -> Path:
    return LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.po"


def extract() -> Catalog:
    """Every message of the code, with where it is used (files only) and its translators'
    comments (`# TRANSLATORS:`)."""
    template = Catalog(project="warledger", version="0.1", domain=DOMAIN, fuzzy=False,
                       copyright_holder="warledger", creation_date=STABLE_DATE,
                       revision_date=STABLE_DATE)
    for layer in LAYERS:
        for filename, lineno, message, comments, context in extract_from_dir(
                ROOT / layer, [("**.py", "python")], keywords=KEYWORDS,
                comment_tags=("TRANSLATORS:",), strip_comment_tags=True):
            template.add(message, None, [(f"{layer}/{filename}", lineno)],
                         auto_comments=comments, context=context)
    return template


def key_of(message: Message) -> str:
    """A message as the --add files name it: its id (the singular for a plural), after
    its context and \\x04 when it has one (as gettext stores it)."""
    msgid = message.id[0] if isinstance(message.id, tuple | list) else message.id
    return f"{message.context}\x04{msgid}" if message.context else msgid


def missing(catalog: Catalog) -> list[Message]:
    """The messages with no translation, or a fuzzy one (a guess by Babel)."""
    def untranslated(m: Message) -> bool:
        strings = m.string if isinstance(m.string, tuple | list) else (m.string,)
        return m.fuzzy or not all(strings)

    return [m for m in catalog if m.id and untranslated(m)]


@contextmanager
def locked() -> Iterator[None]:
    with open(LOCALE_DIR / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def update(additions: dict[str, dict[str, object]] | None = None) -> dict[str, int]:
    """Extract, update each catalog (with `additions` per language first), compile: how many
    messages each language still lacks."""
    with locked():
        template = extract()
        with TEMPLATE.open("wb") as out:
            write_po(out, template, width=100, include_lineno=False, sort_output=True)
        lacking = {}
        for po in sorted(LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po")):
            code = po.parent.parent.name
            with po.open("rb") as f:
                catalog = read_po(f, locale=code, domain=DOMAIN)
            catalog.update(template, no_fuzzy_matching=True, update_creation_date=False)
            catalog.obsolete.clear()  # gone from the code: gone from the catalog
            for key, string in (additions or {}).get(code, {}).items():
                message = next((m for m in catalog if m.id and key_of(m) == key), None)
                if message is None:
                    continue  # not in the code (yet): `--missing` shows what is
                message.string = tuple(string) if isinstance(string, list) else str(string)
                message.flags.discard("fuzzy")
            with po.open("wb") as out:
                write_po(out, catalog, width=100, include_lineno=False, sort_output=True)
            with po.with_suffix(".mo").open("wb") as out:
                write_mo(out, catalog)
            lacking[code] = len(missing(catalog))
        return lacking


def new_language(code: str) -> Path:
    """An empty catalog for `code`, with its plural forms from Babel's locale data."""
    po = po_path(code)
    po.parent.mkdir(parents=True, exist_ok=True)
    catalog = Catalog(locale=code, domain=DOMAIN, project="warledger", version="0.1",
                      fuzzy=False, copyright_holder="warledger", creation_date=STABLE_DATE,
                      revision_date=STABLE_DATE)
    with po.open("wb") as out:
        write_po(out, catalog, width=100)
    return po


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m i18n.catalogs", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--add", nargs=2, action="append", metavar=("LANG", "FILE"),
                        default=[], help="translations (JSON) to put in first")
    parser.add_argument("--missing", metavar="LANG", help="list what LANG lacks")
    parser.add_argument("--new", metavar="LANG", help="start a catalog for LANG")
    args = parser.parse_args(argv)
    if args.new:
        if args.new == SOURCE:
            parser.error(f"{SOURCE} is the source language: it needs no catalog")
        print(new_language(args.new))
    additions: dict[str, dict[str, object]] = {}
    for code, file in args.add:
        additions.setdefault(code, {}).update(json.loads(Path(file).read_text("utf-8")))
    lacking = update(additions)
    if args.missing:
        with po_path(args.missing).open("rb") as f:
            catalog = read_po(f, locale=args.missing)
        for message in missing(catalog):
            where = ", ".join(sorted({path for path, _line in message.locations}))
            print(json.dumps(key_of(message), ensure_ascii=False), f"  ({where})")
    for code, count in lacking.items():
        print(f"{code}: {count} messages without a translation", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
