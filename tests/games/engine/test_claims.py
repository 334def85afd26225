"""RULES.md §6: hook and unhook claim windows — priority by seat, answers, expiry, chains,
``bomb_in_window``, ``joker_hook`` and ``claim_window_seconds``."""

from __future__ import annotations

from games.engine import Hook, Pass, Play, Timeout, Unhook, legal_actions
from games.engine.events import (
    Answered,
    Bombed,
    HiddenAnswer,
    Hooked,
    Outranked,
    RoundOver,
    TrickWon,
    Unhooked,
    WindowClosed,
    WindowOpened,
)
from games.engine.rules import seats_to_act
from games.engine.state import Top
from games.engine.views import event_for, seat_view, spectator_view

from .helpers import cards, of_type, ok, refused, run, table, types

NINES = ("9S KC KD", "9H 9D 5C", "9S 3C 6D", "9C 9C 8D")


def nine_led(**options):
    """Seat 0 has led a single 9; seats 1 and 3 can hook, seat 2 can unhook."""
    state, _ = ok(table(*NINES, **options), Play(0, ("9S",)))
    return state


def test_a_single_opens_a_hook_window_owned_by_its_player():
    """A single of face r by seat P opens window(owner=P, face=r, mode=hook, chain=false) (§6.1);
    every active non-owner seat is asked, nearest clockwise first (§6.4)."""
    state = nine_led()
    assert state.phase == "window"
    assert state.window[:4] == (0, 9, "hook", False)
    assert state.window.answers == (None, None, None, None)
    assert seats_to_act(state) == [1, 2, 3]
    assert legal_actions(state, 1) == [Pass(1), Hook(1, ("9H", "9D"))]
    assert legal_actions(state, 2) == [Pass(2)]
    assert legal_actions(state, 0) == []


def test_a_farther_claim_waits_for_nearer_seats_and_loses_to_a_nearer_claim():
    """Priority is by seat, not arrival: seat 3's earlier hook waits; seat 2 passes; seat 1's
    later hook wins. Seat 3 keeps its cards and is told it was outranked by seat 1 (§6.3)."""
    state = nine_led()
    state, events = ok(state, Hook(3, ("9C", "9C")))
    assert events == (Answered(seat=3, cards=("9C", "9C")),)
    assert state.phase == "window"
    assert state.hands[3] == ("8D", "9C", "9C")
    assert seats_to_act(state) == [1, 2]
    state, events = ok(state, Pass(2))
    assert events == (Answered(seat=2, cards=None),)
    assert state.phase == "window"
    state, events = ok(state, Hook(1, ("9H", "9D")))
    assert types(events) == ["answer", "outranked", "hook", "window"]
    assert events[1] == Outranked(seat=3, by=1)
    assert events[2] == Hooked(seat=1, cards=("9H", "9D"), owner=0)
    assert events[3] == WindowOpened(owner=1, face=9, mode="unhook", chain=True)
    assert state.hands[1] == ("5C",)
    assert state.hands[3] == ("8D", "9C", "9C")
    assert state.top.seat == 1 and state.top.cards == ("9H", "9D")
    assert state.top.combo.category == "pair"


def test_a_farther_claim_wins_once_every_nearer_seat_has_passed():
    """A claim is decisive once every seat nearer to the owner has passed (§6.3)."""
    state, _ = run(nine_led(), Hook(3, ("9C", "9C")), Pass(2))
    state, events = ok(state, Pass(1))
    assert types(events) == ["answer", "hook", "window"]
    assert events[1].seat == 3
    assert state.window[:4] == (3, 9, "unhook", True)
    assert state.hands[3] == ("8D",)


def test_the_nearest_claim_is_decisive_at_once():
    """The seat next to the owner claims: nobody can outrank it, so it wins immediately (§6.3)."""
    state, events = ok(nine_led(), Hook(1, ("9H", "9D")))
    assert types(events) == ["answer", "hook", "window"]
    assert state.window.owner == 1


def test_each_seat_answers_once():
    """A second answer to the same window is refused: already_answered (§6.3)."""
    state, _ = ok(nine_led(), Pass(3))
    refused(state, Pass(3), "already_answered")
    refused(state, Hook(3, ("9C", "9C")), "already_answered")
    assert legal_actions(state, 3) == []
    assert seats_to_act(state) == [1, 2]


def test_the_owner_cannot_answer_its_own_window():
    """The owner may neither pass nor claim its own window (§6.3)."""
    state = table("9S 9H 9D KC", "5S 5H 5C", "7S 6D", "8S 8D", claim_window_seconds=4)
    state, _ = ok(state, Play(0, ("9S",)))
    refused(state, Pass(0), "owner_cannot_claim")
    refused(state, Hook(0, ("9H", "9D")), "owner_cannot_claim")


