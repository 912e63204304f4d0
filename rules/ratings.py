"""Ratings with OpenSkill's Plackett-Luce model: every finished game is a free-for-all
ranking of its players by their places (rules.league.placings), rated in date order.

Ratings are derived data, never kept as the only copy: a book of them goes on by one more
game (RatingBook.add) when it finished after every game rated, and is worked out again from
the finished games when the history changed before that (storage/ratings_store.py). Each game counts in two scopes: its own
game's ("soe", "risk") and "all", across every game. A rating is shown as its conservative
figure, mu - 3 sigma, with sigma beside it, and is provisional below five games.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, TypeVar

from openskill.models import PlackettLuce

from rules.league import thinned as thin
from rules.played import FinishedGame

ALL = "all"  # the scope of every game together
PROVISIONAL_BELOW = 5  # games: a rating on fewer is marked provisional
# A player's rating over time keeps at most this many points per scope (evenly spaced, the
# last always kept): a chart is never wider than a screen, and a cached year stays small.
T = TypeVar("T")
HISTORY_POINTS = 240

MODEL = PlackettLuce()  # openskill's defaults: mu 25, sigma 25/3, beta 25/6, no tau


@dataclass(frozen=True)
class Rating:
    """A player's rating in one scope, and how many games it rests on."""

    mu: float
    sigma: float
    games: int

    @property
    def conservative(self) -> float:
        """mu - 3 sigma: the skill they very likely have at least."""
        return self.mu - 3 * self.sigma

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_BELOW

    def to_json(self) -> dict[str, Any]:
        return {"rating": self.conservative, "mu": self.mu, "sigma": self.sigma,
                "games": self.games,
                "provisional": self.provisional}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Rating:
        return cls(float(data["mu"]), float(data["sigma"]), int(data["games"]))


@dataclass
class RatingBook:
    """Every player's rating per scope after the games rated, and its course game after
    game (the conservative figure after each of their games, as (when, figure)), kept to
    at most HISTORY_POINTS points (kept_course). A book goes on: `add` rates one more game
    after every game rated so far, and gives what rating them all from the start gives."""

    ratings: dict[str, dict[str, Rating]] = field(default_factory=dict)
    # A course may be a storage.stats_cache.Course, read from the cache when looked at.
    history: dict[str, dict[str, Sequence[tuple[datetime, float]]]] = field(
        default_factory=dict)

    def of(self, scope: str) -> dict[str, Rating]:
        return self.ratings.get(scope, {})

    def add(self, game: FinishedGame) -> None:
        """Rate `game`, finished after every game this book rated, in its game's scope and
        in ALL."""
        if len(game.finishes) < 2:
            return  # a ranking of one says nothing of anyone's skill
        names = [f.player for f in game.finishes]
        ranks = [f.place for f in game.finishes]
        for scope in (game.game, ALL):
            now = self.ratings.setdefault(scope, {})
            courses = self.history.setdefault(scope, {})
            # A rating goes on from its figures alone: openskill reads mu and sigma.
            teams = [[MODEL.rating(mu=now[name].mu, sigma=now[name].sigma) if name in now
                      else MODEL.rating()] for name in names]
            for name, (rated,) in zip(names, MODEL.rate(teams, ranks=[float(r) for r in ranks]),
                                      strict=True):
                before = now.get(name)
                played = before.games if before is not None else 0
                now[name] = Rating(rated.mu, rated.sigma, played + 1)
                courses[name] = course_went_on(courses.get(name, []), played,
                                               (game.finished_at, rated.mu - 3 * rated.sigma))


def rate(games: Iterable[FinishedGame]) -> RatingBook:
    """Rate `games` in date order (then by key), each in its game's scope and in ALL."""
    book = RatingBook()
    for game in sorted(games, key=lambda g: g.order):
        book.add(game)
    return book


def stride(points: int, most: int = HISTORY_POINTS) -> int:
    """The spacing of the points kept of a course of `points`: the least power of two whose
    multiples (counted from the first point), with the last point, are at most `most`."""
    step = 1
    while (points - 1) // step + 2 > most:
        step *= 2
    return step


def kept_course(course: Sequence[T], most: int = HISTORY_POINTS) -> list[T]:
    """The points kept of a whole course: every stride(len)-th from the first, and the
    last. Evenly spaced, and a course that goes on keeps what it kept (course_went_on), so
    a book rated on from its cache is the book rated from the start."""
    step = stride(len(course), most)
    kept = list(course[::step])
    if (len(course) - 1) % step:
        kept.append(course[-1])
    return kept


def course_went_on(kept: Sequence[T], points: int, point: T, most: int = HISTORY_POINTS
                   ) -> list[T]:
    """kept_course of a course of `points` points (`kept`) and one more `point`."""
    if not points:
        return [point]
    step = stride(points, most)
    every = kept[:-1] if (points - 1) % step else kept  # the points at multiples of step
    wider = stride(points + 1, most)
    every = every[::wider // step]
    return [*every, point]  # the last point is always kept


def thinned(course: Sequence[T], most: int = HISTORY_POINTS) -> list[T]:
    """At most `most` points of `course` (HISTORY_POINTS), as rules.league thins a chart."""
    return thin(course, most)


def win_chances(ratings: Mapping[str, Rating], players: Sequence[str]) -> list[float] | None:
    """Each player's chance to win a game together (openskill's predict_win), in the order
    given; None unless every one of them has a rating and there are at least two."""
    if len(players) < 2 or any(p not in ratings for p in players):
        return None
    teams = [[MODEL.rating(mu=ratings[p].mu, sigma=ratings[p].sigma)] for p in players]
    return list(MODEL.predict_win(teams))
