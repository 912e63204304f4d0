"""The group's story from its finished games: who finishes ahead of whom (head to head,
nemesis and victim), which sides and seats win (with how many games each figure rests on,
so a small sample shows as small), and each player's record.

Everything here is a fold of `FinishedGame`s (rules/played.py) together with the ratings
of rules/ratings.py; `GroupStats.to_json` is what `warledger stats --json` prints, and what
the ledger caches (README, "Statistics as JSON").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from itertools import combinations
from typing import Any

from rules.played import FinishedGame
from rules.ratings import ALL, Rating, RatingBook


@dataclass
class Tally:
    """Games with a side or a seat: how many, how many won, and the scores they made."""

    games: int = 0
    wins: int = 0
    score_total: int = 0
    scored: int = 0  # games with a score

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def average_score(self) -> float | None:
        return self.score_total / self.scored if self.scored else None

    def count(self, won: bool, score: int | None) -> None:
        self.games += 1
        self.wins += won
        if score is not None:
            self.score_total += score
            self.scored += 1

    def to_json(self) -> dict[str, Any]:
        return {"games": self.games, "wins": self.wins, "win_rate": self.win_rate,
                "average_score": self.average_score,
                "score_total": self.score_total, "scored": self.scored}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Tally:
        return cls(int(data["games"]), int(data["wins"]), int(data["score_total"]),
                   int(data["scored"]))


@dataclass
class Meeting:
    """How two players' games together went, as the first of them saw it."""

    ahead: int = 0  # games they finished ahead of the other
    behind: int = 0  # games the other finished ahead of them
    level: int = 0  # games they finished level

    @property
    def games(self) -> int:
        return self.ahead + self.behind + self.level

    def to_json(self) -> dict[str, int]:
        return {"ahead": self.ahead, "behind": self.behind, "level": self.level}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Meeting:
        return cls(int(data["ahead"]), int(data["behind"]), int(data["level"]))


@dataclass
class PlayerRecord:
    """One player's story in the games counted."""

    games: int = 0
    wins: int = 0
    longest_run: int = 0  # the most games won one after another
    best_side: dict[str, str | None] = field(default_factory=dict)  # game -> side
    best_seat: dict[str, int | None] = field(default_factory=dict)  # game -> seat (0 first)
    nemesis: str | None = None  # who finished ahead of them most often
    victim: str | None = None  # whom they finished ahead of most often
    # Their games with each side and at each seat, per game: what "best" rests on.
    sides: dict[str, dict[str, Tally]] = field(default_factory=dict)
    seats: dict[str, dict[int, Tally]] = field(default_factory=dict)  # 0 for the first seat

    def to_json(self) -> dict[str, Any]:
        return {"games": self.games, "wins": self.wins, "longest_run": self.longest_run,
                "best_side": dict(self.best_side),
                "best_seat": {g: None if s is None else s + 1
                              for g, s in self.best_seat.items()},
                "nemesis": self.nemesis, "victim": self.victim,
                "sides": {g: {side: t.to_json() for side, t in sorted(by.items())}
                          for g, by in sorted(self.sides.items())},
                "seats": {g: {str(seat + 1): t.to_json() for seat, t in sorted(by.items())}
                          for g, by in sorted(self.seats.items())}}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PlayerRecord:
        return cls(int(data["games"]), int(data["wins"]), int(data["longest_run"]),
                   dict(data["best_side"]),
                   {g: None if s is None else int(s) - 1 for g, s in data["best_seat"].items()},
                   data["nemesis"], data["victim"],
                   {g: {side: Tally.from_json(t) for side, t in by.items()}
                    for g, by in data["sides"].items()},
                   {g: {int(seat) - 1: Tally.from_json(t) for seat, t in by.items()}
                    for g, by in data["seats"].items()})


