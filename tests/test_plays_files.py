"""BoardGameGeek plays XML and BG Stats JSON, read and written without a database (issue 27):
the sample files of tests/data (written from the formats' documentation), what is skipped and
counted, each writer read back by its reader, and hostile files refused in one line naming
the problem (entities, external references, size, names, dates, scores)."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, date, datetime
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from rules.errors import RuleError
from rules.fields import looks_alike
from rules.game import rules_for
from rules.plays import (
    ANONYMOUS,
    FILE_LIMIT,
    NOT_IN_XML,
    OTHER_GAMES,
    PLAYER_COUNT,
    UNFINISHED,
    Play,
    Player,
    bgg_xml,
    bgstats_json,
    game_played,
    read_plays,
    report_of,
)
from rules.risk import DEFAULT_COLOURS as RISK_COLOURS
from rules.soe.regions import POWERS
from tests.hostile import printable_names

DATA = Path(__file__).parent / "data"
BGG = (DATA / "bgg_plays.xml").read_bytes()
BGSTATS = (DATA / "bgstats_plays.json").read_bytes()


def seats(play: Play) -> list[tuple]:
    return [(p.name, p.seat, p.side, p.score, p.won) for p in play.players]


def refused(raw: bytes | str) -> str:
    with pytest.raises(RuleError) as e:
        read_plays(raw.encode() if isinstance(raw, str) else raw)
    said = str(e.value)
    assert "\n" not in said and "Traceback" not in said
    return said


def bgg_play(players: str, date_: str = "2025-11-07", item: str =
             '<item name="Risk" objecttype="thing" objectid="181"/>', attrs: str = "") -> str:
    return (f'<plays><play id="1" date="{date_}" quantity="1" length="60" incomplete="0" '
            f'{attrs}>{item}<players>{players}</players></play></plays>')


def player(name: str, win: str = "0", **more: str) -> str:
    extra = " ".join(f'{k}="{v}"' for k, v in more.items())
    return f'<player name="{name}" win="{win}" {extra}/>'


TWO = player("Ana", "1", color="red") + player("Bo", color="blue")


def test_each_game_says_its_id_and_where_it_came_from():
    # Each game says it in its registration (GameRules.elsewhere).
    assert rules_for("risk").elsewhere.bgg_id == 181
    assert "boardgamegeek.com/boardgame/181" in rules_for("risk").elsewhere.bgg_id_from
    # Struggle of Empires is BoardGameGeek's 9625, as real files give it (issue 49).
    assert rules_for("soe").elsewhere.bgg_id == 9625
    assert "boardgamegeek.com/boardgame/9625" in rules_for("soe").elsewhere.bgg_id_from
    assert game_played("Struggle of Empires", 9625) == "soe"
    assert game_played("Anything", 9625) == "soe"
    assert game_played("Struggle of Empires", 99999) is None  # its own id says another
    assert game_played("struggle of empires ", None) == "soe"
    assert game_played("Risk", 181) == "risk"
    assert game_played("Anything", 181) == "risk"  # the id decides where it is known
    assert game_played("Risk", 8107) is None  # another game named Risk (its own id says)
    assert game_played("Risk Express", 30) is None
    assert game_played("CATAN", 13) is None


def test_the_bgg_sample_gives_its_risk_and_soe_plays_and_counts_the_rest():
    found = read_plays(BGG)
    assert found.format == "bgg"
    assert found.skipped == {OTHER_GAMES: 2, UNFINISHED: 1}
    assert [(p.game, p.source, p.started.date(), p.minutes) for p in found.plays] == [
        ("risk", "bgg:9001", date(2025, 11, 7), 180),
        ("risk", "bgg:9002", date(2025, 11, 14), 150),
        ("risk", "bgg:9003", date(2025, 11, 21), None),  # length 0: not known
        ("soe", "bgg:9004", date(2025, 12, 5), 240)]
    # Seats by start position, not file order; colours and powers by their ids.
    assert seats(found.plays[1]) == [("Bo", 0, "black", 40, True), ("Cy", 1, "yellow", 31, False),
                                     ("Ana", 2, "pink", 27, False)]
    assert seats(found.plays[3])[1] == ("Bo", 1, "Britain", 47, True)
    # A date alone is noon UTC that day: the same day in every time zone of the world but
    # the farthest.
    assert found.plays[0].started == datetime(2025, 11, 7, 12, tzinfo=UTC)


def test_the_bgstats_sample_gives_its_plays_and_counts_the_rest():
    found = read_plays(BGSTATS)
    assert found.format == "bgstats"
    assert found.skipped == {OTHER_GAMES: 1, UNFINISHED: 1}
    first, second, soe = found.plays
    assert first.source == "bgstats:a1b2c3d4-0001-4e5f-8a9b-000000000001"
    assert seats(first) == [("Bo", 0, "blue", None, False), ("Ana", 1, "red", None, True),
                            ("Di", 2, "green", None, False)]
    assert (second.minutes, second.rounds) == (95, 8)
    assert seats(soe)[2] == ("Cy", 2, "United Provinces", 30, False)
    assert soe.winners == ("Ana", "Bo")


def test_a_play_reports_as_a_finished_game():
    plays = read_plays(BGG).plays
    report = report_of(plays[1])
    assert (report.result, report.format, report.winners) == ("win", "imported", ("Bo",))
    assert [(s.player, s.rank, s.score) for s in report.standings] == [
        ("Bo", 1, 40), ("Cy", 2, 31), ("Ana", 3, 27)]  # the others by score
    shared = report_of(plays[2])
    assert shared.result == "shared" and shared.winners == ("Ana", "Bo")
    nobody = replace(plays[0], players=tuple(replace(p, won=False)
                                             for p in plays[0].players))
    assert report_of(nobody).result == "draw"
    soe = report_of(plays[3])
    assert soe.standings[0].details == {"power": "Britain", "final_vp": 47}


@pytest.mark.parametrize("source", [BGG, BGSTATS])
def test_each_writer_is_read_back_as_the_same_plays(source):
    plays = read_plays(source).plays
    for written in (bgg_xml(plays).encode(), json.dumps(bgstats_json(plays)).encode()):
        again = read_plays(written).plays
        assert [(p.game, p.started.date(), p.minutes, seats(p)) for p in again] == \
            [(p.game, p.started.date(), p.minutes, seats(p)) for p in plays]


def test_a_warledger_game_carries_its_own_id_in_both_files():
    uid = "0b6c1a9e-3f1d-4c55-9a4e-2d7f0c8b1e42"
    ours = Play("soe", datetime(2026, 3, 6, 19, 30, tzinfo=UTC), 200, True,
                (Player("Ana", 0, "France", 33, True), Player("Bo", 1, "Spain", 20, False)),
                "Friday", 3, uid)
    xml = bgg_xml([ours])
    assert 'id="' not in xml.split("<play ")[1].split(">")[0]  # no BoardGameGeek id to give
    assert 'objectid="9625"' in xml  # Struggle of Empires' id on BoardGameGeek
    back = read_plays(xml.encode()).plays[0]
    assert (back.uid, back.title) == (uid, "Friday")
    data = bgstats_json([ours])
    assert data["plays"][0]["sourcePlayId"] == uid
    assert data["games"][0]["bggId"] == 9625
    assert read_plays(json.dumps(data).encode()).plays[0].uid == uid
    unfinished = Play("risk", ours.started, None, False,
                      (Player("Ana", 0, "red", None, False), Player("Bo", 1, "blue", None, False)),
                      uid="1b6c1a9e-3f1d-4c55-9a4e-2d7f0c8b1e42")
    assert 'incomplete="1"' in bgg_xml([unfinished])
    assert bgstats_json([unfinished])["plays"][0]["ignored"] is True
    assert read_plays(bgg_xml([unfinished]).encode()).skipped == {UNFINISHED: 1}


def test_a_play_without_an_id_is_known_by_what_it_says_in_both_files():
    bare = BGG.replace(b'<play id="9001" ', b"<play ")
    first = read_plays(bare).plays[0]
    assert first.source.startswith("bgg:~") and read_plays(bare).plays[0] == first
    for raw in (bgg_xml([first]).encode(), json.dumps(bgstats_json([first])).encode()):
        assert read_plays(raw).plays[0].own_id() == first.own_id()
    data = json.loads(BGSTATS)
    del data["plays"][0]["uuid"]
    bare_stats = read_plays(json.dumps(data).encode()).plays[0]
    assert bare_stats.source.startswith("bgstats:~")
    again = read_plays(json.dumps(bgstats_json([bare_stats])).encode()).plays[0]
    assert again.own_id() == bare_stats.own_id()
    data["plays"][1]["sourcePlayId"] = data["plays"][2]["sourcePlayId"] = \
        "0b6c1a9e-3f1d-4c55-9a4e-2d7f0c8b1e42"
    assert "twice" in refused(json.dumps(data))


def test_a_name_no_xml_can_hold_is_refused_by_the_bgg_writer_alone():
    odd = Play("risk", datetime(2025, 1, 1, 12, tzinfo=UTC), None, True,
               (Player("Ana\ufffe", 0, "red", None, True), Player("Bo", 1, "blue", None, False)),
               source="bgg:1")
    with pytest.raises(RuleError, match=r"no XML file can hold \(\\ufffe\)"):
        bgg_xml([odd])
    assert read_plays(json.dumps(bgstats_json([odd])).encode()).plays[0].players[0].name == \
        "Ana\ufffe"


# ---------------------------------------------------------------- hostile files

BILLION_LAUGHS = """<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
]>
<plays><play id="1" date="2025-01-01"><item name="Risk" objectid="181"/><players>
<player name="&lol4;" win="1"/><player name="Bo"/></players></play></plays>"""

EXTERNAL = """<?xml version="1.0"?>
<!DOCTYPE plays [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
<plays><play id="1" date="2025-01-01"><item name="Risk" objectid="181"/><players>
<player name="&secret;" win="1"/><player name="Bo"/></players></play></plays>"""


def test_entities_and_external_references_are_refused_unread():
    assert "entities or a DTD" in refused(BILLION_LAUGHS)
    assert "entities or a DTD" in refused(EXTERNAL)


def test_a_file_over_the_size_limit_is_refused_before_it_is_parsed():
    huge = b"<plays>" + b" " * FILE_LIMIT + b"</plays>"
    assert "too big" in refused(huge)


@pytest.mark.parametrize("raw, said", [
    ("not a file of plays", "neither BoardGameGeek plays XML nor BG Stats JSON"),
    ("<plays><play", "not valid XML"),
    ("<games/>", "starts with <plays>"),
    ('{"plays": 3}', "players, games and plays"),
    ('{"players": [], "games": [], "plays": [], "plays": []}', "twice"),
])
def test_what_is_not_a_file_of_plays_is_said_in_one_line(raw, said):
    assert said in refused(raw)


@pytest.mark.parametrize("players, said", [
    (player("Ana\x9b31m", "1") + player("Bo"), "control"),  # a C1 control: XML allows it
    (player("Ana\x1b[31m", "1") + player("Bo"), "not valid XML"),  # XML allows no ESC
    (player("-rf", "1") + player("Bo"), "may not start with '-'"),
    (player("A" * 25, "1") + player("Bo"), "at most 24"),
    (player("Ana", "1") + player("\u0410na"), "look alike"),
    (player("Ana", "1") + player("ana"), "Two players are named"),
    (player("Ana\u200b", "1") + player("Bo"), "invisible"),
    (player("Ana", "1", score="12.5") + player("Bo"), "whole number"),
    (player("Ana", "1", score="lots") + player("Bo"), "whole number"),
    (player("Ana", "1", color="re\x9bd") + player("Bo"), "colour"),
])
def test_bad_players_refuse_the_whole_file(players, said):
    message = refused(bgg_play(players))
    assert said in message, message


@pytest.mark.parametrize("day", ["2025-02-30", "yesterday", "25-11-07", "1066-10-14",
                                 "2999-01-01", ""])
def test_bad_dates_refuse_the_whole_file(day):
    assert "its date must be a day like 2026-03-06" in refused(bgg_play(TWO, day))


@pytest.mark.parametrize("when", ["2025-13-01 10:00:00", "tomorrow", 20251107, None])
def test_bad_bgstats_moments_refuse_the_whole_file(when):
    data = json.loads(BGSTATS)
    data["plays"][0]["playDate"] = when
    assert "playDate must be a moment" in refused(json.dumps(data))


def test_bgstats_hostile_shapes_are_said_in_one_line():
    data = json.loads(BGSTATS)
    data["plays"][0]["playerScores"][0]["playerRefId"] = 99
    assert "names no player" in refused(json.dumps(data))
    data = json.loads(BGSTATS)
    data["plays"][1]["durationMin"] = -5
    assert "durationMin" in refused(json.dumps(data))
    data = json.loads(BGSTATS)
    data["players"][0]["name"] = "[b]Ana[/b]\u202e"
    assert "text-direction" in refused(json.dumps(data)) or "control" in refused(
        json.dumps(data))
    data = json.loads(BGSTATS)
    data["plays"].append(data["plays"][0])
    assert "twice" in refused(json.dumps(data))
    deep = "[" * 100_000 + "]" * 100_000
    assert "nested too deeply" in refused('{"plays": ' + deep + "}")


@pytest.mark.parametrize("key", ["players", "games"])
def test_two_bgstats_entries_of_one_id_refuse_the_file_naming_the_id(key):
    """Which entry a play's reference means cannot be told: the file is refused (issue 46),
    where the play was stored with the second entry's name."""
    data = json.loads(BGSTATS)
    twin = dict(data[key][0], name="Ana again" if key == "players" else "Risk")
    data[key].append(twin)
    assert f"two entries of {key} have the id {twin['id']}" in refused(json.dumps(data))


def test_bgstats_nulls_and_whole_scores_written_as_decimals_are_read():
    data = json.loads(BGSTATS)
    data["plays"][0]["durationMin"] = data["plays"][0]["rounds"] = None
    data["plays"][1]["playerScores"][0]["score"] = 36.0
    data["plays"][1]["playerScores"][1]["score"] = "22.0"
    first, second, _soe = read_plays(json.dumps(data).encode()).plays
    assert (first.minutes, first.rounds) == (None, 0)
    assert [p.score for p in second.players] == [36, 22]
    data["plays"][1]["playerScores"][1]["score"] = 22.5
    assert "whole number" in refused(json.dumps(data))


def test_free_text_start_positions_and_long_colours_are_left_aside():
    found = read_plays(bgg_play(player("Ana", "1", startposition="first", color="Red, the "
                                       "one with the big armies") +
                                player("Bo", startposition="1", color="blue")).encode())
    assert seats(found.plays[0]) == [("Bo", 0, "blue", None, False),
                                     ("Ana", 1, None, None, True)]


def test_markup_looking_names_are_names():
    found = read_plays(bgg_play(player("[b]Ana[/b]", "1") + player("Bo[/]")).encode()
                       ).plays[0]
    assert [p.name for p in found.players] == ["[b]Ana[/b]", "Bo[/]"]


def test_a_play_with_a_player_count_its_game_does_not_take_is_counted_and_left():
    solo = bgg_play(player("Ana", "1"))
    assert read_plays(solo.encode()).skipped == {PLAYER_COUNT: 1}
    seven = bgg_play("".join(player(name) for name in "ABCDEFG"))
    assert read_plays(seven.encode()).skipped == {PLAYER_COUNT: 1}
    data = json.loads(BGSTATS)
    del data["plays"][1]["playerScores"][1]
    assert read_plays(json.dumps(data).encode()).skipped == {
        OTHER_GAMES: 1, UNFINISHED: 1, PLAYER_COUNT: 1}


def test_a_nameless_or_anonymous_player_is_a_seat_without_a_person():
    nameless = bgg_play(player("Ana", "1") + '<player username="" name="" win="0"/>')
    found = read_plays(nameless.encode()).plays[0]
    assert [(p.name, p.anonymous) for p in found.players] == [
        ("Ana", False), ("Anonymous player", True)]
    by_username = bgg_play(player("Ana", "1") + '<player username="bo_plays" name=""/>')
    assert [p.name for p in read_plays(by_username.encode()).plays[0].players] == [
        "Ana", "bo_plays"]
    data = json.loads(BGSTATS)
    data["players"][3]["isAnonymous"] = True  # Di, in the first two Risk plays
    found = read_plays(json.dumps(data).encode())
    assert found.skipped == {OTHER_GAMES: 1, UNFINISHED: 1}
    assert [[p.anonymous for p in play.players] for play in found.plays[:2]] == [
        [False, False, True], [False, True]]
    alone = bgg_play('<player username="" userid="0" name="Anonymous player" win="1"/>' * 2)
    assert read_plays(alone.encode()).skipped == {ANONYMOUS: 1}  # no person played


def test_plays_of_other_games_are_never_checked():
    # A play of another game is counted, whatever its players look like.
    other = bgg_play(player("\x9b", "1"), item='<item name="CATAN" objectid="13"/>')
    assert read_plays(other.encode()).skipped == {OTHER_GAMES: 1}


# ---------------------------------------------------------------- any play, both ways

@st.composite
def plays(draw) -> list[Play]:
    """Finished plays of either game: names any the rules take (none alike), sides of the
    box, scores or none, any winners, a day and a length."""
    out = []
    for number in range(draw(st.integers(1, 3))):
        game = draw(st.sampled_from(["risk", "soe"]))
        sides = RISK_COLOURS if game == "risk" else POWERS
        names: list[str] = []
        xml_names = printable_names.filter(lambda name: not NOT_IN_XML.search(name))
        for name in draw(st.lists(xml_names, min_size=2, max_size=6)):
            if not any(looks_alike(name, other) for other in names):
                names.append(name)
        assume(len(names) >= 2)
        chosen = draw(st.permutations(sides))
        scored = draw(st.booleans())
        players = tuple(
            Player(name, seat, chosen[seat], draw(st.integers(-50, 500)) if scored else None,
                   draw(st.booleans()))
            for seat, name in enumerate(names))
        day = draw(st.dates(date(1990, 1, 1), date(2025, 12, 31)))
        out.append(Play(game, datetime(day.year, day.month, day.day, 12, tzinfo=UTC),
                        draw(st.none() | st.integers(1, 600)), True, players,
                        source=f"bgg:{number + 1}"))
    return out


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(plays())
def test_any_play_written_in_either_format_reads_back_the_same(written):
    def told(play: Play) -> tuple:
        return (play.game, play.started.date(), play.minutes, seats(play))

    for raw in (bgg_xml(written).encode(), json.dumps(bgstats_json(written)).encode()):
        assert [told(p) for p in read_plays(raw).plays] == [told(p) for p in written]
