"""The Struggle of Empires game screen: one war after another, step by step."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding
from textual.widgets import Static

from i18n import N_, _, ngettext, pgettext
from rules.soe import (
    MAX_POPULATION,
    PHASE_NAMES,
    PHASES,
    POPULATION_GROWTH,
    REVOLUTION_AT,
    WARS,
    SoeState,
    vp_of_last_scoring,
)
from rules.soe.regions import shown
from rules.soe.state import step_by_itself
from tui.games.soe.forms import (
    FORMS,
    EndOfWarForm,
    IncomeForm,
    MarkerTotalsForm,
    ScoringForm,
    UpkeepForm,
    shows_non_players,
)
from tui.screens.game import GameScreen
from tui.screens.seats import NARROW_BELOW
from tui.text.formatting import and_joined, signed
from tui.text.literal import lines, literal, words
from tui.widgets.number_grid import TYPING_HELP
from tui.widgets.phase_bar import PhaseBar
from tui.widgets.totals import TotalsPanel

# Message ids: shown through _() (SoeGameScreen.show_header), {growth} and {most} filled in.
STEP_TITLES = {
    "actions": N_("Actions of the war, then income"),
    "upkeep": N_("Upkeep: 1 gold per army, fleet and fortress on the map"),
    # TRANSLATORS: {growth} is what each population gains (3), {most} the highest it goes.
    "population": N_("Population: +{growth} each, up to {most}"),
    "scoring": N_("Scoring: the 11 VP regions"),
    "end_war": N_("End of war: the checklist"),
    "end_game": N_("End of game: unrest, revolution and final VP"),
}
# {tax} and the like are the keys of those bindings (SoeGameScreen.step_hint fills them in).
STEP_HINTS = {
    # TRANSLATORS: {tax}, {adjust}, {toggle_income} and {non_players} are keys (ctrl+x).
    "actions": N_("During the war: taxation {tax}, correction {adjust}. At its end, each "
                  "power's control markers per region (as last entered: change what "
                  "changed), Enter confirms. {toggle_income}: one total per player; "
                  "{non_players}: non-player powers (°)."),
    # TRANSLATORS: 'Tax tokens drawn' is the heading of the upkeep grid's last column.
    "upkeep": N_("Units on the map, as at the last upkeep: change what changed. A player "
                 "short of gold must tax: type each unrest token drawn under 'Tax tokens "
                 "drawn'."),
    "population": "",
    "scoring": N_("Control markers per region, as entered at income (correct them if the "
                  "map changed). Non-player powers (°) take places but never score."),
    # TRANSLATORS: {tick_all} is a key (a).
    "end_war": N_("Tick each item as the table does it (x), then Enter; {tick_all}: all "
                  "done, the next war."),
    # TRANSLATORS: {undo} is a key (ctrl+z).
    "end_game": N_("Press Enter to end the game; {undo} still takes it back."),
}


def figure(key: str) -> str:
    """A figure a correction changes, as its message names it ("gold -2, unrest +1")."""
    return {"gold": pgettext("figure", "gold"), "population": pgettext("figure", "population"),
            "unrest": pgettext("figure", "unrest")}[key]


class SoeGameScreen(GameScreen):
    """A Struggle of Empires game: phase bar, the current step's form, the totals."""

    HELP_TITLE = N_("Struggle of Empires: game keys")
    BINDINGS = [
        *GameScreen.BINDINGS,
        # Letters type into the grids (they jump to a row), so the game's own keys are
        # ctrl keys: a stray letter never opens a dialog.
        Binding("ctrl+x", "tax", N_("Tax"), id="tax", tooltip=N_("Taxation")),
        Binding("ctrl+e", "adjust", N_("Correction"), id="adjust"),
        Binding("ctrl+g", "toggle_income", N_("Grid / totals"), id="toggle_income",
                show=False,
                tooltip=N_("Income: enter markers per region, or one total per player")),
        # "2 or 3 players": rules.soe's UNFRIENDLY_COUNTS (tests/test_soe_in_romanian.py
        # checks that the two agree).
        Binding("ctrl+l", "toggle_non_players", N_("Non-player powers"), id="non_players",
                show=False, tooltip=N_("Show or fold the columns of the powers nobody plays "
                                       "(shown by themselves with 2 or 3 players, or once "
                                       "they hold markers)")),
        Binding("a", "tick_all", N_("All done"), id="tick_all", show=False,
                tooltip=N_("End of war: every item of the checklist is done: the next war")),
        Binding("ctrl+b", "board_values", N_("Region values"), id="board_values", show=False,
                tooltip=N_("Copy the printed VP values of a region from your board")),
    ]

    def __init__(self, game, draft: dict | None = None) -> None:
        super().__init__(game, draft)
        self.income_mode = "grid"
        self.non_players = False  # asked to show the non-player powers' columns

    @property
    def state(self) -> SoeState:
        return self.game.state

    def on_mount(self) -> None:
        # Runs before GameScreen's (Textual calls each class's handler, this one first). A
        # seat on a narrow screen enters income as its own total: the region grid is the
        # table's, and eleven regions by seven powers do not fit a phone (ctrl+g shows it).
        if self.app.size.width < NARROW_BELOW and self.seats_someone():
            self.income_mode = "totals"

    def compose_totals(self) -> ComposeResult:
        # TRANSLATORS: the totals' headings: keep them short (the panel is beside the form).
        yield TotalsPanel([_("Player"), _("Power"), _("Gold"),
                           pgettext("population, short", "Pop"), _("Unrest"), _("VP")],
                          id="totals-panel")

    def form_key(self) -> tuple:
        return (*super().form_key(), self.income_mode, self.non_players)

    def build_form(self):
        phase = self.state.phase
        if phase == "actions" and self.income_mode == "totals":
            return MarkerTotalsForm(self.state, self.keys)
        if phase == "actions":
            return IncomeForm(self.state, self.keys, mode=self.income_mode,
                              non_players=self.non_players)
        if phase == "scoring":
            return ScoringForm(self.state, self.keys, non_players=self.non_players)
        return FORMS[phase](self.state, self.keys)

    def step_at(self, state: SoeState) -> tuple:
        return (state.war, state.phase)

    def use_draft(self, draft: dict) -> None:
        if draft.get("mode") in ("grid", "totals"):
            self.income_mode = draft["mode"]
        values = draft.get("values")
        if isinstance(values, dict) and shows_non_players(self.state, values, False):
            self.non_players = True  # typed in a non-player power's column: shown again

    def by_seat_form(self):
        phase = self.state.phase
        if phase == "actions" and self.income_mode == "totals":
            return MarkerTotalsForm  # each player's own total (the region grid is the table's)
        return UpkeepForm if phase == "upkeep" else None

    def seat_totals(self, row: str, after: SoeState | None, cells: dict) -> Text:
        """'Gold 10 → 4 · Unrest 2 → 5': the seat's gold and unrest, and after its part."""
        now = self.state.empires[row]
        then = after.empires[row] if after is not None else now
        said: list = []
        for name, was, will in ((_("Gold"), now.gold, then.gold),
                                (_("Unrest"), now.unrest, then.unrest),
                                (pgettext("population, short", "Pop"), now.population,
                                 then.population)):
            if said:
                said.append(" · ")
            said += [f"{name} {was}"] + ([" → ", (str(will), "bold")] if will != was else [])
        return words(*said)

    def step_by_itself(self, state: SoeState) -> dict | None:
        return step_by_itself(state)

    def form_of_step(self, kind: str):
        return {"income": IncomeForm, "upkeep": UpkeepForm, "scoring": ScoringForm}.get(kind)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        phase = self.state.phase
        if action == "toggle_income":
            return phase == "actions"
        if action == "toggle_non_players":
            return phase in ("actions", "scoring") and self.income_mode == "grid"
        if action == "tick_all":
            return phase == "end_war"
        if action == "board_values":
            return bool(self.state.settings.regions_missing_values) or None
        return super().check_action(action, parameters)

    def show_header(self) -> None:
        state = self.state
        self.sub_title = _("Struggle of Empires · war {war} of {wars}").format(war=state.war,
                                                                               wars=WARS)
        names = [_(PHASE_NAMES[p]) for p in PHASES]
        if state.last_war:
            names[-1] = _(PHASE_NAMES["end_game"])
        current = _(PHASE_NAMES["end_game" if state.phase == "end_game" else state.phase])
        self.query_one("#phase-bar", PhaseBar).show(_("War {war} of {wars}").format(war=state.war,
                                                                          wars=WARS),
                                          names, current)
        self.query_one("#step-title", Static).update(literal(_(STEP_TITLES[state.phase]).format(
            growth=POPULATION_GROWTH, most=MAX_POPULATION)))
        # What Enter does at the end of the game is said at any height (app.tcss).
        self.query_one("#step-hint", Static).update(literal(self.step_hint()))
        self.query_one("#step-hint").set_class(state.phase == "end_game", "-always")
        missing = state.settings.regions_missing_values
        warning = ""
        if missing and state.phase in ("actions", "upkeep", "population", "scoring"):
            # TRANSLATORS: {regions}: one or more VP regions, with commas; {key}: a key.
            warning = _("{regions} still lack printed VP values: press {key} to copy them "
                        "from your board before scoring.").format(
                regions=", ".join(shown(r) for r in missing), key=self.key_of("board_values"))
        told = self.query_one("#step-warning", Static)
        told.update(literal(warning))
        told.display = bool(warning)
        self.refresh_bindings()

    def step_hint(self) -> str:
        """What the current step expects, with this screen's keys."""
        hint = STEP_HINTS[self.state.phase]
        return _(hint).format(**self.keys) if hint else ""

    # ------------------------------------------------------------ totals and explanations

    def rows(self, state: SoeState) -> list[list[object]]:
        ending = state.ending
        rows = []
        for seat in state.seats:
            e = state.empires[seat.power]
            vp = ending.final_vp[seat.power] if ending is not None else e.vp
            rows.append([seat.name, shown(seat.power), e.gold, e.population, e.unrest, vp])
        return rows

    def show_totals(self, preview: Any | None) -> None:
        state = self.state
        note = ""
        if state.phase == "upkeep":
            note = self.upkeep_note()
        self.query_one(TotalsPanel).show(self.rows(state),
                                         self.rows(preview) if preview is not None else None,
                                         note)

    def upkeep_note(self) -> str:
        """Who must tax, and how many times, for the units typed so far."""
        step = self.pending() or {}
        said = []
        for seat in self.state.seats:
            from rules.soe import Units

            units = Units(**step.get("units", {}).get(seat.power, {}))
            needs = self.state.upkeep_needs(seat.power, units)
            given = len(step.get("taxes", {}).get(seat.power, []))
            if needs:
                # TRANSLATORS: {upkeep} and {gold} are amounts of gold; {needs} taxations
                # are needed and {given} were typed.
                said.append(ngettext(
                    "{power}: {upkeep} upkeep with {gold} gold → {needs} taxation needed, "
                    "{given} given",
                    "{power}: {upkeep} upkeep with {gold} gold → {needs} taxations needed, "
                    "{given} given", needs).format(
                    power=shown(seat.power), upkeep=units.upkeep,
                    gold=self.state.empires[seat.power].gold, needs=needs, given=given))
        return "\n".join(said) or _("Nobody is short of gold.")

    def explain(self, preview: Any | None) -> Text | str:
        state = self.state
        if state.phase == "scoring" and preview is not None:
            return scoring_lines(_("VP this scoring"), preview, vp_of_last_scoring(preview))
        if state.phase == "end_game" and preview is not None and preview.ending is not None:
            return self.explain_ending(preview)
        if state.phase == "end_war" and state.last_scoring:
            # The scoring may have followed upkeep by itself: the table reads it here.
            return scoring_lines(_("VP of war {war}'s scoring").format(war=state.war), state,
                                 vp_of_last_scoring(state))
        if state.vp_by_war:
            # TRANSLATORS: {wars}: "war 1: France 8, Britain 5; war 2: ..."
            return _("VP after each war: {wars}").format(wars="; ".join(
                # TRANSLATORS: {vp}: each power and its VP ("France 8, Britain 5").
                _("war {war}: {vp}").format(
                    war=i, vp=", ".join(f"{shown(p)} {v}" for p, v in vp.items()))
                for i, vp in enumerate(state.vp_by_war, 1)))
        return ""

    def explain_ending(self, after: SoeState) -> Text:
        """Who is in revolution, who pays which penalty, and who wins."""
        ending = after.ending
        assert ending is not None  # explained once the game has ended
        rows: list[Text | str] = [words((_("End of the game"), "bold"))]
        for seat in after.seats:
            e = after.empires[seat.power]
            said = {"player": seat.name, "power": shown(seat.power), "unrest": e.unrest}
            if seat.power in ending.revolution:
                # TRANSLATORS: {at}: the unrest from which a power is in revolution (20).
                rows.append(_("{player} ({power}): unrest {unrest}, {at} or more: revolution, "
                              "VP 0, out of the game").format(at=REVOLUTION_AT, **said))
            elif ending.penalty[seat.power]:
                # TRANSLATORS: {penalty} VP are taken off: {vp} VP become {final}.
                rows.append(_("{player} ({power}): unrest {unrest}, -{penalty} VP: {vp} → "
                              "{final}").format(penalty=ending.penalty[seat.power], vp=e.vp,
                                                final=ending.final_vp[seat.power], **said))
            else:
                rows.append(_("{player} ({power}): unrest {unrest}, no penalty: {vp} VP")
                            .format(vp=e.vp, **said))
        names = and_joined(after.seat_of(p).name for p in ending.winners)
        if ending.result == "win":
            # TRANSLATORS: {names}: the winner, or the winners ("Ana and Bo").
            result = _("{names} wins").format(names=names)
        elif ending.result == "shared":
            result = _("Shared victory: {names}").format(names=names)
        else:
            result = _("Nobody wins: every empire is in revolution")
        rows.append(words((result, "bold")))
        return lines(*rows)

    def help_text(self) -> str:
        phase = _(PHASE_NAMES[self.state.phase]).lower()
        # TRANSLATORS: {phase}: the phase's name, in lower case ("war 1 of 3, upkeep.").
        return (_("War {war} of {wars}, {phase}.").format(war=self.state.war, wars=WARS,
                                                           phase=phase)
                + " " + self.step_hint() + "\n" + _(TYPING_HELP))

    def shown_name(self, name: str) -> str:
        """A row or column of the grids in a sentence: a power or a region in the reader's
        language, a column of units or markers as a word ('France armies 5')."""
        # TRANSLATORS: the columns of the grids, in a sentence: "France armies 5 (recorded
        # 3)".
        columns = {"armies": pgettext("in a sentence", "armies"),
                   "fleets": pgettext("in a sentence", "fleets"),
                   "fortresses": pgettext("in a sentence", "fortresses"),
                   "tokens": pgettext("in a sentence", "tokens"),
                   "markers": pgettext("in a sentence", "markers")}
        return columns.get(name) or shown(name)

    # ------------------------------------------------------------ actions

    def action_toggle_income(self) -> None:
        self.income_mode = "totals" if self.income_mode == "grid" else "grid"
        self.show(self.game)
        key = self.key_of("toggle_income")
        if self.income_mode == "totals":
            # TRANSLATORS: {key}: the key that switches (ctrl+g).
            said = _("Income by one total of control markers per player ({key} switches "
                     "back).").format(key=key)
        else:
            said = _("Income by the region grid ({key} switches back).").format(key=key)
        self.say(said, "ok")

    def action_toggle_non_players(self) -> None:
        self.non_players = not self.non_players
        self.show(self.game)  # the grid again, with what was typed in it
        key = self.key_of("non_players")
        if self.non_players:
            # TRANSLATORS: {key}: the key that switches (ctrl+l).
            said = _("Non-player powers shown (°) ({key} switches back).").format(key=key)
        else:
            said = _("Non-player powers folded away where they hold no markers ({key} "
                     "switches back).").format(key=key)
        self.say(said, "ok")

    def action_tick_all(self) -> None:
        form = self.form
        if isinstance(form, EndOfWarForm):
            form.tick_all()
            self.action_confirm()

    def action_tax(self) -> None:
        from tui.games.soe.dialogs import TaxDialog

        self.app.push_screen(TaxDialog(self.state, self.app.player), self._bookkeeping)

    def action_adjust(self) -> None:
        from tui.games.soe.dialogs import AdjustDialog

        self.app.push_screen(AdjustDialog(self.state), self._bookkeeping)

    def action_board_values(self) -> None:
        from tui.games.soe.dialogs import RegionValuesDialog

        self.app.push_screen(RegionValuesDialog(self.state), self._board_values)

    def _bookkeeping(self, step: dict | None) -> None:
        if step is not None:  # the form keeps what was typed in it (GameScreen.show)
            self.record(step, describe_bookkeeping(step))

    def _board_values(self, step: dict | None) -> None:
        if step is None:
            return

        def update_profile() -> None:
            board = self.state.settings.board
            if board:  # the game has the values; its board profile gets them too
                regions = self.state.settings.to_json()["regions"]
                self.call_ledger(lambda ledger: ledger.save_board_profile(board, regions))

        self.record(step, _("Region values recorded for this game."), then=update_profile)

    def commands(self):
        yield from super().commands()
        key = self.key_of
        # TRANSLATORS: palette entries; {key} is the entry's key (ctrl+x).
        yield SystemCommand(_("Record: taxation"), _("A taxation during the war: gold and one "
                                                     "unrest token ({key})").format(
            key=key("tax")), self.action_tax)
        yield SystemCommand(_("Record: correction"), _("Correct gold, population or unrest "
                                                       "with a reason ({key})").format(
            key=key("adjust")), self.action_adjust)
        if self.state.phase == "actions":
            yield SystemCommand(_("Switch: income entry"), _("Region grid or one total per "
                                                             "player ({key})").format(
                key=key("toggle_income")), self.action_toggle_income)
        if self.state.settings.regions_missing_values:
            yield SystemCommand(_("Enter: region values"), _("Printed VP values from your "
                                                             "board ({key})").format(
                key=key("board_values")), self.action_board_values)


