"""Scoring the 11 regions at the end of a war, with the tie options of this game."""

from __future__ import annotations

from collections.abc import Iterable

from rules.soe.regions import REGIONS, score_region
from rules.soe.state import Grid, RegionResult, SoeState


def score_regions(state: SoeState, grid: Grid) -> list[RegionResult]:
    """Score every region of `grid` with the settings of this game (no state change)."""
    s = state.settings
    return [
        RegionResult(region, tuple(s.regions[region]), tuple(score_region(
            region, s.regions[region], grid.get(region, {}), frozenset(state.powers),
            player_count=len(state.seats), friendly_ties=s.friendly_ties,
            unfriendly_ties=s.unfriendly_ties)))
        for region in REGIONS
    ]


def vp_won(state: SoeState, results: Iterable[RegionResult]) -> dict[str, int]:
    """The VP each power played wins from one scoring (non-player powers' VP is thrown away)."""
    gained = {p: 0 for p in state.powers}
    for result in results:
        for award in result.awards:
            if award.scores:
                gained[award.power] += award.vp
    return gained


def vp_of_last_scoring(state: SoeState) -> dict[str, int]:
    """The VP each power played won at the latest scoring, from its awards (all 0 before
    the first scoring)."""
    return vp_won(state, state.last_scoring)
