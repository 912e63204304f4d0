"""Groups and seasons in the ledger (issue 25): groups and the default group (the group of
the game created last), seasons and their refusals, the league, a player's history and the
finished games by group and season (calendar days of the host's local time), moving a game.
Every test runs on a temporary SQLite file and, with WARLEDGER_TEST_PG set, on PostgreSQL."""

from __future__ import annotations

import time
from datetime import UTC, date, datetime

import pytest

import storage.ledger
from rules.errors import RuleError
from storage.ledger import DEFAULT_GROUP, GroupRow, Ledger, SeasonRow, StorageError
from tests.short_games import risk_night

BUCHAREST = "Europe/Bucharest"  # UTC+2 in winter, UTC+3 in summer


@pytest.fixture
def local_time(monkeypatch):
    """The host's local time zone, set for the test (restored after)."""

    def set_zone(zone: str) -> None:
        monkeypatch.setenv("TZ", zone)
        time.tzset()

    yield set_zone
    monkeypatch.undo()
    time.tzset()


@pytest.fixture
def clock(monkeypatch):
    """The ledger's clock, set by the test: `clock(datetime)` (UTC) for what follows."""

    def at(moment: datetime) -> None:
        monkeypatch.setattr(storage.ledger, "now", lambda: moment)

    return at


def night(ledger: Ledger, order: list[str], group: str | None = None, **kw):
    """A finished Risk game stored by the ledger, in `group`."""
    return ledger.replay(risk_night(order, **kw), group=group)


def names(rows) -> list[str]:
    return [row.player for row in rows]


# ---------------------------------------------------------------- groups

def test_a_new_database_has_no_group_and_its_first_game_goes_to_our_table(ledger):
    assert ledger.groups() == []
    assert ledger.default_group() == DEFAULT_GROUP == "Our table"
    game = night(ledger, ["Ana", "Bo"])
    assert ledger.group_of(game.id) == DEFAULT_GROUP
    assert ledger.groups() == [GroupRow(DEFAULT_GROUP, 1)]


def test_the_default_group_is_the_group_of_the_game_created_last(ledger):
    night(ledger, ["Ana", "Bo"])
    friday = ledger.create_game("risk", "Friday", {"mode": "conquest"},
                                [{"name": "Ana", "color": "red"},
                                 {"name": "Cy", "color": "blue"}], group="Fridays")
    assert ledger.group_of(friday.id) == "Fridays"
    assert ledger.default_group() == "Fridays"
    later = night(ledger, ["Cy", "Ana"])  # no group named: the last used
    assert ledger.group_of(later.id) == "Fridays"
    night(ledger, ["Bo", "Ana"], group="Our table")
    assert ledger.default_group() == "Our table"
    ledger.delete_game(4)
    assert ledger.default_group() == "Fridays"
    assert ledger.groups() == [GroupRow("Fridays", 2), GroupRow("Our table", 1)]


def test_groups_are_added_renamed_and_refused_in_the_players_words(ledger):
    assert ledger.add_group("  Chess club ") == "Chess club"
    assert ledger.groups() == [GroupRow("Chess club", 0)]
    with pytest.raises(RuleError, match="There is a group named Chess club already"):
        ledger.add_group("chess CLUB")
    with pytest.raises(RuleError, match="The group's name must be a non-empty text"):
        ledger.add_group("   ")
    with pytest.raises(RuleError, match="The group's name"):
        ledger.add_group("x" * 80)
    night(ledger, ["Ana", "Bo"], group="Thursdays")
    with pytest.raises(RuleError, match="There is a group named Thursdays already"):
        ledger.rename_group("Chess club", "Thursdays")
    with pytest.raises(StorageError, match="There is no group Bridge"):
        ledger.rename_group("Bridge", "Whist")
    assert ledger.rename_group("chess club", "Chess Club") == "Chess Club"  # its own name
    assert ledger.rename_group("Thursdays", "Thursday nights") == "Thursday nights"
    assert ledger.groups() == [GroupRow("Chess Club", 0), GroupRow("Thursday nights", 1)]
    assert ledger.group_of(1) == "Thursday nights"
    with pytest.raises(StorageError, match="There is no game 99"):
        ledger.group_of(99)


