"""Where a game stands (`Progress`) and the line the saved-games list shows of it (`Summary`).

Apart from rules/outcome.py (which gives them too) because the home screen's first frame
reads them: the rest of the outcome (standings, reports) loads after it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

FINISHED = "finished"
IN_PROGRESS = "in_progress"
# How a game known by its result alone was decided, and where it stands: imported from a
# file of plays (rules/plays), with no steps.
IMPORTED = "imported"


@dataclass(frozen=True)
class Progress:
    """Where a game stands as players say it: war 2 at upkeep, round 5."""

    unit: str  # what the game counts: "war", "round"
    number: int  # the one being played, counted from 1 as the table counts
    phase: str  # the tag of the phase the table is at (the rules' PHASE_NAMES name it)
    named: bool = True  # whether the phase is worth saying beside the number

    def to_json(self) -> dict[str, Any]:
        return {"unit": self.unit, "number": self.number, "phase": self.phase,
                "named": self.named}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Progress:
        """As stored in a game's summary; what is missing reads as the start of a game."""
        number = data.get("number")
        return cls(str(data.get("unit") or "round"),
                   number if isinstance(number, int) and not isinstance(number, bool) else 1,
                   str(data.get("phase") or ""), data.get("named") is not False)


@dataclass(frozen=True)
class Summary:
    """A saved game in a line: where it stands and who leads (the winners once over)."""

    progress: Progress
    leader: str | None
    stalemate: bool = False  # it ended in a stalemate (Report.stalemate)

    def to_json(self) -> dict[str, Any]:
        return {**self.progress.to_json(), "leader": self.leader,
                **({"stalemate": True} if self.stalemate else {})}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Summary:
        leader = data.get("leader")
        return cls(Progress.from_json(data), leader if isinstance(leader, str) else None,
                   data.get("stalemate") is True)
