"""RULES.md §5: turn flow — lead, follow, pass, trick end, finished seats, lead after out."""

from __future__ import annotations

from games.engine import Pass, Play, Timeout, legal_actions
from games.engine.events import Finished, Passed, Played, TrickWon, WindowOpened
from games.engine.rules import seats_to_act

from .helpers import cards, of_type, ok, refused, run, table, types


def four(**options):
    """Four hands that lead and follow with pairs (no claim windows)."""
    return table("3S 3H 9S 9H KC", "5S 5H JS JH KD", "7S 7H QC", "4S 4H QD", **options)


def test_the_leader_may_not_pass():
    """The leader must play a valid combination; a pass is leader_cannot_pass (§5)."""
    state = four()
    refused(state, Pass(0), "leader_cannot_pass")
    assert legal_actions(state, 0)[0] == Play(0, ("3S",))
    assert Pass(0) not in legal_actions(state, 0)


def test_play_goes_clockwise_and_bumps_the_version():
    """After a play the next seat clockwise is to act; every accepted action adds 1 to version."""
    state, events = ok(four(), Play(0, cards("3S 3H")))
    assert state.turn == 1
    assert state.version == 1
    assert state.top.seat == 0 and state.top.cards == ("3S", "3H")
    assert events == (Played(seat=0, cards=("3S", "3H"), combination="pair"),)
    assert seats_to_act(state) == [1]
    state, _ = ok(state, Pass(1))
    assert (state.turn, state.version) == (2, 2)


def test_a_seat_that_passed_may_play_again_in_the_same_trick():
    """A seat that passed may play later in the same trick (§5)."""
    state, _ = run(
        four(),
        Play(0, cards("3S 3H")),
        Pass(1),
        Play(2, cards("7S 7H")),
        Pass(3),
        Play(0, cards("9S 9H")),
    )
    assert state.turn == 1
    state, events = ok(state, Play(1, cards("JS JH")))
    assert state.top.seat == 1
    assert types(events) == ["play"]


def test_the_trick_is_won_when_every_other_active_seat_has_passed_since_the_top_play():
    """Passes before the latest top play do not count; the top play's seat wins and leads (§5)."""
    state, _ = run(
        four(), Play(0, cards("3S 3H")), Pass(1), Play(2, cards("7S 7H")), Pass(3), Pass(0)
    )
    assert state.turn == 1 and state.top.seat == 2
    state, events = ok(state, Pass(1))
    assert of_type(events, "trick_won") == [TrickWon(seat=2, leader=2)]
    assert (state.turn, state.top, state.trick, state.passed) == (2, None, (), frozenset())
    assert Pass(2) not in legal_actions(state, 2)


def test_a_follow_must_match_category_and_length_or_be_a_bomb():
    """Follows: same category and length with a higher key, or a bomb (§5)."""
    state = table(
        "3S 4S 5S KC", "4H 5H 6H 7H 8H", "6S 6H 6D 2C", "AS AH 9D", claim_window_seconds=0
    )
    state, _ = ok(state, Play(0, cards("3S 4S 5S")))
    refused(state, Play(1, cards("4H 5H 6H 7H")), "does_not_beat")
    refused(state, Play(1, cards("4H")), "does_not_beat")
    state, _ = ok(state, Play(1, cards("5H 6H 7H")))
    refused(state, Play(2, cards("6S 6H")), "does_not_beat")
    refused(state, Play(2, cards("6S 2C")), "invalid_combination")
    state, _ = ok(state, Play(2, cards("6S 6H 6D")))
    assert state.top.combo.category == "kind_bomb"


def test_once_the_top_play_is_a_bomb_only_a_higher_bomb_follows():
    """A bomb on top can only be beaten by a strictly higher bomb (§4, §5)."""
    state = table("5S 5H 5D KC", "AS AH 6S 6H 6D", "4S 4H 4D 4C 9S", "7S 7H 7D KD")
    state, _ = ok(state, Play(0, cards("5S 5H 5D")))
    refused(state, Play(1, cards("AS AH")), "does_not_beat")
    state, _ = ok(state, Play(1, cards("6S 6H 6D")))
    refused(state, Play(2, cards("4S 4H 4D")), "does_not_beat")
    state, _ = ok(state, Play(2, cards("4S 4H 4D 4C")))
    assert [a for a in legal_actions(state, 3)] == [Pass(3)]


