"""Every player enters their own part of a step, at once (issue 45): a seat's part kept and
marked ready through the ledger, the step recorded once when every part is ready, the seat's
form at 40x20, and the host recording with a part missing (named by the history)."""

from __future__ import annotations

import threading

from pilot_pace import until
from test_tui_soe import REGION_VALUES, pause_until

from rules.errors import RuleError
from storage.ledger import StaleGame
from storage.parts import all_ready, parts_of, save_part
from tui.games.soe.forms import UpkeepForm
from tui.games.soe.game import SoeGameScreen
from tui.widgets.seat_form import VALUE, FieldGrid, SeatForm

PHONE = (40, 20)
WIDE = (100, 30)
FOUR = [{"name": "Ana", "power": "France", "gold": 10},
        {"name": "Bo", "power": "Britain", "gold": 10},
        {"name": "Cy", "power": "Austria", "gold": 10},
        {"name": "Di", "power": "Russia", "gold": 0, "population": 0}]


def at_upkeep(ledger, players: int = 2, title: str = "Seats") -> int:
    """A game at war 1's upkeep (income recorded: markers per power), set up through the
    ledger."""
    seats = FOUR[:players]
    game = ledger.replay({"format": "warledger/1", "game": "soe", "title": title,
                          "settings": {"regions": REGION_VALUES}, "players": seats,
                          "steps": [{"kind": "income",
                                     "markers": {s["power"]: 0 for s in seats}}]})
    return game.id


def upkeep_of(ledger, game_id: int) -> dict:
    """The upkeep step recorded (its JSON), the only one."""
    steps = [s for s in ledger.export(game_id)["steps"] if s["kind"] == "upkeep"]
    assert len(steps) == 1, steps
    return steps[0]


# ------------------------------------------------------------ through the ledger


def test_parts_belong_to_the_step_at_the_head_and_all_ready_needs_every_seat(ledger):
    game_id = at_upkeep(ledger)
    seq = ledger.head(game_id)
    parts = save_part(ledger, game_id, seq, "upkeep", "Ana",
                      {"armies": 3, "fleets": 1, "fortresses": 0, "tokens": []}, False)
    assert set(parts) == {"Ana"} and not parts["Ana"].ready
    parts = save_part(ledger, game_id, seq, "upkeep", "Ana",
                      {"armies": 4, "fleets": 1, "fortresses": 0, "tokens": []}, True)
    assert parts["Ana"].values["armies"] == 4 and parts["Ana"].ready  # one row per player
    assert not all_ready(parts, ["Ana", "Bo"])
    parts = save_part(ledger, game_id, seq, "upkeep", "Bo",
                      {"armies": 2, "fleets": 0, "fortresses": 0, "tokens": []}, True)
    assert all_ready(parts, ["Ana", "Bo"])
    # A step recorded (here a taxation) moves the head: the parts are no longer believed,
    # and a part for the old head is not written.
    ledger.record(game_id, {"kind": "tax", "power": "France", "unrest": 1})
    assert parts_of(ledger, game_id, seq + 1, "upkeep") == {}
    assert save_part(ledger, game_id, seq, "upkeep", "Bo", {"armies": 1}, True) is None
    assert parts_of(ledger, game_id, seq, "upkeep")["Bo"].values["armies"] == 2


def test_two_seats_ready_at_once_one_of_them_completes_the_step_and_it_is_recorded_once(
        ledger, make_ledger):
    """Two terminals mark their parts ready at the same moment: the game's row is locked, so
    exactly one sees every part ready; and both trying to record (the head expected) give
    one upkeep step."""
    game_id = at_upkeep(ledger)
    seq = ledger.head(game_id)
    state = ledger.load(game_id).state
    rows = {"Ana": {"armies": 3, "fleets": 1, "fortresses": 0, "tokens": []},
            "Bo": {"armies": 2, "fleets": 4, "fortresses": 1, "tokens": []}}
    seen, start = {}, threading.Barrier(2)

    def ready(name: str) -> None:
        own = make_ledger()  # each terminal its own engine
        start.wait()
        seen[name] = all_ready(save_part(own, game_id, seq, "upkeep", name, rows[name], True),
                               ["Ana", "Bo"])

    threads = [threading.Thread(target=ready, args=(n,)) for n in rows]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(seen.values()) == [False, True]  # exactly one completes the step

    step = UpkeepForm.step_from(state, {"France": rows["Ana"], "Britain": rows["Bo"]})
    recorded = 0
    for _ in range(2):  # the other terminal trying as well is told it is done already
        try:
            make_ledger().record(game_id, step, expected_seq=seq, author="Ana")
            recorded += 1
        except StaleGame:
            pass
    assert recorded == 1
    assert upkeep_of(ledger, game_id)["units"] == {
        "France": {"armies": 3, "fleets": 1, "fortresses": 0},
        "Britain": {"armies": 2, "fleets": 4, "fortresses": 1}}