def scoring_lines(title: str, scored: SoeState, gained: dict[str, int]) -> Text:
    """Why each region gave what it gave, then what each power won."""
    rows: list[Text | str] = [words((title, "bold"))]
    for result in scored.last_scoring:
        if result.awards:
            reasons = dict.fromkeys(a.reason for a in result.awards)  # a tie once
            rows.append(f"{shown(result.region)} ({'/'.join(map(str, result.values))}): "
                        + "; ".join(reasons))
    # TRANSLATORS: {gains}: each power and what it gained ("France +8, Britain +5").
    rows.append(_("Total: {gains}").format(
        gains=", ".join(f"{shown(p)} {signed(v)}" for p, v in gained.items())))
    return lines(*rows)


def describe_bookkeeping(step: dict) -> str:
    power = shown(step["power"])
    if step["kind"] == "tax":
        return _("Recorded: {power} taxed (unrest token {token}).").format(power=power,
                                                                          token=step["unrest"])
    changes = ", ".join(f"{figure(k)} {signed(step[k])}"
                        for k in ("gold", "population", "unrest") if step.get(k))
    # TRANSLATORS: {changes}: "gold -2, unrest +1".
    return _("Recorded: correction for {power}: {changes}.").format(
        power=power, changes=changes or _("no change"))
