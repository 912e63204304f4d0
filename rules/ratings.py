"""Ratings with OpenSkill's Plackett-Luce model: every finished game is a free-for-all
ranking of its players by their places (rules.league.placings), rated in date order.

Ratings are derived data: they are worked out again from the finished games whenever the
games change, and never kept as the only copy. Each game counts in two scopes: its own
game's ("soe", "risk") and "all", across every game. A rating is shown as its conservative
figure, mu - 3 sigma, with sigma beside it, and is provisional below five games.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, TypeVar

from openskill.models import PlackettLuce, PlackettLuceRating

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
    game (the conservative figure after each of their games, as (when, figure))."""

    ratings: dict[str, dict[str, Rating]] = field(default_factory=dict)
    history: dict[str, dict[str, list[tuple[datetime, float]]]] = field(default_factory=dict)

    def of(self, scope: str) -> dict[str, Rating]:
        return self.ratings.get(scope, {})


def rate(games: Iterable[FinishedGame]) -> RatingBook:
    """Rate `games` in date order (then by key), each in its game's scope and in ALL."""
    current: dict[str, dict[str, PlackettLuceRating]] = {}
    history: dict[str, dict[str, list[tuple[datetime, float]]]] = {}
    for game in sorted(games, key=lambda g: g.order):
        if len(game.finishes) < 2:
            continue  # a ranking of one says nothing of anyone's skill
        names = [f.player for f in game.finishes]
        ranks = [f.place for f in game.finishes]
        when = game.finished_at
        for scope in (game.game, ALL):
            now = current.setdefault(scope, {})
            courses = history.setdefault(scope, {})
            teams = [[now.get(name) or MODEL.rating()] for name in names]
            for name, (rated,) in zip(names, MODEL.rate(teams, ranks=[float(r) for r in ranks]),
                                      strict=True):
                now[name] = rated
                courses.setdefault(name, []).append((when, rated.mu - 3 * rated.sigma))
    # A player's games in a scope are the points of their course there.
    return RatingBook(
        {scope: {name: Rating(r.mu, r.sigma, len(history[scope][name]))
                 for name, r in now.items()}
         for scope, now in current.items()},
        {scope: {name: thinned(course) for name, course in courses.items()}
         for scope, courses in history.items()})


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
