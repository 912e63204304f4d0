"""How a Struggle of Empires game went, region by region: the VP each region gave each power,
every war's scoring added up. The state keeps only the last scoring, so the scorings are
read back from the timeline of states."""

from __future__ import annotations

from typing import cast

from rules.soe.state import SoeState
from rules.timeline import Timeline


def vp_by_region(timeline: Timeline) -> dict[str, dict[str, int]]:
    """Each region's VP to each power, every war's scoring added up (regions in the order
    they were scored; a non-player power's discarded VP left out). Reading the past of a
    resumed timeline may fold the game from its steps: call it off the event loop."""
    by_region: dict[str, dict[str, int]] = {}
    states = cast("list[SoeState]", timeline.states)  # a Struggle of Empires timeline
    for step, after in zip(timeline.steps, states[1:], strict=True):
        if getattr(step, "kind", None) != "scoring":
            continue
        for result in after.last_scoring:
            row = by_region.setdefault(result.region, {})
            for award in result.awards:
                if award.scores:
                    row[award.power] = row.get(award.power, 0) + award.vp
    return by_region
