"""The benchmarks' club history (tests/benchmarks/records.py) is what the ledger itself
would store: each copied game, exported and replayed into an empty database, lists the
same and gives the same league."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "benchmarks"))

from records import records  # noqa: E402

from storage.service import open_ledger  # noqa: E402


def test_the_copied_games_are_the_games_the_ledger_stores(tmp_path, monkeypatch):
    monkeypatch.setenv("WARLEDGER_BENCH_CACHE", str(tmp_path / "cache"))
    built = open_ledger(records(120, quiet=True))
    again = open_ledger(str(tmp_path / "replayed.db"))
    try:
        listed = built.games()
        assert len(listed) == 120
        assert {g.game for g in listed} == {"risk", "soe"}
        assert {len(g.players) for g in listed} == {3, 4, 5, 6}
        assert {g.status for g in listed} == {"finished", "in_progress"}
        assert any("[b]Ana[/b]" in g.players for g in listed)
        assert len(built.groups()) == 3
        for game in reversed(listed):  # oldest first, as they were played
            again.replay(built.export(game.id))
        replayed = {g.title: g for g in again.games()}

        def shown(g):
            return (g.game, g.status, g.players, g.progress, g.leader)

        assert {g.title: shown(g) for g in listed} == {t: shown(g) for t, g in replayed.items()}
        assert built.league() == again.league()
        assert records(120, quiet=True) == records(120, quiet=True)  # kept, not built again
    finally:
        built.engine.dispose()
        again.engine.dispose()