def test_a_group_name_is_player_text_kept_as_typed(ledger):
    odd = "[b]Ana's[/b] \u00eele"
    assert ledger.add_group(odd) == odd
    game = night(ledger, ["Ana", "Bo"], group=odd)
    assert ledger.group_of(game.id) == odd
    assert names(ledger.league(group=odd)) == ["Ana", "Bo"]


CYRILLIC_FRIDAY = "Fr\u0456day"  # a Cyrillic і
JOINED_FRIDAY = "Fri\u200dday"  # a zero-width joiner


@pytest.mark.parametrize("twin", [CYRILLIC_FRIDAY, JOINED_FRIDAY])
def test_a_group_that_looks_like_another_is_refused_naming_both(ledger, twin):
    """Issue 46: `Friday`, `Frіday` and `Fri‍day` were three groups of one database, and a
    season named without its group was then in "more than one group (Friday, Fri‍day)"."""
    ledger.add_group("Friday")
    for made in (lambda: ledger.add_group(twin), lambda: ledger.add_season(
            twin, "S1", date(2026, 1, 1), date(2026, 6, 30))):
        with pytest.raises((RuleError, StorageError)):
            made()
    ledger.add_group("Tuesday")
    with pytest.raises(RuleError, match="looks like it"):
        ledger.rename_group("Tuesday", twin)
    with pytest.raises(RuleError, match="looks like it"):
        night(ledger, ["Ana", "Bo"], group=twin)  # a game stored into a new group
    assert [row.name for row in ledger.groups()] == ["Friday", "Tuesday"]


def test_a_look_alike_group_is_refused_with_both_spellings(ledger):
    ledger.add_group("Friday")
    with pytest.raises(RuleError) as refused:
        ledger.add_group(CYRILLIC_FRIDAY)
    assert str(refused.value) == (
        "There is a group Friday already, and Fr\u0456day (Fr\\u0456day) looks like it: "
        "names must differ by more than look-alike or invisible characters")
    with pytest.raises(RuleError, match="Fri\\\\u200dday\\) looks like it"):
        ledger.add_group(JOINED_FRIDAY)  # a joiner is kept in names (some scripts need it)
    with pytest.raises(RuleError, match="holds an invisible character"):
        ledger.add_group("Fri\u200bday")


def test_a_season_that_looks_like_another_of_its_group_is_refused(ledger):
    ledger.add_group("Ours")
    ledger.add_season("Ours", "Spring", date(2026, 3, 1), date(2026, 5, 31))
    with pytest.raises(RuleError, match="has a season Spring already, and .* looks like it"):
        ledger.add_season("Ours", "Spr\u0456ng", date(2026, 6, 1), date(2026, 8, 31))
    with pytest.raises(RuleError, match="holds an invisible character"):
        ledger.add_season("Ours", "S\u200b1", date(2026, 6, 1), date(2026, 8, 31))
    ledger.add_group("Theirs")  # another group may have a season of that name
    ledger.add_season("Theirs", "Spring", date(2026, 3, 1), date(2026, 5, 31))


def test_moving_a_game_moves_its_results_between_the_groups(ledger):
    first = night(ledger, ["Ana", "Bo"], group="Ours")
    night(ledger, ["Bo", "Cy"], group="Ours")
    assert names(ledger.league(group="Ours")) == ["Ana", "Bo", "Cy"]
    assert ledger.move_game(first.id, "Theirs") == "Theirs"  # a new group
    assert ledger.group_of(first.id) == "Theirs"
    assert names(ledger.league(group="Ours")) == ["Bo", "Cy"]
    assert names(ledger.league(group="Theirs")) == ["Ana", "Bo"]
    assert ledger.stats(group="Theirs").games == 1
    assert ledger.stats(group="Ours").games == 1
    assert ledger.move_game(first.id, "ours") == "Ours"  # the same group but for case
    assert ledger.stats(group="Ours").games == 2
    assert ledger.groups() == [GroupRow("Ours", 2), GroupRow("Theirs", 0)]
    with pytest.raises(StorageError, match="There is no game 42"):
        ledger.move_game(42, "Ours")