def test_a_deleted_game_takes_its_parts_with_it(ledger):
    game_id = at_upkeep(ledger)
    save_part(ledger, game_id, ledger.head(game_id), "upkeep", "Ana", {"armies": 1}, False)
    ledger.delete_game(game_id)
    assert parts_of(ledger, game_id, 1, "upkeep") == {}


def test_an_upkeep_recorded_without_a_part_names_it_in_the_history(ledger):
    game_id = at_upkeep(ledger)
    step = {"kind": "upkeep", "units": {"France": {"armies": 2, "fleets": 0, "fortresses": 0}},
            "taxes": {}, "missing": ["Britain"]}
    ledger.record(game_id, step)
    assert upkeep_of(ledger, game_id)["missing"] == ["Britain"]
    line = ledger.step_log(game_id)[-1].said
    assert "(recorded without the part of Bo (Britain))" in line, line


def test_a_missing_part_must_name_a_power_of_the_game(ledger):
    game_id = at_upkeep(ledger)
    try:
        ledger.record(game_id, {"kind": "upkeep", "units": {}, "missing": ["Spain"]})
    except RuleError as e:
        assert "Spain is not played in this game" in str(e)
    else:
        raise AssertionError("a missing part of a power nobody plays was taken")


# ------------------------------------------------------------ at the table (Pilot)


async def open_seat(pilot, game_id: int) -> SoeGameScreen:
    await pilot.pause()
    pilot.app.open_game(game_id)
    await until(pilot, lambda: isinstance(pilot.app.screen, SoeGameScreen)
                and pilot.app.screen.query("#form") and pilot.app.screen.form is not None
                and pilot.app.screen.form.grid is not None
                and pilot.app.screen._form_ready is pilot.app.screen.form, "the game screen")
    return pilot.app.screen


def fits(screen, width: int) -> bool:
    """Whether every widget of the seat's form lies within `width` columns."""
    form = screen.form
    return all(w.region.right <= width for w in [form, *form.query("*")] if w.display)


async def test_two_seats_at_40x20_each_enter_their_own_upkeep_one_step_both_rows(table):
    game_id = at_upkeep(table.ledger())
    ana, bo = table.app("Ana"), table.app("Bo")
    async with ana.run_test(size=PHONE) as pa, bo.run_test(size=PHONE) as pb:
        sa = await open_seat(pa, game_id)
        sb = await open_seat(pb, game_id)
        assert isinstance(sa.form, SeatForm) and sa.form.row == "France"
        assert isinstance(sb.form, SeatForm) and sb.form.row == "Britain"
        assert fits(sa, PHONE[0]) and not sa.has_class("-too-small")
        await pa.press("3", "1", "0", "enter")
        ledger = table.ledger()
        assert await pause_until(pb, lambda: "Ana" in parts_of(ledger, game_id, 1, "upkeep")
                                 and parts_of(ledger, game_id, 1, "upkeep")["Ana"].ready, 5)
        # Bo's screen shows Ana ready and himself not yet.
        assert await pause_until(pb, lambda: "Ready: Ana" in sb.form.query_one(
            "#seat-table").content.plain, 5)
        assert "Not yet: Bo" in sb.form.query_one("#seat-table").content.plain
        await pb.press("2", "4", "1", "enter")
        assert await pause_until(pb, lambda: ledger.head(game_id) > 1, 10)
        assert await pause_until(pa, lambda: sa.game.seq == ledger.head(game_id), 10)
    step = upkeep_of(ledger, game_id)
    assert step["units"] == {"France": {"armies": 3, "fleets": 1, "fortresses": 0},
                             "Britain": {"armies": 2, "fleets": 4, "fortresses": 1}}
    assert "missing" not in step
    assert [s.kind for s in ledger.step_log(game_id)].count("upkeep") == 1