def test_finished_seats_are_skipped():
    """A seat that played its last card has finished, is recorded in order and is skipped
    (§5, §7)."""
    state = table("3S 3H 9S 9H KC", "5S 5H", "7S 7H QC QH", "4S 4H QD")
    state, events = run(state, Play(0, cards("3S 3H")), Play(1, cards("5S 5H")))
    assert of_type(events, "finished") == [Finished(seat=1, place=1)]
    assert state.finished == (1,)
    assert state.turn == 2
    state, _ = run(state, Play(2, cards("7S 7H")), Pass(3), Play(0, cards("9S 9H")))
    assert state.turn == 2
    refused(state, Pass(1), "finished")
    state, events = run(state, Pass(2), Pass(3))
    assert of_type(events, "trick_won") == [TrickWon(seat=0, leader=0)]


def test_lead_after_out_teammate():
    """A trick won by a finished seat is led by its next active teammate (default, §5)."""
    state = table("KS KH", "5S 5H 6C", "7S 7H QC", "4S 4H QD")
    state, events = run(state, Play(0, cards("KS KH")), Pass(1), Pass(2), Pass(3))
    assert of_type(events, "trick_won") == [TrickWon(seat=0, leader=2)]
    assert state.turn == 2


def test_lead_after_out_next_player():
    """lead_after_out=next_player: the next active seat clockwise leads instead (§5, §10)."""
    state = table("KS KH", "5S 5H 6C", "7S 7H QC", "4S 4H QD", lead_after_out="next_player")
    state, events = run(state, Play(0, cards("KS KH")), Pass(1), Pass(2), Pass(3))
    assert of_type(events, "trick_won") == [TrickWon(seat=0, leader=1)]
    assert state.turn == 1


def test_lead_after_out_skips_finished_teammates_with_six_players():
    """With six seats the lead goes to the next *active* teammate (2 is out, so 4), or under
    next_player to the next active seat (1)."""
    hands = ("KS KH", "5S 5H 6C", "3S 3H", "4S 4H QD", "8S 8H 9C", "6S 6H 9D")
    for option, leader in (("teammate", 4), ("next_player", 1)):
        state = table(*hands, leader=2, lead_after_out=option)
        state, events = run(
            state,
            Play(2, cards("3S 3H")),
            Pass(3),
            Pass(4),
            Pass(5),
            Play(0, cards("KS KH")),
            Pass(1),
            Pass(3),
            Pass(4),
        )
        assert state.turn == 5
        state, events = ok(state, Pass(5))
        assert state.finished == (2, 0)
        assert of_type(events, "trick_won") == [TrickWon(seat=0, leader=leader)]


def test_a_non_joker_single_opens_a_hook_window_and_a_joker_single_does_not():
    """After a non-joker single a claim window opens before the next turn; a joker single opens
    none by default (§5, §6.7)."""
    state = table("9S BJ KC", "5S 5H", "7S 7H QC", "4S 4H QD")
    opened, events = ok(state, Play(0, ("9S",)))
    assert opened.phase == "window" and opened.turn is None
    assert events[-1] == WindowOpened(owner=0, face=9, mode="hook", chain=False)
    joker, events = ok(state, Play(0, ("BJ",)))
    assert (joker.phase, joker.turn, joker.window) == ("play", 1, None)
    assert types(events) == ["play"]


def test_timeout_of_a_follower_is_a_pass():
    """A follower that runs out of time passes (§10 turn_seconds)."""
    state, _ = ok(four(), Play(0, cards("3S 3H")))
    state, events = ok(state, Timeout())
    assert events == (Passed(seat=1, timeout=True),)
    assert state.turn == 2 and state.passed == frozenset({1})


def test_timeout_of_a_leader_plays_its_lowest_card_first_in_suit_order():
    """A leader that runs out of time plays its lowest-power card as a single, among equal
    copies the first in suit order S, H, D, C (§10 turn_seconds). At L = 2 the 2s are high."""
    state = table("2S AC 3H 3S", "5S 5H", "7S 7H QC", "4S 4H QD")
    state, events = ok(state, Timeout())
    assert types(events) == ["timeout", "play", "window"]
    assert events[1].cards == ("3S",)
    assert state.hands[0] == ("2S", "3H", "AC")
