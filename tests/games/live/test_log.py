"""The table's move log (``games.live.log.log_lines``): a claim window's answers make no line
of their own — the seats show who answered while it is open — and its close makes one."""

from __future__ import annotations

from games.engine.events import Answered, HiddenAnswer, Hooked, Played, WindowClosed
from games.live.log import log_lines

NAMES = {0: "ana", 1: "bo", 2: "cy", 3: "di"}


def test_a_window_passed_by_every_seat_makes_one_line_when_it_closes() -> None:
    play = [Played(0, ("9D",), "single")]
    answers = [[Answered(seat, None)] for seat in (1, 2)] + [[Answered(3, None), WindowClosed(0)]]
    for viewer in (0, 1, None):  # a seat that answered, the owner, a spectator
        lines = [line for move in [play, *answers] for line in log_lines(move, viewer, NAMES)]
        assert lines == ["ana played 9♦", "Claim window closed, no claim"], (viewer, lines)


def test_a_pending_claim_makes_no_line_and_the_claim_that_wins_makes_one() -> None:
    hook = [Answered(1, ("9H", "9C"))]
    assert log_lines(hook, 1, NAMES) == []  # its own seat's
    assert log_lines([HiddenAnswer(1)], 2, NAMES) == []
    won = [Hooked(1, ("9H", "9C"), owner=0)]
    assert log_lines(won, 2, NAMES) == ["bo hooked with 9♥ 9♣"]


def test_a_window_a_bomb_closed_has_the_bomb_s_line_only() -> None:
    assert log_lines([WindowClosed(0, bombed=True)], None, NAMES) == []