async def test_a_seat_opening_the_game_takes_up_its_own_draft_not_anothers(table):
    """A draft is its player's: Ana's half-typed part (her cursor on Forts) is kept, and Bo
    opening the game after her starts on his own first field, his digits in his Armies and
    Fleets, not where Ana's cursor was; Ana opening it again finds her part as she left it."""
    game_id = at_upkeep(table.ledger())
    async with table.app("Ana").run_test(size=PHONE) as pa:
        await open_seat(pa, game_id)
        await pa.press("3", "1")
        await pa.pause()
    assert (table.ledger().draft(game_id) or {}).get("player") == "Ana"  # kept at its end
    async with table.app("Bo").run_test(size=PHONE) as pb:
        sb = await open_seat(pb, game_id)
        await pb.press("2", "4")
        await pb.pause()
        assert sb.form.draft() == {"values": {"Britain": {"armies": 2, "fleets": 4}},
                                   "cursor": ["Britain", "fortresses"]}
    async with table.app("Ana").run_test(size=PHONE) as pa:
        sa = await open_seat(pa, game_id)
        assert await pause_until(pa, lambda: sa.form.draft().get("values", {}).get(
            "France", {}).get("armies") == 3, 5), sa.form.draft()
        assert sa.form.draft()["values"]["France"]["fleets"] == 1


async def test_an_upkeep_a_seat_cannot_pay_is_refused_at_its_enter(table):
    game_id = at_upkeep(table.ledger(), players=4)
    di = table.app("Di")  # Russia, no gold
    async with di.run_test(size=PHONE) as pilot:
        screen = await open_seat(pilot, game_id)
        await pilot.press("1", "enter")  # 1 army: 1 gold of upkeep with none
        await pilot.pause()
        said = screen.query_one("#message").content.plain
        assert "Russia must pay 1 upkeep with 0 gold: 1 taxation needed" in said
        assert parts_of(table.ledger(), game_id, 1, "upkeep").get("Di") is None or not \
            parts_of(table.ledger(), game_id, 1, "upkeep")["Di"].ready
        # A token drawn (t jumps to the tax tokens' line): the part is taken.
        await pilot.press("t", "2", "enter")
        ledger = table.ledger()
        assert await pause_until(pilot, lambda: parts_of(ledger, game_id, 1, "upkeep")
                                 .get("Di") is not None
                                 and parts_of(ledger, game_id, 1, "upkeep")["Di"].ready, 5)
        assert parts_of(ledger, game_id, 1, "upkeep")["Di"].values["tokens"] == [2]


async def test_the_host_records_with_a_part_missing_and_the_history_names_it(table):
    game_id = at_upkeep(table.ledger(), players=2)
    ledger = table.ledger()
    save_part(ledger, game_id, 1, "upkeep", "Ana",
              {"armies": 4, "fleets": 0, "fortresses": 0, "tokens": []}, True)
    host = table.app()  # seats no one
    async with host.run_test(size=WIDE) as pilot:
        screen = await open_seat(pilot, game_id)
        # Ana's part shows in her row of the host's grid.
        assert await pause_until(pilot, lambda: screen.form.grid.value("France", "armies")
                                 == 4, 5)
        assert "Ready: Ana" in screen.query_one("#seats").content.plain
        await pilot.press("enter")  # Bo never entered his: recorded without it
        assert await pause_until(pilot, lambda: ledger.head(game_id) > 1, 10)
    step = upkeep_of(ledger, game_id)
    assert step["units"]["France"]["armies"] == 4 and step["missing"] == ["Britain"]
    line = next(s.said for s in ledger.step_log(game_id) if s.kind == "upkeep")
    assert "without the part of Bo (Britain)" in line


async def test_a_seat_on_a_wide_screen_types_in_its_own_row_of_the_grid(table):
    game_id = at_upkeep(table.ledger(), players=2)
    bo = table.app("Bo")
    async with bo.run_test(size=WIDE) as pilot:
        screen = await open_seat(pilot, game_id)
        assert not isinstance(screen.form, SeatForm)
        assert screen.form.grid.cursor_at == ("Britain", "armies")  # his row first
        await pilot.press("7", "enter")
        ledger = table.ledger()
        assert await pause_until(pilot, lambda: parts_of(ledger, game_id, 1, "upkeep")
                                 .get("Bo") is not None
                                 and parts_of(ledger, game_id, 1, "upkeep")["Bo"].ready, 5)
        assert parts_of(ledger, game_id, 1, "upkeep")["Bo"].values["armies"] == 7
        assert ledger.head(game_id) == 1  # Ana's part is still to come


# ------------------------------------------------------------ a Risk round's positions


