"""The command line's group's story: statistics, groups, seasons, and moving a game
between groups (tui/cli/commands.py holds the commands of saved games and files)."""

from __future__ import annotations

import json
from typing import Any

from i18n import _, ngettext
from tui.cli.commands import (
    database_errors,
    fail,
    league_columns,
    open_ledger,
    or_joined,
    say,
    shown,
)

# ---------------------------------------------------------------- the group's story

def league(db: str | None, game: str | None = None, as_json: bool = False,
           group: str | None = None, season: str | None = None) -> None:
    """League standings over finished games: win 3, draw 1, loss 0."""
    from rules.names import GAME_NAMES

    if game is not None and game not in GAME_NAMES:
        # TRANSLATORS: {games} are the games' tags (soe or risk), {given} what was typed.
        fail(_("--game must be {games}, not {given}").format(
            games=or_joined(GAME_NAMES), given=shown(game)))
    ledger = open_ledger(db)
    with database_errors():
        rows = ledger.league(game, group, season)
    if as_json:
        say(json.dumps({"standings": [r.to_json() for r in rows]}, indent=2))
        return
    from rich.table import Table

    from tui.cli.printed import rich_console
    from tui.text.literal import literal

    # TRANSLATORS: {game} is a game's tag (soe, risk).
    title = _("League ({game})").format(game=game) if game else _("League")
    if group or season:
        title = f"{title}: {which_games(group, season)}"
    table = Table(title=printed(title))
    for col, heading in league_columns().items():
        table.add_column(heading, justify="left" if col == "player" else "right")
    for r in rows:
        table.add_row(*(literal(x) for x in (r.player, r.played, r.wins, r.draws, r.losses,
                                              r.points)))
    rich_console().print(table if rows else literal(_("No finished games yet.")))


def scope_name(scope: str) -> str:
    """A rating's scope as headed: 'all games', or a game's name."""
    from rules.names import game_name
    from rules.ratings import ALL

    return _("all games") if scope == ALL else game_name(scope)


def which_games(group: str | None, season: str | None) -> str:
    """'all groups, all time', 'Our table, Spring 2026'."""
    return _("{group}, {season}").format(group=group or _("all groups"),
                                         season=season or _("all time"))


def stats(db: str | None, group: str | None = None, season: str | None = None,
          player: str | None = None, as_json: bool = False) -> None:
    """The group's ratings, head to head, sides and seats, and each player's record."""
    ledger = open_ledger(db)
    with database_errors():
        got = ledger.stats(group, season)
    if player is not None and player not in got.players:
        fail(_("{player} has no finished game in {which}").format(
            player=shown(player), which=shown(which_games(group, season))))
    if as_json:
        say(json.dumps(stats_json(got, group, season, player), indent=2, ensure_ascii=False))
        return
    from tui.cli.printed import rich_console

    console = rich_console()
    for table in stats_tables(got, group, season, player):
        console.print(table)


def stats_json(got, group: str | None, season: str | None,
               player: str | None) -> dict[str, Any]:
    """What `stats --json` prints (README, "Statistics as JSON")."""
    whole = got.to_json()
    head = {"format": "warledger-stats/1", "group": group, "season": season}
    if player is None:
        return {**head, **whole}
    return {**head, "player": player, "games": whole["games"],
            "record": whole["players"][player],
            "ratings": {scope: rated[player] for scope, rated in whole["ratings"].items()
                        if player in rated},
            "rating_history": {scope: courses[player]
                               for scope, courses in whole["rating_history"].items()
                               if player in courses},
            "head_to_head": whole["head_to_head"].get(player, {})}


def printed(text: object):
    """Player text as a line of its own for Rich to print: literal, never markup."""
    from tui.text.literal import literal

    line = literal(text)
    line.end = "\n"
    return line


def stats_tables(got, group: str | None, season: str | None, player: str | None) -> list:
    """The statistics as Rich tables, every cell literal."""
    from rich.table import Table
    from rich.text import Text

    from tui.text.formatting import rating_hint, rating_words
    from tui.text.literal import literal

    def table(title: str, *headings: str | Text) -> Table:
        out = Table(title=printed(title), title_justify="left")
        for i, heading in enumerate(headings):
            out.add_column(heading, justify="left" if i == 0 else "right")
        return out

    which = which_games(group, season)
    if not got.games:
        return [printed(_("No finished games in {which} yet.").format(which=which))]
    tables: list = [printed(ngettext("{n} finished game in {which}",
                                     "{n} finished games in {which}", got.games).format(
                                         n=got.games, which=which))]
    players = [player] if player else sorted(got.players)
    for scope, rated in sorted(got.ratings.items(), key=lambda sr: sr[0] != "all"):
        shown_players = [p for p in players if p in rated]
        if not shown_players:
            continue
        ratings = table(_("Ratings: {scope}").format(scope=scope_name(scope)),
                        _("Player"), _("Rating"), _("Games"))
        for p in sorted(shown_players, key=lambda p: -rated[p].conservative):
            ratings.add_row(literal(p), literal(rating_words(rated[p])),
                            literal(rated[p].games))
        tables.append(ratings)
    tables.append(printed(rating_hint()))
    records = table(_("Players"), _("Player"), _("Games"), _("Wins"), _("Longest run"),
                    _("Nemesis"), _("Victim"))
    for p in players:
        r = got.players[p]
        records.add_row(*(literal(x) for x in (p, r.games, r.wins, r.longest_run,
                                               r.nemesis or "-", r.victim or "-")))
    tables.append(records)
    met = table(_("Head to head (ahead-behind-level)"), _("Player"),
                *(literal(o) for o in sorted(got.players)))
    for p in players:
        row = got.head_to_head.get(p, {})
        met.add_row(literal(p), *(literal(f"{row[o].ahead}-{row[o].behind}-{row[o].level}"
                                          if o in row else "")
                                  for o in sorted(got.players)))
    tables.append(met)
    if player is None:
        tables.extend(balance_tables(got, table))
    return tables


