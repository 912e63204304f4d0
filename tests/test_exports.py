"""Export reads in bulk (issue 48): a finished game is written from its stored result, not
folded again from its steps; every game of an export is read in a few statements whatever
their number, and the file is written a day at a time into the same bytes as the writers
give for every play at once."""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import event

from rules.errors import RuleError
from rules.plays import bgg_xml, bgstats_json, read_plays
from storage.plays import ResultOnly, play_of_fold
from tests.short_games import risk_night, soe_war
from tests.test_plays import BGG, BGSTATS


def mixed(ledger) -> None:
    """Games played here over several days (a win with a player out, a shared win, a
    Struggle of Empires win, one in progress, one whose file seats `ana` for the league's
    `Ana`), and plays imported from both files."""
    day = datetime(2026, 3, 1, 18, tzinfo=UTC)
    files = [risk_night(["Ana", "Bo", "Cy"], out=("Di",)), risk_night(["Bo", "Ana"], shared=True),
             soe_war(["Ana", "Bo", "Cy", "Di"], 2), risk_night(["ana", "Cy", "Bo"])]
    half = soe_war(["Di", "Cy", "Bo", "Ana"], 1)
    half["steps"] = half["steps"][:4]
    for n, file in enumerate([*files, half]):
        # two games a day, the second set up before the first ended
        start = day + timedelta(days=n // 2, minutes=20 * (n % 2))
        file.update(created_at=start.isoformat())
        if n < 4:
            file["finished_at"] = (start + timedelta(hours=2 - n % 2)).isoformat()
        ledger.replay(file)
    ledger.import_plays(read_plays(BGG).plays)
    ledger.import_plays(read_plays(BGSTATS).plays)


def folded_plays(ledger) -> list:
    """Every game as a play the way the export made them before: each game folded."""
    plays = []
    for listing in sorted(ledger.games(), key=lambda g: (_created(ledger, g.id), g.id)):
        game = ledger.load(listing.id)
        if isinstance(game, ResultOnly):
            plays.append(game.play())
            continue
        exported = ledger.export(listing.id)
        created = datetime.fromisoformat(exported["created_at"])
        finished = exported.get("finished_at")
        plays.append(play_of_fold(game, exported["id"], created,
                                  datetime.fromisoformat(finished) if finished else None))
    return plays


def _created(ledger, session_id: int) -> datetime:
    game = ledger.load(session_id)
    if isinstance(game, ResultOnly):
        return game.created_at
    return datetime.fromisoformat(ledger.export(session_id)["created_at"])


def written(ledger, format: str, **chosen) -> str:
    out = io.StringIO()
    with ledger.write_plays(format, **chosen) as file:
        file.write_to(out)
    return out.getvalue()


@contextlib.contextmanager
def statements_sent(engine) -> Iterator[list[str]]:
    """The statements `engine` sends while the block runs."""
    statements: list[str] = []

    def told(_conn, _cursor, statement, *_args) -> None:
        statements.append(statement)

    event.listen(engine, "before_cursor_execute", told)
    try:
        yield statements
    finally:
        event.remove(engine, "before_cursor_execute", told)


def test_finished_games_are_written_from_their_results_as_their_folds_give_them(ledger):
    mixed(ledger)
    assert ledger.plays() == folded_plays(ledger)
    names = {p.name for play in ledger.plays() for p in play.players}
    assert "ana" in names and "Ana" in names  # as each game was set up


def test_the_files_are_the_bytes_the_writers_give_for_every_play_at_once(ledger):
    mixed(ledger)
    plays = folded_plays(ledger)
    assert written(ledger, "bgg") == bgg_xml(plays)
    assert written(ledger, "bgstats") == json.dumps(bgstats_json(plays), indent=2,
                                                    ensure_ascii=False) + "\n"
    chosen = [plays[2], plays[0]]
    ids = [next(g.id for g in ledger.games() if ledger.plays([g.id])[0] == play)
           for play in chosen]
    assert written(ledger, "bgg", sessions=ids) == bgg_xml(chosen)


def test_nothing_to_write_writes_the_empty_files(ledger):
    assert written(ledger, "bgg") == bgg_xml([])
    assert written(ledger, "bgstats") == json.dumps(bgstats_json([]), indent=2) + "\n"


def test_a_name_xml_cannot_hold_refuses_the_file_whole(ledger):
    ledger.replay(risk_night(["Ana", "Bo"]))
    ledger.replay(risk_night(["Ana", "B\ufffeo"]))
    with pytest.raises(RuleError, match="no XML file can hold"):
        ledger.write_plays("bgg")


def test_an_export_reads_every_game_in_a_few_statements_whatever_their_number(ledger):
    """Seven statements a game before (each game folded); now the same few for 3 games as
    for 30, and no fold."""
    counts = []
    for games in (3, 30):
        while len(ledger.games()) < games:
            n = len(ledger.games())
            ledger.replay(risk_night(["Ana", "Bo", "Cy"][n % 3:] + ["Ana", "Bo", "Cy"][:n % 3]))
        ledger._folds.clear()
        with statements_sent(ledger.engine) as statements:
            text = written(ledger, "bgg")
        assert text.count("<play ") == games
        assert not ledger._folds  # nothing folded
        counts.append(len(statements))
    assert counts[0] == counts[1] <= 8, counts


def test_games_in_progress_are_folded_from_reads_in_bulk(ledger):
    """A game in progress is folded from its row, snapshot and seats read for all of them
    alongside the rest: the same few statements for 3 such games as for 30 (five a game
    before), and the plays their folds give, a snapshot other rules wrote or none too."""
    from sqlalchemy import delete, update

    from storage.core import SNAPSHOT_T

    counts = []
    for games in (3, 30):
        while len(ledger.games()) < games:
            half = soe_war(["Di", "Cy", "Bo", "Ana"], 1)
            half["steps"] = half["steps"][:4]
            ledger.replay(half)
        ledger._folds.clear()
        with statements_sent(ledger.engine) as statements:
            text = written(ledger, "bgstats")
        assert text.count('"ignored": true') == games
        assert not ledger._folds  # nothing folded one game at a time
        counts.append(len(statements))
    assert counts[0] == counts[1] <= 8, counts
    first, second = (g.id for g in ledger.games()[:2])
    with ledger.engine.begin() as conn:
        conn.execute(update(SNAPSHOT_T).where(SNAPSHOT_T.c.session_id == first)
                     .values(rules_version="other rules"))
        conn.execute(delete(SNAPSHOT_T).where(SNAPSHOT_T.c.session_id == second))
    ledger._folds.clear()
    folded = folded_plays(ledger)
    assert ledger.plays() == folded
    made = sorted(ledger.games(), key=lambda g: (_created(ledger, g.id), g.id))
    of_game = {g.id: play for g, play in zip(made, folded, strict=True)}
    assert ledger.plays([second, first]) == [of_game[second], of_game[first]]  # games named


def test_the_plays_written_without_elements_are_the_bytes_elementtree_writes():
    """rules.plays.bgg_texts (what an export writes) against bgg_xml (ElementTree), with
    every character either escapes in a title, a location, a name, a colour and an account."""
    from dataclasses import replace

    from rules.plays import Said, bgg_texts

    plays = list(read_plays(BGG).plays)
    for odd in ('a&b <c> "d"\te\r\nf\x01', *'&<>"\t\r\n\x01'):  # each alone too
        plays += [replace(play, title=odd, location=odd, comments=None, bgg_play=None,
                          players=tuple(replace(p, name=f"{p.name}{odd.strip(chr(1))}",
                                                said=Said(position=odd, role=odd,
                                                          username=odd, userid=odd, new=True))
                                        for p in play.players))
                  for play in read_plays(BGG).plays]
    body = "".join("\n  " + text for text in bgg_texts(plays))
    head = f'<?xml version="1.0" encoding="utf-8"?>\n<plays total="{len(plays)}" page="1">'
    assert head + body + "\n</plays>\n" == bgg_xml(plays)


def test_the_bg_stats_plays_written_as_text_are_the_bytes_json_writes():
    """rules.plays.bgstats_texts (what an export writes, storage.exports.bgstats_file)
    against json.dumps(bgstats_json(...), indent=2): every field a play and a player can
    say, with characters json escapes (or not: ensure_ascii=False) in each text, a play
    without players, and players met again with an account said later."""
    from dataclasses import replace

    from rules.plays import Said
    from storage.exports import bgstats_file

    plays = [*read_plays(BGSTATS).plays, *read_plays(BGG).plays]
    for odd in ('a"b\\c\td\r\ne\x01\x7f é \u2028 🎲', *'"\\\t\x00\u2028é'):
        plays += [replace(play, title=odd, comments=odd if n % 2 else None,
                          location=odd if n % 3 else None, location_uuid=None,
                          bgg_play=None if n % 2 else 7, manual_winner=bool(n % 2),
                          players=tuple(replace(p, name=f"{p.name}{odd}", score=None,
                                                said=Said(position=odd, role=odd,
                                                          username=odd, rank=n, new=True,
                                                          first=True))
                                        for p in play.players))
                  for n, play in enumerate(read_plays(BGSTATS).plays)]
    plays.append(replace(plays[0], players=(), finished=False))
    out = io.StringIO()
    with bgstats_file(plays) as file:
        file.write_to(out)
    assert out.getvalue() == json.dumps(bgstats_json(plays), indent=2,
                                        ensure_ascii=False) + "\n"