def risk_at_round_2(ledger) -> int:
    """Ana and Bo, fixed rounds, round 1 closed (Ana 22 territories, Bo 20)."""
    return ledger.replay({
        "format": "warledger/1", "game": "risk", "title": "Seats",
        "settings": {"mode": "fixed_rounds", "rounds": 3},
        "players": [{"name": "Ana", "color": "red"}, {"name": "Bo", "color": "blue"}],
        "steps": [{"kind": "round", "positions": {
            "Ana": {"territories": 22, "armies": 30, "continents": []},
            "Bo": {"territories": 20, "armies": 28, "continents": []}}}]}).id


async def open_risk_seat(pilot, game_id: int):
    from tui.games.risk.game import RiskGameScreen

    await pilot.pause()
    pilot.app.open_game(game_id)
    await until(pilot, lambda: isinstance(pilot.app.screen, RiskGameScreen)
                and pilot.app.screen.query("#form") and pilot.app.screen.form is not None
                and pilot.app.screen._form_ready is pilot.app.screen.form, "the game screen")
    return pilot.app.screen


async def test_two_risk_seats_at_40x20_each_enter_their_position_one_round(table):
    game_id = risk_at_round_2(table.ledger())
    ana, bo = table.app("Ana"), table.app("Bo")
    async with ana.run_test(size=PHONE) as pa, bo.run_test(size=PHONE) as pb:
        sa = await open_risk_seat(pa, game_id)
        await open_risk_seat(pb, game_id)
        assert isinstance(sa.form, SeatForm) and sa.form.row == "Ana"
        assert fits(sa, PHONE[0]) and not sa.has_class("-too-small")
        # Ana: 9 armies on 24 territories is refused at once, in her words.
        await pa.press("2", "4", "tab", "9", "enter")
        await pa.pause()
        assert "Ana has 9 armies on 24 territories" in sa.query_one("#message").content.plain
        await pa.press("backspace", "3", "3", "enter")  # 33 armies: ready
        await pb.press("1", "8", "tab", "3", "0", "enter")
        ledger = table.ledger()
        assert await pause_until(pb, lambda: ledger.head(game_id) > 1, 10)
    rounds = [s for s in ledger.export(game_id)["steps"] if s["kind"] == "round"]
    assert len(rounds) == 2 and rounds[1]["positions"] == {
        "Ana": {"territories": 24, "armies": 33, "continents": []},
        "Bo": {"territories": 18, "armies": 30, "continents": []}}


def test_a_round_recorded_without_a_position_names_it_in_the_history(ledger):
    game_id = risk_at_round_2(ledger)
    ledger.record(game_id, {"kind": "round", "positions": {
        "Ana": {"territories": 22, "armies": 31, "continents": []},
        "Bo": {"territories": 20, "armies": 28, "continents": []}}, "missing": ["Bo"]})
    line = ledger.step_log(game_id)[-1].said
    assert "(recorded without the part of Bo)" in line, line
    with_missing = [s for s in ledger.export(game_id)["steps"] if s.get("missing")]
    assert with_missing[0]["missing"] == ["Bo"]


async def test_a_taxation_recorded_meanwhile_keeps_the_ready_part_ready(table):
    """A part belongs to the game's head: a step recorded by the table during the upkeep (a
    taxation) leaves the seat's typing in its form, and its part is sent again, still
    ready; the last part then records the upkeep."""
    game_id = at_upkeep(table.ledger())
    ledger = table.ledger()
    ana = table.app("Ana")
    async with ana.run_test(size=PHONE) as pilot:
        screen = await open_seat(pilot, game_id)
        await pilot.press("3", "1", "0", "enter")
        assert await pause_until(pilot, lambda: parts_of(ledger, game_id, 1, "upkeep")
                                 .get("Ana") is not None
                                 and parts_of(ledger, game_id, 1, "upkeep")["Ana"].ready, 5)
        ledger.record(game_id, {"kind": "tax", "power": "Britain", "unrest": 2}, author="Bo")
        assert await pause_until(pilot, lambda: screen.game.seq == 2
                                 and parts_of(ledger, game_id, 2, "upkeep").get("Ana")
                                 is not None
                                 and parts_of(ledger, game_id, 2, "upkeep")["Ana"].ready, 10)
        assert parts_of(ledger, game_id, 2, "upkeep")["Ana"].values["armies"] == 3
        # Bo marks his ready from his terminal (here: through the ledger, as his would),
        # and completes the step himself.
        parts = save_part(ledger, game_id, 2, "upkeep", "Bo",
                          {"armies": 1, "fleets": 0, "fortresses": 0, "tokens": []}, True)
        assert all_ready(parts, ["Ana", "Bo"])
    state = ledger.load(game_id).state
    ledger.record(game_id, UpkeepForm.step_from(state, {
        "France": parts["Ana"].values, "Britain": parts["Bo"].values}), expected_seq=2)
    assert upkeep_of(ledger, game_id)["units"]["France"] == {"armies": 3, "fleets": 1,
                                                             "fortresses": 0}


