"""The saved games a page at a time (issue 48, storage/listing.py): newest first, each page
starting after the last game of the one before, and a search by title, player, game, group
or status; on SQLite and on PostgreSQL (the `ledger` fixture runs both)."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import update

from storage.core import SESSION_T
from storage.listing import Word

SOE = [{"name": "[b]Ana[/b]", "power": "France"}, {"name": "Bo[/]", "power": "Britain"}]
RISK = [{"name": "Cy", "color": "red"}, {"name": "Dana", "color": "blue"}]


def every_page(ledger, size: int, words=()) -> list[list[int]]:
    pages, after = [], None
    while True:
        page = ledger.games_page(words, after, size)
        pages.append([g.id for g in page.games])
        if page.after is None:
            return pages
        after = page.after


def test_pages_follow_each_other_newest_first_to_the_last(ledger):
    made = [ledger.create_game("soe" if i % 2 else "risk", f"Game {i}", {"mode": "conquest"}
                               if i % 2 == 0 else {}, RISK if i % 2 == 0 else SOE)
            for i in range(8)]
    # Two games moved at the same moment: the newer number first, on every page.
    same = datetime(2026, 1, 1, 12, tzinfo=UTC)
    with ledger.engine.begin() as conn:
        conn.execute(update(SESSION_T).where(SESSION_T.c.id.in_([made[2].id, made[5].id]))
                     .values(updated_at=same))
    everything = [g.id for g in ledger.games()]
    pages = every_page(ledger, 3)
    assert [len(p) for p in pages] == [3, 3, 2]
    assert [i for p in pages for i in p] == everything
    assert everything[-2:] == [made[5].id, made[2].id]  # the oldest moment, 5 above 2
    first = ledger.games_page(size=3)
    assert first.games == ledger.games()[:3]
    whole = ledger.games_page(size=8)
    assert whole.after is None and whole.games == ledger.games()  # exactly one page: no more


def test_a_page_comes_after_the_last_game_shown_though_games_come_meanwhile(ledger):
    for i in range(5):
        ledger.create_game("soe", f"Old {i}", {}, SOE)
    first = ledger.games_page(size=2)
    ledger.create_game("soe", "New", {}, SOE)  # another terminal's, above the list
    rest = ledger.games_page(after=first.after, size=10)
    assert [g.title for g in first.games] == ["Old 4", "Old 3"]
    assert [g.title for g in rest.games] == ["Old 2", "Old 1", "Old 0"]


def test_a_search_finds_by_title_player_game_group_and_status(ledger):
    risk = ledger.create_game("risk", "Friday 100% night", {"mode": "conquest"}, RISK)
    soe = ledger.create_game("soe", "Empires_war", {}, SOE)
    done = ledger.replay({
        "format": "warledger/1", "game": "risk", "title": "Done", "settings":
        {"mode": "fixed_rounds", "rounds": 1}, "players": RISK,
        "steps": [{"kind": "round", "positions": {
            "Cy": {"territories": 30, "armies": 40, "continents": []},
            "Dana": {"territories": 12, "armies": 20, "continents": []}}}]})
    cousins = ledger.create_game("soe", "Sunday", {}, SOE)
    ledger.add_group("Cousins")
    ledger.move_game(cousins.id, "Cousins")

    def found(*words: Word) -> set[int]:
        return {g.id for g in ledger.games_page(words).games}

    assert found(Word("friday")) == {risk.id}  # the title, case aside
    assert found(Word("[b]ana")) == {soe.id, cousins.id}  # a player, markup and all
    assert found(Word("bo[/]")) == {soe.id, cousins.id}
    assert found(Word("dana")) == {risk.id, done.id}
    assert found(Word("cousin")) == {cousins.id}  # its group
    assert found(Word("our tab")) == {risk.id, soe.id, done.id}  # the default group
    assert found(Word("xyz", games=("risk",))) == {risk.id, done.id}  # a game named
    assert found(Word("xyz", statuses=("finished",))) == {done.id}
    assert found(Word("xyz", statuses=("in_progress",))) == {risk.id, soe.id, cousins.id}
    assert found(Word("dana"), Word("xyz", statuses=("finished",))) == {done.id}  # all words
    # A player's % and _ are letters, not wildcards.
    assert found(Word("0%")) == {risk.id}
    assert found(Word("0% n")) == {risk.id}
    assert found(Word("s_w")) == {soe.id}
    assert found(Word("100_")) == set()
    assert found(Word("y%n")) == set()
    assert found(Word("nobody")) == set()
    # A search is paged too.
    pages = every_page(ledger, 1, [Word("dana")])
    assert pages == [[done.id], [risk.id]]