@dataclass
class Balance:
    """One game's sides and seats: how often each won."""

    sides: dict[str, Tally] = field(default_factory=dict)
    seats: dict[int, Tally] = field(default_factory=dict)  # 0 for the first seat

    def to_json(self) -> dict[str, Any]:
        return {"sides": {side: t.to_json() for side, t in sorted(self.sides.items())},
                "seats": {str(seat + 1): t.to_json() for seat, t in sorted(self.seats.items())}}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Balance:
        return cls({side: Tally.from_json(t) for side, t in data["sides"].items()},
                   {int(seat) - 1: Tally.from_json(t) for seat, t in data["seats"].items()})


@dataclass
class GroupStats:
    """Everything the league's statistics show, for one group and season."""

    games: int = 0
    ratings: dict[str, dict[str, Rating]] = field(default_factory=dict)  # scope -> player
    # scope -> player; a Mapping: the cache reads it when first looked at (storage.stats_cache)
    history: Mapping[str, dict[str, Sequence[tuple[datetime, float]]]] = field(
        default_factory=dict)
    head_to_head: dict[str, dict[str, Meeting]] = field(default_factory=dict)
    balance: dict[str, Balance] = field(default_factory=dict)  # game -> its sides and seats
    players: dict[str, PlayerRecord] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "ratings": {scope: {p: r.to_json() for p, r in sorted(rated.items())}
                        for scope, rated in sorted(self.ratings.items())},
            "rating_history": {scope: {p: [[when.isoformat(timespec="seconds"), x]
                                           for when, x in course]
                                       for p, course in sorted(courses.items())}
                               for scope, courses in sorted(self.history.items())},
            "head_to_head": {p: {o: m.to_json() for o, m in sorted(met.items())}
                             for p, met in sorted(self.head_to_head.items())},
            "balance": {g: b.to_json() for g, b in sorted(self.balance.items())},
            "players": {p: r.to_json() for p, r in sorted(self.players.items())},
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GroupStats:
        from datetime import datetime

        return cls(
            int(data["games"]),
            {scope: {p: Rating.from_json(r) for p, r in rated.items()}
             for scope, rated in data["ratings"].items()},
            {scope: {p: [(datetime.fromisoformat(when), float(x)) for when, x in course]
                     for p, course in courses.items()}
             for scope, courses in data["rating_history"].items()},
            {p: {o: Meeting.from_json(m) for o, m in met.items()}
             for p, met in data["head_to_head"].items()},
            {g: Balance.from_json(b) for g, b in data["balance"].items()},
            {p: PlayerRecord.from_json(r) for p, r in data["players"].items()})

    def rating(self, player: str, scope: str = ALL) -> Rating | None:
        return self.ratings.get(scope, {}).get(player)


def head_to_head(games: Iterable[FinishedGame]) -> dict[str, dict[str, Meeting]]:
    """For every two players who met: how often each finished ahead of the other."""
    met: dict[str, dict[str, Meeting]] = {}
    for game in games:
        _met(met, game)
    return met


def nemesis(meetings: Mapping[str, Meeting]) -> str | None:
    """Who finished ahead of this player most often (more meetings, then the name, settle a
    tie); None if nobody ever did."""
    best = max(meetings.items(), key=lambda om: (om[1].behind, om[1].games, _last(om[0])),
               default=None)
    return best[0] if best and best[1].behind else None


def victim(meetings: Mapping[str, Meeting]) -> str | None:
    """Whom this player finished ahead of most often; None if they never did."""
    best = max(meetings.items(), key=lambda om: (om[1].ahead, om[1].games, _last(om[0])),
               default=None)
    return best[0] if best and best[1].ahead else None


def _last(name: str) -> tuple[int, ...]:
    """A key that puts names in reverse order, so that max() picks the first by name."""
    return tuple(-ord(c) for c in name)


def balance(games: Iterable[FinishedGame]) -> dict[str, Balance]:
    """Per game, each side's and each seat's games, wins and scores."""
    out: dict[str, Balance] = {}
    for game in games:
        _balanced(out, game)
    return out


