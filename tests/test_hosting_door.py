"""The door's admission policy (tui.hosting.door) with a fake clock and loaded dice: budgets,
random early drop as OpenSSH's MaxStartups, a reserved share for known addresses, and
penalties as OpenSSH's PerSourcePenalties (issue 46)."""

from __future__ import annotations

import asyncssh
import pytest

from tui.hosting.door import Admission, Policy, Verdict
from tui.hosting.keys import KeyLine, names_address


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def admission(chance: float = 0.99, **settings) -> tuple[Admission, Clock]:
    clock = Clock()
    policy = Policy(**{"at_most": 20, "per_address": 4, "reserved": 5, "start": 5,
                       "rate": 0.3, "penalty_from": 15.0, "penalty_at_most": 600.0,
                       **settings})
    return Admission(policy, clock=clock, chance=lambda: chance), clock


def fill(door: Admission, count: int, known: bool = False, first: int = 2) -> list:
    """`count` connections, one from each of 10.0.0.FIRST...."""
    tickets = []
    for i in range(count):
        tickets.append(door.enter(f"10.0.0.{first + i}", known))
    return tickets


def test_an_address_past_its_budget_is_told_so():
    door, _ = admission()
    for _ in range(4):
        assert door.ask("10.0.0.2", False) is Verdict.ADMIT
        door.enter("10.0.0.2", False)
    assert door.ask("10.0.0.2", False) is Verdict.ADDRESS
    assert door.ask("10.0.0.3", False) is Verdict.ADMIT


def test_strangers_are_dropped_at_random_from_start_rising_to_certain():
    """MaxStartups 5:30:15 in effect (15 = 20 places less the 5 reserved): below start no
    stranger is dropped; at start one is with a chance of 0.3; halfway, 0.65; at 15, all."""
    sure, _ = admission(chance=0.0)  # the dice always say "drop" when there is a chance
    fill(sure, 4)
    assert sure.ask("10.1.0.1", False) is Verdict.ADMIT
    never, _ = admission(chance=0.99)
    fill(never, 5)
    assert never.ask("10.1.0.1", False) is Verdict.ADMIT
    at_start, _ = admission(chance=0.29)
    fill(at_start, 5)
    assert at_start.ask("10.1.0.1", False) is Verdict.DROPPED
    at_start.chance = lambda: 0.31
    assert at_start.ask("10.1.0.1", False) is Verdict.ADMIT
    half, _ = admission(chance=0.64)
    fill(half, 10)
    assert half.ask("10.1.0.1", False) is Verdict.DROPPED
    half.chance = lambda: 0.66
    assert half.ask("10.1.0.1", False) is Verdict.ADMIT


def test_strangers_never_take_the_reserved_share():
    door, _ = admission(chance=0.99)
    fill(door, 15)
    assert door.ask("10.1.0.1", False) is Verdict.FULL
    # A known address takes the reserved places, never dropped at random...
    known = fill(door, 5, known=True, first=100)
    assert door.ask("10.1.0.2", True) is Verdict.FULL  # ...until every place is taken
    door.leave(known[0])
    assert door.ask("10.1.0.2", True) is Verdict.ADMIT
    assert door.ask("10.1.0.1", False) is Verdict.FULL  # still no place for a stranger


def test_an_address_a_player_logged_in_from_is_known_and_forgiven():
    door, clock = admission()
    ticket = door.enter("10.0.0.9", False)
    door.punish("10.0.0.9", 20)
    assert door.ask("10.0.0.9", False) is Verdict.PENALISED
    door.logged_in(ticket)
    assert door.is_known("10.0.0.9") and door.logging_in == 0 and door.strangers == 0
    assert door.penalised("10.0.0.9") == 0
    door.punish("10.0.0.9", 600)  # a known address is never penalised
    assert door.penalised("10.0.0.9") == 0


def test_penalties_accrue_are_enforced_past_a_minimum_and_end():
    door, clock = admission()
    door.punish("10.0.0.2", 10)
    assert door.penalised("10.0.0.2") == 0  # 10 s: under the 15 s before enforcement
    assert door.ask("10.0.0.2", False) is Verdict.ADMIT
    clock.now += 2
    door.punish("10.0.0.2", 10)  # 18 s accrued
    assert door.penalised("10.0.0.2") == pytest.approx(18)
    assert door.ask("10.0.0.2", False) is Verdict.PENALISED
    assert door.ask("10.0.0.2", True) is Verdict.ADMIT  # known by a key's from=: exempt
    clock.now += 17.5
    assert door.ask("10.0.0.2", False) is Verdict.PENALISED
    clock.now += 1
    assert door.ask("10.0.0.2", False) is Verdict.ADMIT
    assert "10.0.0.2" not in door.penalties


