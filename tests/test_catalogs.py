"""The catalogs (issue 24): every message the code shows has its translation in every
language, the compiled catalog holds what its source says, and a translation names the same
placeholders as its message. `uv run python -m i18n.catalogs --missing ro` lists what a
failure here finds."""

from __future__ import annotations

import gettext
import re
from io import BytesIO

import pytest
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from i18n import DOMAIN, LOCALE_DIR, SOURCE, languages
from i18n.catalogs import extract, key_of, missing

pytestmark = pytest.mark.unit

TRANSLATED = [code for code in languages() if code != SOURCE]
PLACEHOLDER = re.compile(r"(?<!\{)\{([A-Za-z_][A-Za-z0-9_]*)[^{}]*\}")


def catalog_of(code: str):
    with (LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.po").open("rb") as f:
        return read_po(f, locale=code, domain=DOMAIN)


@pytest.fixture(scope="module")
def in_the_code():
    return {key_of(m): m for m in extract() if m.id}


def test_there_is_a_romanian_catalog():
    assert "ro" in TRANSLATED


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_message_in_the_code_has_a_translation(code, in_the_code):
    catalog = catalog_of(code)
    lacking = {key_of(m) for m in missing(catalog)}
    known = {key_of(m) for m in catalog if m.id}
    absent = sorted(k for k in in_the_code if k not in known or k in lacking)
    assert not absent, (f"{len(absent)} messages have no {code} translation "
                        f"(python -m i18n.catalogs --missing {code}): {absent[:20]}")


@pytest.mark.parametrize("code", TRANSLATED)
def test_the_compiled_catalog_is_the_one_its_source_makes(code):
    """Compiled again from the .po, the catalog reads the same as the .mo shipped: a .po
    edited without compiling fails here (git keeps no file times to compare)."""
    fresh = BytesIO()
    write_mo(fresh, catalog_of(code))
    fresh.seek(0)
    with (LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.mo").open("rb") as shipped:
        assert gettext.GNUTranslations(shipped)._catalog == \
            gettext.GNUTranslations(fresh)._catalog  # type: ignore[attr-defined]


@pytest.mark.parametrize("code", TRANSLATED)
def test_a_translation_names_the_placeholders_of_its_message(code):
    wrong = []
    for message in catalog_of(code):
        if not message.id or not message.string:
            continue
        ids = message.id if isinstance(message.id, tuple | list) else (message.id,)
        strings = (message.string if isinstance(message.string, tuple | list)
                   else (message.string,))
        wanted = set().union(*(PLACEHOLDER.findall(i) for i in ids))
        for string in strings:
            # A plural form may leave the count out ("un război"), never add a name.
            if string and not set(PLACEHOLDER.findall(string)) <= wanted | {"n"} or (
                    len(ids) == 1 and string and set(PLACEHOLDER.findall(string)) != wanted):
                wrong.append((key_of(message), string))
    assert not wrong, wrong[:10]


def test_romanian_counts_take_three_forms():
    catalog = catalog_of("ro")
    assert catalog.num_plurals == 3
    forms = gettext.c2py(catalog.plural_expr)
    assert [forms(n) for n in (1, 0, 2, 19, 20, 101, 119, 120)] == [0, 1, 1, 1, 2, 1, 1, 2]