def test_claims_must_have_the_windows_face_mode_and_size():
    """A hook is exactly two cards of the window's face, an unhook one (§6.2)."""
    state = nine_led()
    refused(state, Hook(1, ("9H",)), "invalid_claim")
    refused(state, Hook(1, ("9H", "5C")), "invalid_claim")
    refused(state, Hook(1, ("9H", "9D", "9D")), "invalid_claim")
    refused(state, Unhook(1, ("9H",)), "invalid_claim")
    refused(state, Hook(2, ("9S", "9S")), "not_in_hand")


def test_no_normal_play_during_a_window():
    """While a window is open only claims and passes are legal (§6.4)."""
    state = nine_led()
    refused(state, Play(1, ("5C",)), "window_open")
    refused(state, Play(3, ("9C", "9C")), "window_open")


def test_expiry_passes_the_seats_that_did_not_answer():
    """When the window's time runs out, silent seats pass: the waiting farther claim wins
    (§6.3)."""
    state, _ = ok(nine_led(), Hook(3, ("9C", "9C")))
    state, events = ok(state, Timeout())
    assert types(events) == ["window_expired", "hook", "window"]
    assert events[1].seat == 3
    assert state.window[:4] == (3, 9, "unhook", True)


def test_an_unclaimed_first_window_resumes_normal_play_after_the_single():
    """No claim, chain = false: the seat after the single's player must beat it or pass (§6.6)."""
    state, events = run(nine_led(), Pass(1), Pass(2), Pass(3))
    assert types(events)[-1] == "window_closed"
    assert (state.phase, state.turn, state.window) == ("play", 1, None)
    assert state.top == Top(0, ("9S",), state.top.combo)
    assert Pass(1) in legal_actions(state, 1)


def test_an_expired_first_window_resumes_normal_play():
    """An unanswered window that expires closes like an all-pass one (§6.3, §6.6)."""
    state, events = ok(nine_led(), Timeout())
    assert types(events) == ["window_expired", "window_closed"]
    assert (state.phase, state.turn) == ("play", 1)


def test_a_chain_that_ends_unclaimed_ends_the_trick_and_the_last_claimant_leads():
    """chain = true and no claim: the trick ends and the last claimant leads anything (§6.6)."""
    state, _ = ok(nine_led(), Hook(1, ("9H", "9D")))
    assert seats_to_act(state) == [2, 3, 0]
    state, events = run(state, Pass(2), Pass(3), Pass(0))
    assert types(events)[-2:] == ["window_closed", "trick_won"]
    assert events[-1] == TrickWon(seat=1, leader=1)
    assert (state.phase, state.turn, state.top, state.trick) == ("play", 1, None, ())


def test_teammates_may_claim_and_the_original_player_may_unhook():
    """Teammates may hook; the player of the original single may unhook (§6.2)."""
    state = table("9S 9S KC", "5C 6C", "9H 9D 3C", "8D 8C")
    state, events = run(state, Play(0, ("9S",)), Pass(1), Hook(2, ("9H", "9D")))
    assert of_type(events, "hook")[0].seat == 2
    state, events = run(state, Pass(3), Unhook(0, ("9S",)))
    assert of_type(events, "unhook") == [Unhooked(seat=0, cards=("9S",), owner=2)]
    assert state.window[:4] == (0, 9, "hook", True)
    assert state.top.combo.category == "single"


def test_a_pending_claim_is_hidden_from_other_seats():
    """Other seats see that a seat answered, never what; its cards stay in its hand (§6.4)."""
    state = nine_led()
    state, events = ok(state, Hook(3, ("9C", "9C")))
    answer = events[0]
    assert event_for(answer, 3) == answer
    assert event_for(answer, 1) == HiddenAnswer(seat=3)
    assert event_for(answer, None) == HiddenAnswer(seat=3)
    other = seat_view(state, 1)
    assert other.window.answered == (False, False, False, True)
    assert other.my_answer is None
    assert other.hand_sizes == (2, 3, 3, 3)
    assert seat_view(state, 3).my_answer == ("9C", "9C")
    assert spectator_view(state).my_answer is None


def test_the_outranked_event_is_told_to_the_outranked_claimant_only():
    """An outranked claimant is told who outranked it; nobody else gets that event (§6.3)."""
    state, _ = run(nine_led(), Hook(3, ("9C", "9C")), Pass(2))
    _, events = ok(state, Hook(1, ("9H", "9D")))
    outranked = of_type(events, "outranked")[0]
    assert event_for(outranked, 3) == Outranked(seat=3, by=1)
    assert [event_for(outranked, s) for s in (0, 1, 2, None)] == [None] * 4