def _best(tallies: Mapping[Any, Tally]) -> Any | None:
    """The one won most often (win rate, then games, then the first by its order)."""
    if not tallies:
        return None
    return min(tallies, key=lambda k: (-tallies[k].win_rate, -tallies[k].games, k))


def records(games: Iterable[FinishedGame],
            met: Mapping[str, Mapping[str, Meeting]]) -> dict[str, PlayerRecord]:
    """Every player's games, wins, longest winning run, best side and seat per game, and
    their nemesis and victim."""
    out: dict[str, PlayerRecord] = {}
    touched = _count_records(out, {}, sorted(games, key=lambda g: g.order))
    for player in touched:
        _judged(out[player], met.get(player, {}))
    return out


def _count_records(out: dict[str, PlayerRecord], run: dict[str, int],
                   games: Iterable[FinishedGame]) -> set[str]:
    """Count `games` (in order, after every game counted in `out`) in each player's record;
    `run` is each player's winning run so far. The players counted."""
    touched = set()
    for game in games:
        for f in game.finishes:
            record = out.setdefault(f.player, PlayerRecord())
            touched.add(f.player)
            record.games += 1
            record.wins += f.won
            run[f.player] = run.get(f.player, 0) + 1 if f.won else 0
            record.longest_run = max(record.longest_run, run[f.player])
            if f.side is not None:
                (record.sides.setdefault(game.game, {})
                 .setdefault(f.side, Tally()).count(f.won, f.score))
            record.seats.setdefault(game.game, {}).setdefault(f.seat, Tally()).count(
                f.won, f.score)
    return touched


def _judged(record: PlayerRecord, meetings: Mapping[str, Meeting]) -> None:
    """A record's best side and seat, nemesis and victim, from what it counts."""
    record.best_side = {g: _best(t) for g, t in sorted(record.sides.items())}
    record.best_seat = {g: _best(t) for g, t in sorted(record.seats.items())}
    record.nemesis = nemesis(meetings)
    record.victim = victim(meetings)


def group_stats(games: Iterable[FinishedGame], book: RatingBook) -> GroupStats:
    """The statistics of `games`, with the ratings of `book` (which may rest on more games:
    a season whose ratings carry over from the seasons before)."""
    stats = GroupStats(0, book.ratings, book.history)
    went_on(stats, {}, games)
    return stats


def went_on(stats: GroupStats, run: dict[str, int], games: Iterable[FinishedGame]) -> None:
    """`stats` with `games` counted, each finished after every game counted so far (`run`:
    each player's winning run so far, as went_on leaves it): what group_stats gives of
    them all from the start (the ratings are the book's, gone on apart)."""
    games = sorted(games, key=lambda g: g.order)
    stats.games += len(games)
    for game in games:
        _met(stats.head_to_head, game)
        _balanced(stats.balance, game)
    touched = _count_records(stats.players, run, games)
    for player in touched:  # only these games' players' meetings changed
        _judged(stats.players[player], stats.head_to_head.get(player, {}))


def _met(met: dict[str, dict[str, Meeting]], game: FinishedGame) -> None:
    for a, b in combinations(game.finishes, 2):
        ab = met.setdefault(a.player, {}).setdefault(b.player, Meeting())
        ba = met.setdefault(b.player, {}).setdefault(a.player, Meeting())
        if a.place < b.place:
            ab.ahead += 1
            ba.behind += 1
        elif b.place < a.place:
            ab.behind += 1
            ba.ahead += 1
        else:
            ab.level += 1
            ba.level += 1


def _balanced(out: dict[str, Balance], game: FinishedGame) -> None:
    got = out.setdefault(game.game, Balance())
    for f in game.finishes:
        if f.side is not None:
            got.sides.setdefault(f.side, Tally()).count(f.won, f.score)
        got.seats.setdefault(f.seat, Tally()).count(f.won, f.score)