async def test_income_on_a_phone_is_each_seats_own_total_of_markers(table):
    """At the actions of a war, a seat at 40x20 enters its own total of control markers
    (the region grid is the table's): both totals make one income step."""
    ledger = table.ledger()
    game_id = ledger.replay({"format": "warledger/1", "game": "soe", "title": "Seats",
                             "settings": {"regions": REGION_VALUES}, "players": FOUR[:2],
                             "steps": []}).id
    ana, bo = table.app("Ana"), table.app("Bo")
    async with ana.run_test(size=PHONE) as pa, bo.run_test(size=PHONE) as pb:
        sa = await open_seat(pa, game_id)
        await open_seat(pb, game_id)
        assert isinstance(sa.form, SeatForm) and fits(sa, PHONE[0])
        await pa.press("4", "enter")
        await pb.press("7", "enter")
        assert await pause_until(pb, lambda: ledger.head(game_id) > 0, 10)
    (income,) = [s for s in ledger.export(game_id)["steps"] if s["kind"] == "income"]
    assert income["markers"] == {"France": 4, "Britain": 7} and "missing" not in income


def test_an_income_recorded_without_a_total_names_it_in_the_history(ledger):
    game_id = ledger.replay({"format": "warledger/1", "game": "soe", "title": "Seats",
                             "settings": {"regions": REGION_VALUES}, "players": FOUR[:2],
                             "steps": []}).id
    ledger.record(game_id, {"kind": "income", "markers": {"France": 3, "Britain": 0},
                            "missing": ["britain"]})
    (income,) = ledger.export(game_id)["steps"]
    assert income["missing"] == ["Britain"]  # a power as the file may name it, stored by id
    assert ledger.step_log(game_id)[-1].said.endswith(
        "(recorded without the part of Bo (Britain))")


async def test_a_seats_names_are_shown_as_typed(table):
    """Player text is data: brackets in names are shown, never read as markup."""
    ledger = table.ledger()
    seats = [dict(FOUR[0], name="[b]Ana[/b]"), dict(FOUR[1], name="Bo[/]")]
    game_id = ledger.replay({"format": "warledger/1", "game": "soe", "title": "Seats",
                             "settings": {"regions": REGION_VALUES}, "players": seats,
                             "steps": [{"kind": "income",
                                        "markers": {"France": 0, "Britain": 0}}]}).id
    save_part(ledger, game_id, 1, "upkeep", "Bo[/]",
              {"armies": 1, "fleets": 0, "fortresses": 0, "tokens": []}, True)
    app = table.app("[b]Ana[/b]")
    async with app.run_test(size=PHONE) as pilot:
        screen = await open_seat(pilot, game_id)
        assert await pause_until(pilot, lambda: "Ready: Bo[/]" in screen.form.query_one(
            "#seat-table").content.plain, 5)
        assert "Not yet: [b]Ana[/b]" in screen.form.query_one("#seat-table").content.plain
        heading = screen.form.grid.columns["value"].label
        assert heading.plain == "[b]Ana[/b] (France)" and not heading.spans


def test_a_seats_form_not_composed_yet_answers_with_its_row_as_it_was(ledger):
    """Made a moment ago (the phone turned, the step moved on), before Textual composed it:
    another seat's part arriving then asked it for its row, and the seat's player saw a
    traceback (tests/test_seats_ssh.py, 1 run in 4)."""
    game = ledger.load(at_upkeep(ledger))
    form = SeatForm(game.state, None, UpkeepForm, "Britain", "Bo (Britain)")
    assert form.grid is None
    grid = FieldGrid(UpkeepForm.columns(), "Bo (Britain)",
                     UpkeepForm.base_rows(game.state).get("Britain", {}))  # as compose makes it
    assert form.cells() == {key: v[VALUE] for key, v in grid.values.items()}
    assert form.cells() == {"armies": 0, "fleets": 0, "fortresses": 0, "tokens": []}