def test_finished_seats_are_not_asked_and_cannot_answer():
    """Only active seats answer a window (§6.2); a claim that finishes a team ends the round at
    once, mid-window (§6.8, §7)."""
    state = table("AS AH 9S KC", "9H 9D", "5S 6D", "QS QH", leader=3)
    state, _ = run(
        state, Play(3, cards("QS QH")), Play(0, cards("AS AH")), Pass(1), Pass(2), Play(0, ("9S",))
    )
    assert seats_to_act(state) == [1, 2]
    refused(state, Pass(3), "finished")
    state, events = ok(state, Hook(1, ("9H", "9D")))
    assert types(events) == ["answer", "hook", "finished", "round_over"]
    assert events[-1] == RoundOver(
        team=1, caught=(0, 2), levels=(2, 4), next_level=4, match_winner=None
    )
    assert (state.phase, state.window, state.top, state.turn) == ("round_over", None, None, None)
    assert state.finished == (3, 1)


def test_bomb_in_window_closes_the_window_and_drops_pending_claims():
    """bomb_in_window: a non-owner seat bombs instead of answering; pending claims are dropped
    with their cards kept, the bomb is the top play, play continues after the bomber (§6.4)."""
    hands = ("9S KC KD", "5C 6C 7C", "5S 5H 5D 5C", "9C 9C 8D")
    state, _ = run(table(*hands, bomb_in_window=True), Play(0, ("9S",)), Hook(3, ("9C", "9C")))
    bomb = Play(2, cards("5S 5H 5D 5C"))
    assert bomb in legal_actions(state, 2)
    state, events = ok(state, bomb)
    assert events[0] == WindowClosed(owner=0, bombed=True)
    assert events[1] == Bombed(seat=2, cards=("5S", "5H", "5D", "5C"), combination="kind_bomb")
    assert (state.phase, state.window, state.turn) == ("play", None, 3)
    assert state.top.seat == 2 and state.top.combo.category == "kind_bomb"
    assert state.hands[3] == ("8D", "9C", "9C")


def test_without_bomb_in_window_a_bomb_waits():
    """By default no bomb may be played during a window (§6.4)."""
    hands = ("9S KC KD", "5C 6C 7C", "5S 5H 5D 5C", "9C 9C 8D")
    state, _ = ok(table(*hands), Play(0, ("9S",)))
    refused(state, Play(2, cards("5S 5H 5D 5C")), "window_open")
    assert legal_actions(state, 2) == [Pass(2)]


def test_bomb_in_window_allows_a_seat_that_passed_earlier_but_only_bombs():
    """Under bomb_in_window a seat that passed earlier in the trick may bomb into a window; a
    non-bomb play is still refused (§6.4)."""
    hands = ("3S KC KD", "5C 6C 7C", "5S 5H 5D 5C 4D", "8D 8C 9C")
    state, _ = run(
        table(*hands, bomb_in_window=True),
        Play(0, ("3S",)),
        Timeout(),
        Pass(1),
        Pass(2),
        Play(3, ("8D",)),
    )
    assert state.window[:3] == (3, 8, "hook")
    refused(state, Play(2, ("4D",)), "window_open")
    state, events = ok(state, Play(2, cards("5S 5H 5D 5C")))
    assert state.top.seat == 2 and state.turn == 3


def test_joker_hook_with_three_decks():
    """joker_hook: a joker single opens a window of its colour; two jokers of that colour hook
    it and the hook is not a bomb (§6.7). Six players, three decks."""
    hands = ("RJ 3S 3H", "RJ RJ BJ 5C", "4S 4H 6D", "7S 7H 8D", "8S 8H 9C", "10S 10H JD")
    state, events = ok(table(*hands, joker_hook=True), Play(0, ("RJ",)))
    assert events[-1] == WindowOpened(owner=0, face=17, mode="hook", chain=False)
    refused(state, Hook(1, ("BJ", "RJ")), "invalid_claim")
    state, events = ok(state, Hook(1, ("RJ", "RJ")))
    assert events[1] == Hooked(seat=1, cards=("RJ", "RJ"), owner=0)
    assert state.top.combo.category == "pair"
    assert not state.top.combo.is_bomb
    assert state.window[:4] == (1, 17, "unhook", True)
    state, events = ok(state, Timeout())
    assert events[-1] == TrickWon(seat=1, leader=1)


def test_a_joker_single_opens_no_window_without_joker_hook():
    """Jokers cannot be hooked by default: the next seat simply follows (§6.7)."""
    hands = ("RJ 3S 3H", "RJ RJ BJ 5C", "4S 4H 6D", "7S 7H 8D", "8S 8H 9C", "10S 10H JD")
    state, events = ok(table(*hands), Play(0, ("RJ",)))
    assert types(events) == ["play"]
    assert (state.phase, state.turn) == ("play", 1)
    refused(state, Hook(1, ("RJ", "RJ")), "no_window")


def test_claim_window_seconds_zero_opens_no_window():
    """claim_window_seconds = 0 disables hooking: a single opens no window (§10)."""
    state, events = ok(table(*NINES, claim_window_seconds=0), Play(0, ("9S",)))
    assert types(events) == ["play"]
    assert (state.phase, state.turn, state.window) == ("play", 1, None)
    refused(state, Hook(1, ("9H", "9D")), "no_window")
    assert legal_actions(state, 1) == [Pass(1)]