def test_a_crowd_from_one_address_is_penalised_at_most_the_ceiling():
    door, clock = admission()
    for _ in range(200):  # 24 connections timing out at once, many times over
        door.punish("10.0.0.2", 10)
    assert door.penalised("10.0.0.2") == pytest.approx(600)
    clock.now += 599
    assert door.ask("10.0.0.2", False) is Verdict.PENALISED
    clock.now += 2
    assert door.ask("10.0.0.2", False) is Verdict.ADMIT


def test_an_old_penalty_that_ended_starts_again_from_nothing():
    door, clock = admission()
    door.punish("10.0.0.2", 10)
    clock.now += 11
    door.punish("10.0.0.2", 10)
    assert door.penalised("10.0.0.2") == 0


def test_the_penalised_addresses_remembered_are_bounded():
    door, clock = admission(penalised_at_most=3)
    for i in range(3):
        clock.now += 1
        door.punish(f"10.0.0.{i}", 100 + i)
    door.punish("10.0.0.9", 50)  # the one ending first goes
    assert sorted(door.penalties) == ["10.0.0.1", "10.0.0.2", "10.0.0.9"]


def test_a_sized_policy_keeps_a_quarter_and_drops_from_an_eighth():
    policy = Policy.sized(256, per_address=24)
    assert (policy.reserved, policy.start, policy.strangers_at_most) == (64, 32, 192)


def key_line(options: str) -> KeyLine:
    key = asyncssh.generate_private_key("ssh-ed25519").export_public_key().decode()
    return KeyLine(asyncssh.import_authorized_keys(key), "Ana",
                   options=(("from", options),))


@pytest.mark.parametrize(("patterns", "addr", "named"), [
    ("127.0.0.1", "127.0.0.1", True), ("192.168.1.*", "192.168.1.20", True),
    ("10.0.0.0/8,!10.0.0.5", "10.0.0.5", False), ("10.0.0.0/8", "10.9.9.9", True),
    ("10.0.0.0/8", "11.0.0.1", False), ("*", "127.0.0.1", False),
    ("0.0.0.0/0,::/0", "127.0.0.1", False), ("fd00::/8", "fd00::1", True),
    ("laptop.lan", "127.0.0.1", False), ("10.0.0.0/8", "::ffff:10.0.0.7", True)])
def test_an_address_a_keys_from_names_is_known(patterns, addr, named):
    """A `from=` that lets in anyone names no address; names are never looked up."""
    assert names_address([key_line(patterns)], addr) is named


class Idle:
    """The host's side of `admit`: its connections that have said nothing, oldest first."""

    def __init__(self, door: Admission) -> None:
        self.door = door
        self.tickets: list = []

    def __call__(self, which, verdict=None) -> bool:
        for ticket in self.tickets:
            if which(ticket):
                self.tickets.remove(ticket)
                self.door.leave(ticket)
                return True
        return False


def test_an_idle_connection_makes_room_and_a_swap_is_never_dropped_at_random():
    door, _ = admission(chance=0.0)  # every draw drops
    idle = Idle(door)
    idle.tickets = fill(door, 4, first=2)
    busy = fill(door, 4, first=20)  # sent a version: never shed
    for _ in range(4):
        door.enter("10.0.0.50", False)  # the newcomer's own address is at its budget
    verdict, ticket = door.admit("10.0.0.50", False, idle)
    assert verdict is Verdict.ADDRESS and ticket is None  # nothing idle from 10.0.0.50
    idle.tickets.append(door.enter("10.0.0.60", False))
    verdict, ticket = door.admit("10.0.0.61", False, idle)  # 13 strangers, past start 5
    assert verdict is Verdict.ADMIT and ticket.address == "10.0.0.61"  # an idle one went
    assert door.logging_in == 13 and len(idle.tickets) == 4 and busy


def test_a_known_newcomer_at_a_full_door_sheds_an_idle_stranger_first():
    door, _ = admission()
    idle = Idle(door)
    strangers = fill(door, 15)
    known = fill(door, 5, known=True, first=100)
    idle.tickets = [known[0], strangers[3]]
    verdict, ticket = door.admit("10.2.0.1", True, idle)
    assert verdict is Verdict.ADMIT and idle.tickets == [known[0]]
    verdict, ticket = door.admit("10.2.0.2", False, idle)  # a stranger sheds no known one
    assert verdict is Verdict.FULL and idle.tickets == [known[0]]