def test_every_group_together_is_the_league_as_it_was(ledger):
    night(ledger, ["Ana", "Bo"], group="A")
    night(ledger, ["Bo", "Ana"], group="B")
    night(ledger, ["Ana", "Cy"], group="B")
    together = ledger.league()
    assert [(r.player, r.played, r.wins, r.points) for r in together] == [
        ("Ana", 3, 2, 6), ("Bo", 2, 1, 3), ("Cy", 1, 0, 0)]
    assert ledger.league(group=None, season=None) == together
    assert [(r.player, r.played) for r in ledger.league(group="B")] == [("Ana", 2), ("Bo", 1),
                                                                        ("Cy", 1)]
    assert ledger.league("soe", group="B") == []
    with pytest.raises(StorageError, match="There is no group C"):
        ledger.league(group="C")
    assert [h.session_id for h in ledger.history("Ana", group="B")] == [3, 2]
    assert [h.session_id for h in ledger.history("Ana")] == [3, 2, 1]
    assert [g.key for g in ledger.finished_games(group="A")] == [1]
    assert [g.key for g in ledger.finished_games()] == [1, 2, 3]


# ---------------------------------------------------------------- seasons

def test_seasons_are_listed_by_group_then_start_and_refused_in_one_line(ledger):
    ledger.add_group("Ours")
    ledger.add_group("Theirs")
    spring = ledger.add_season("Ours", "Spring", date(2026, 3, 1), date(2026, 5, 31))
    assert spring == SeasonRow("Ours", "Spring", date(2026, 3, 1), date(2026, 5, 31), False)
    ledger.add_season("Ours", "Winter", "2026-01-01", "2026-02-28", carry_over=True)
    ledger.add_season("Theirs", "Spring", date(2026, 4, 1), date(2026, 4, 30))
    assert [(s.group, s.name, s.carry_over) for s in ledger.seasons()] == [
        ("Ours", "Winter", True), ("Ours", "Spring", False), ("Theirs", "Spring", False)]
    assert [s.name for s in ledger.seasons("Theirs")] == ["Spring"]
    refusals = {
        "The season Late would end (2026-06-01) before it starts (2026-06-30)":
            ("Late", date(2026, 6, 30), date(2026, 6, 1)),
        "The group Ours has a season named Spring already":
            ("spring", date(2027, 3, 1), date(2027, 5, 31)),
        "The season Easter (2026-04-01 to 2026-04-10) would overlap Spring (2026-03-01 to "
        "2026-05-31): a group's seasons may not overlap":
            ("Easter", date(2026, 4, 1), date(2026, 4, 10)),
        "The season Edge (2026-05-31 to 2026-06-30) would overlap Spring":
            ("Edge", date(2026, 5, 31), date(2026, 6, 30)),  # days are inclusive
        "All time is always there": ("All time", date(2027, 1, 1), date(2027, 1, 2)),
        "The first day must be a date such as 2026-03-01, not '1 March'":
            ("March", "1 March", date(2027, 1, 2)),
    }
    for said, (name, starts, ends) in refusals.items():
        with pytest.raises(RuleError) as refused:
            ledger.add_season("Ours", name, starts, ends)
        assert said in str(refused.value) and "\n" not in str(refused.value)
    with pytest.raises(StorageError, match="There is no group Nobody"):
        ledger.add_season("Nobody", "Summer", date(2026, 6, 1), date(2026, 8, 31))
    ledger.add_season("Ours", "Summer", date(2026, 6, 1), date(2026, 8, 31))  # the day after
    ledger.remove_season("Ours", "Summer")
    with pytest.raises(StorageError, match="The group Ours has no season Summer"):
        ledger.remove_season("Ours", "Summer")
    assert len(ledger.seasons()) == 3


def test_a_season_named_without_its_group_is_found_in_every_group(ledger):
    ledger.add_group("Ours")
    ledger.add_group("Theirs")
    ledger.add_season("Ours", "Spring", date(2026, 3, 1), date(2026, 5, 31))
    ledger.add_season("Theirs", "Spring", date(2026, 3, 1), date(2026, 5, 31))
    ledger.add_season("Theirs", "Autumn", date(2026, 9, 1), date(2026, 11, 30))
    with pytest.raises(StorageError) as twice:
        ledger.league(season="Spring")
    assert str(twice.value) == ("Season Spring is in more than one group (Ours, Theirs): "
                                "name the group")
    with pytest.raises(StorageError, match="^There is no season Summer$"):
        ledger.stats(season="Summer")
    assert ledger.league(season="Autumn") == []
    assert ledger.league(group="Theirs", season="Spring") == []
    with pytest.raises(StorageError, match="The group Ours has no season Autumn"):
        ledger.history("Ana", group="Ours", season="Autumn")


