"""Risk on the results screen: the columns of its standings, how fixed-round scores add up,
the missions (shown now the game is over), and a chart of the rounds."""

from __future__ import annotations

from rich.text import Text

from i18n import N_, _
from rules.risk import mission_text
from rules.risk.board import shown
from rules.risk.progress import score_by_round, territories_by_round
from tui.games.risk.game import scoring_lines
from tui.screens.results import Chart, ResultWords, cell
from tui.text.literal import lines, words


class RiskResultWords(ResultWords):
    # TRANSLATORS: the headings of the final standings' columns, kept short.
    headings = {"color": N_("colour"), "territories": N_("terr."),
                "continents": N_("continents"), "armies": N_("armies"), "score": N_("score"),
                "eliminated": N_("out")}
    word_columns = ("color", "continents")
    wrapped_columns = ("continents",)
    spare_columns = ("color", "continents")  # the score's reasons are under the table
    hidden_columns = ("mission",)

    def value(self, column: str, value) -> str:
        """The box's colours and the continents in the reader's language (the report keeps
        their ids)."""
        if column == "color" and isinstance(value, str):
            value = shown(value)
        elif column == "continents" and isinstance(value, list):
            value = [shown(continent) for continent in value]
        return cell(value)

    def explanation(self, game) -> Text | str:
        """Fixed-round scoring: how each score adds up and how the top was decided."""
        state = game.state
        if state.format != "fixed_round":
            return ""
        return scoring_lines(_("How the scores add up"), state)

    def notes(self, game) -> Text | str:
        """Each player's secret mission, as a sentence: the game is over, the cards shown."""
        revealed = [s for s in game.report().standings if s.details.get("mission")]
        if not revealed:
            return ""
        return lines(words((_("Missions"), "bold")),
                     *(words((s.player, "bold"), f" ({shown(s.details['color'])}): ",
                             mission_text(s.details["mission"])) for s in revealed))

    def chart(self, game):
        timeline, fixed = game.timeline, game.settings.mode == "fixed_rounds"
        return lambda: rounds_chart(timeline, fixed)


def rounds_chart(timeline, fixed_rounds: bool) -> Chart:
    """The score after each round with positions (fixed rounds), or the territories held
    (a conquest or missions game); no points if none was entered."""
    if fixed_rounds:
        heading, got = _("Score after each round"), score_by_round(timeline)
    else:
        heading, got = _("Territories after each round"), territories_by_round(timeline)
    return (heading, [str(r) for r in got.rounds],
            {name: list(values) for name, values in got.values.items()})


RESULT_WORDS = RiskResultWords()