def balance_tables(got, table) -> list:
    """Per game: its sides (in the game's own word: powers, colours) and its seats, how
    often each won and the average score."""
    import tui.games  # noqa: F401 - the games' side words join the registry
    from rules.names import game_name
    from tui.screens.registry import screens_of
    from tui.text.literal import literal

    def add(out, name: str, tally) -> None:
        average = tally.average_score
        out.add_row(literal(name), literal(tally.games), literal(tally.wins),
                    literal(f"{tally.win_rate:.0%}"),
                    literal("-" if average is None else f"{average:.1f}"))

    tables = []
    headings = (_("Games"), _("Wins"), _("Win rate"), _("Average score"))
    for game, balance in sorted(got.balance.items()):
        screens = screens_of(game)
        word = _(screens.side_word) if screens and screens.side_word else None
        if screens is not None and balance.sides and word:  # a word comes with its screens
            # TRANSLATORS: a table's title: "Struggle of Empires by power".
            sides = table(_("{game} by {side}").format(game=game_name(game), side=word.lower()),
                          word, *headings)
            for side, tally in sorted(balance.sides.items(),
                                      key=lambda st: (-st[1].win_rate, st[0])):
                add(sides, screens.side_name(side), tally)
            tables.append(sides)
        seats = table(_("{game} by seat").format(game=game_name(game)), _("Seat"), *headings)
        for seat, tally in sorted(balance.seats.items()):
            add(seats, str(seat + 1), tally)
        tables.append(seats)
    return tables


def _changed(change) -> Any:
    """What a change to groups or seasons gives back; bad input or an unknown name: one
    line, nothing changed."""
    from rules.errors import RuleError

    with database_errors():
        try:
            return change()
        except RuleError as e:
            fail(_("{reason}; nothing was changed").format(reason=e))


def group_list(db: str | None) -> None:
    ledger = open_ledger(db)
    with database_errors():
        groups = ledger.groups()
    for g in groups:
        say(shown(ngettext("{group}: {n} game", "{group}: {n} games", g.games).format(
            group=g.name, n=g.games)))


def group_add(db: str | None, name: str) -> None:
    ledger = open_ledger(db)
    name = _changed(lambda: ledger.add_group(name))
    say(shown(_("Group {group} added").format(group=name)))


def group_rename(db: str | None, old: str, new: str) -> None:
    ledger = open_ledger(db)
    new = _changed(lambda: ledger.rename_group(old, new))
    say(shown(_("Group {old} is now called {new}").format(old=old, new=new)))


def season_line(season) -> str:
    # TRANSLATORS: a season: "Our table: Spring (2026-03-01 to 2026-05-31, ratings carry
    # over)".
    how = (_("ratings carry over") if season.carry_over else _("ratings start afresh"))
    return _("{group}: {season} ({starts} to {ends}, {how})").format(
        group=season.group, season=season.name, starts=season.starts.isoformat(),
        ends=season.ends.isoformat(), how=how)


def season_list(db: str | None, group: str | None = None) -> None:
    ledger = open_ledger(db)
    with database_errors():
        seasons = ledger.seasons(group)
    if not seasons:
        say(_("No seasons yet: `warledger season add NAME --from DAY --to DAY` adds one."))
    for season in seasons:
        say(shown(season_line(season)))


def day(value: str, what: str):
    """A calendar day typed as 2026-03-01; one line and exit 1 for anything else."""
    from datetime import date

    try:
        return date.fromisoformat(value.strip())
    except ValueError:
        # TRANSLATORS: {what} is --from or --to, {given} what was typed.
        fail(_("{what} must be a day written as 2026-03-01, not {given}").format(
            what=what, given=shown(value)))


def season_add(db: str | None, name: str, starts: str, ends: str, group: str | None = None,
               carry_over: bool = False) -> None:
    first, last = day(starts, "--from"), day(ends, "--to")
    ledger = open_ledger(db)

    def add():
        return ledger.add_season(group or ledger.default_group(), name, first, last,
                                 carry_over=carry_over)

    say(shown(_("Season added: {season}").format(season=season_line(_changed(add)))))


def season_remove(db: str | None, name: str, group: str | None = None) -> None:
    ledger = open_ledger(db)

    def remove():
        chosen = group or ledger.default_group()
        ledger.remove_season(chosen, name)
        return chosen

    chosen = _changed(remove)
    say(shown(_("Season {season} of {group} removed; its games stay").format(
        season=name, group=chosen)))


def move(db: str | None, session: int, group: str) -> None:
    ledger = open_ledger(db)
    group = _changed(lambda: ledger.move_game(session, group))
    say(shown(_("Game {game} is now in group {group}").format(game=session, group=group)))
