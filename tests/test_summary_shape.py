"""A saved game's summary in one shape for every game (issue 23): where it stands (unit,
number, phase) and who leads, as the rules say it. Migration 0004 rewrites the summaries of
an older database, and takes them back on a downgrade. On SQLite and, with
WARLEDGER_TEST_PG set, PostgreSQL."""

from __future__ import annotations

import json

from sqlalchemy import select, update

from rules.outcome import Progress, Summary
from storage.core import SESSION_T
from storage.engine import make_engine
from storage.ledger import Ledger
from storage.migrate import current_revision, downgrade, head_revision, upgrade
from tests.test_cli import RISK_FILE, SOE_FILE, sample
from tui.text.formatting import describe_where

# The summaries as warledger wrote them before 0004, by the game's own keys.
OLD = {
    "soe in war 2": ({"phase": "upkeep", "war": 2, "leader": "Ana"}, "War 2 · upkeep"),
    "risk in play": ({"phase": "round", "round": 4, "leader": "Bo"}, "Round 5"),
    "risk tied": ({"phase": "tiebreak", "round": 10, "leader": None},
                  "Round 10 · tie to settle"),
}


def summaries(engine) -> dict[str, dict]:
    with engine.connect() as conn:
        rows = conn.execute(select(SESSION_T.c.title, SESSION_T.c.summary)).all()
    return {title: summary if isinstance(summary, dict) else json.loads(summary)
            for title, summary in rows}


def test_an_older_database_has_its_summaries_said_the_new_way_and_back(db_url, engines):
    engine = make_engine(db_url)
    engines.append(engine)
    ledger = Ledger(engine)
    for title in OLD:
        data = sample(RISK_FILE if title.startswith("risk") else SOE_FILE)
        ledger.replay({**data, "title": title}, copy=True)
    downgrade(engine, "0003")  # the schema before 0004 (and what came after it)
    assert current_revision(engine) == "0003"
    with engine.begin() as conn:  # games under way, as an older warledger summed them up
        for title, (old, _) in OLD.items():
            conn.execute(update(SESSION_T).where(SESSION_T.c.title == title)
                         .values(summary=old, status="in_progress"))
    upgrade(engine)
    assert current_revision(engine) == head_revision()
    listed = {g.title: g for g in Ledger(engine).games()}
    for title, (_, words) in OLD.items():
        assert describe_where(listed[title]) == words, title
    assert summaries(engine)["risk in play"] == Summary(
        Progress("round", 5, "round", named=False), "Bo").to_json()
    downgrade(engine, "0003")  # and back, as the older warledger reads them
    assert {title: summaries(engine)[title] for title in OLD} == {
        title: old for title, (old, _) in OLD.items()}


def test_a_summary_from_another_shape_reads_as_the_start_of_a_game():
    assert Summary.from_json({}) == Summary(Progress("round", 1, ""), None)
    assert Summary.from_json({"unit": "war", "number": True, "leader": 3}) == Summary(
        Progress("war", 1, ""), None)