def test_a_game_falls_in_a_season_by_the_local_day_it_finished(ledger, local_time, clock):
    local_time(BUCHAREST)
    ledger.add_group("Ours")
    ledger.add_season("Ours", "March", date(2026, 3, 1), date(2026, 3, 31))
    ledger.add_season("Ours", "April", date(2026, 4, 1), date(2026, 4, 30), carry_over=True)
    # Bucharest is UTC+2 until March 29th, then UTC+3 (summer time)
    for when, order in ((datetime(2026, 2, 28, 21, 59, tzinfo=UTC), ["Ed", "Ana"]),  # Feb 28
                        (datetime(2026, 2, 28, 22, 0, tzinfo=UTC), ["Di", "Ana"]),  # Mar 1st
                        (datetime(2026, 3, 15, 12, 0, tzinfo=UTC), ["Ana", "Bo"]),
                        (datetime(2026, 3, 31, 20, 59, tzinfo=UTC), ["Bo", "Ana"]),  # 23:59
                        (datetime(2026, 3, 31, 21, 30, tzinfo=UTC), ["Cy", "Bo"]),  # April
                        (datetime(2026, 4, 30, 20, 59, tzinfo=UTC), ["Cy", "Ana"]),  # 23:59
                        (datetime(2026, 4, 30, 21, 0, tzinfo=UTC), ["Ana", "Di"])):  # May 1st
        clock(when)
        night(ledger, order, group="Ours")
    assert [g.key for g in ledger.finished_games(season="March")] == [2, 3, 4]
    assert [g.key for g in ledger.finished_games("Ours", "April")] == [5, 6]
    assert [(r.player, r.played) for r in ledger.league(season="April")] == [
        ("Cy", 2), ("Ana", 1), ("Bo", 1)]
    assert [h.session_id for h in ledger.history("Ana", season="March")] == [4, 3, 2]
    march, april = ledger.seasons()
    assert march.holds(datetime(2026, 2, 28, 22, 0, tzinfo=UTC))
    assert not march.holds(datetime(2026, 2, 28, 21, 59, tzinfo=UTC))
    assert not march.holds(datetime(2026, 3, 31, 21, 30, tzinfo=UTC))
    assert april.holds(datetime(2026, 3, 31, 21, 30, tzinfo=UTC))
    # April carries its ratings over: they rest on every game of the group up to its end,
    # its other figures on its own games; March starts afresh.
    assert ledger.stats(season="April").games == 2
    assert ledger.stats(season="April").rating("Ana").games == 5
    assert ledger.stats(season="March").rating("Ana").games == 3
    assert ledger.stats(season="March").rating("Cy") is None
    assert set(ledger.stats(season="April").players) == {"Ana", "Bo", "Cy"}
    assert ledger.stats(group="Ours").games == 7


def test_a_new_database_can_give_our_table_a_season_before_its_first_game(ledger):
    ledger.add_season(ledger.default_group(), "Spring", date(2026, 3, 1), date(2026, 5, 31))
    assert ledger.groups() == [GroupRow(DEFAULT_GROUP, 0)]
    assert night(ledger, ["Ana", "Bo"]).id == 1
    assert ledger.groups() == [GroupRow(DEFAULT_GROUP, 1)]


def test_a_removed_season_leaves_its_games_in_the_group(ledger, clock):
    clock(datetime(2026, 7, 1, 12, tzinfo=UTC))
    night(ledger, ["Ana", "Bo"])
    ledger.add_season(DEFAULT_GROUP, "Summer", date(2026, 6, 1), date(2026, 8, 31))
    assert ledger.stats(season="Summer").games == 1
    ledger.remove_season(DEFAULT_GROUP, "summer")
    assert ledger.seasons() == []
    assert ledger.stats().games == 1
    with pytest.raises(StorageError, match="There is no season Summer"):
        ledger.stats(season="Summer")
