"""The phases of a match put in place directly through its state (the engine's own deal, play
and tribute functions), for the browser tests to measure the page in (tests/e2e/measures.py):
the own turn mid-trick, a claim window, a tribute return, a round over."""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from playwright.sync_api import expect

from games.engine.actions import Hook, Pass, Play, Rejection, Return, Unhook
from games.engine.ai.registry import policy
from games.engine.codec import state_to_json
from games.engine.combos import STRAIGHT
from games.engine.deal import deal_hands, new_match, round_rng, start_round
from games.engine.moves import leads
from games.engine.rules import apply, legal_actions
from games.engine.simulate import play_round, step
from games.engine.state import MATCH_OVER, PASSED, PLAY, ROUND_OVER, TRIBUTE, WINDOW, State
from games.engine.tribute import pay_tributes, plan_tributes
from games.models import Match, Table

from .helpers import screenshot, wait_until_live

# --- the phases, made by the engine -----------------------------------------------------------


def _policies(players: int = 4):
    return [policy("heuristic")] * players


def your_turn(options) -> State:
    """Seat 0's turn with all 27 cards, the three other seats having played or passed."""
    for seed in range(200):
        state, rng = new_match(options, seed), random.Random(seed)
        while state.phase == PLAY and len(state.trick) < options.players - 1:
            state, _ = step(state, _policies(options.players), rng)
        if state.phase == PLAY and state.turn == 0 and state.top and len(state.hands[0]) == 27:
            return state
    raise AssertionError("no deal gave seat 0 the fourth turn of the first trick")


def claim_window(options, min_cards: int = 0, claim: type = Hook) -> State:
    """A claim window seat 0 can answer with a hook (while it holds ``min_cards`` or more), or
    with ``claim`` (Unhook: a window on another seat's hook, the claim button's longer word)."""
    for seed in range(400):
        state, rng = new_match(options, seed), random.Random(seed)
        for _ in range(400):
            if len(state.hands[0]) < min_cards:
                break
            if state.phase == WINDOW and state.window and state.window.answers[0] is None:
                if any(isinstance(a, claim) for a in legal_actions(state, 0)):
                    return state
            if state.phase != PLAY and state.phase != WINDOW:
                break
            state, _ = step(state, _policies(options.players), rng)
    raise AssertionError(f"no {claim.__name__} window for seat 0 holding {min_cards} cards or more")


def early_claim_window(options) -> State:
    """A claim window seat 0 can answer with a hook while it still holds 24 cards or more: the
    hand in three rows on a phone, the felt's middle at its smallest (a new user's walk found
    the play to beat cut there, behind the own seat)."""
    return claim_window(options, min_cards=24)


def unhook_window(options) -> State:
    """A claim window on another seat's hook that seat 0 can answer with an unhook, while it
    still holds 20 cards or more: the claim button reads "Unhook" ("Desenganchar")."""
    return claim_window(options, min_cards=20, claim=Unhook)


def partner_window(options) -> State:
    """A claim window on the partner's (seat 2's) single that seat 0 can hook while both hold 20
    cards or more: the partner's seat, across the top of a phone, carries its AI badge, its
    count ("23 kartu"), the window's "claimable" and its card on one line."""
    for seed in range(400):
        state, rng = new_match(options, seed), random.Random(seed)
        for _ in range(400):
            if min(len(state.hands[0]), len(state.hands[2])) < 20 or state.phase not in (
                PLAY,
                WINDOW,
            ):
                break
            window = state.window
            if (
                state.phase == WINDOW
                and window is not None
                and window.owner == 2
                and window.answers[0] is None
                and any(isinstance(a, Hook) for a in legal_actions(state, 0))
            ):
                return state
            state, _ = step(state, _policies(), rng)
    raise AssertionError("no hook window on seat 2's single for seat 0 holding 20 cards")


def answered_window(options, own: bool = False) -> State:
    """A claim window (on another seat's play, or with ``own`` on seat 0's) where every other
    seat has passed (with ``own``, all but one): their "✓ answered" pills and the owner's
    "claimable"."""
    state = own_unhook_window(options) if own else claim_window(options)
    window = state.window
    assert window is not None
    others = [s for s in range(options.players) if s not in (0, window.owner)]
    waiting = others[-1:] if own else []  # seat 0's own window stays open for this one
    answers = tuple(
        PASSED if s in others and s not in waiting else answer
        for s, answer in enumerate(window.answers)
    )
    return state._replace(window=window._replace(answers=answers))


def full_trick_window(options) -> State:
    """A claim window seat 0 can hook, late in a trick: every other seat has a step of it in
    front of its seat (its cards, a hook with its word, a "Pass") and every seat but the owner
    and seat 0 has answered: with six or eight seats, every seat's box at its tallest."""
    for seed in range(400):
        state, rng = new_match(options, seed), random.Random(seed)
        for _ in range(400):
            if state.phase not in (PLAY, WINDOW):
                break
            window = state.window
            if (
                state.phase == WINDOW
                and window is not None
                and window.answers[0] is None
                and {e.seat for e in state.trick} >= set(range(1, options.players))
                and any(isinstance(a, Hook) for a in legal_actions(state, 0))
            ):
                answers = tuple(
                    PASSED if s not in (0, window.owner) else answer
                    for s, answer in enumerate(window.answers)
                )
                return state._replace(window=window._replace(answers=answers))
            state, _ = step(state, _policies(options.players), rng)
    raise AssertionError("no hook window for seat 0 with every other seat's step in front of it")


def _side_step(options, found, what: str) -> State:
    """The first state, over seeds and the AI players' steps (one a seat), while seat 0 still
    holds 15 cards or more, where ``found(state, last)`` holds (``last``: each seat's last step
    of the trick, by seat). Raises AssertionError naming ``what`` when no seed gives one."""
    for seed in range(400):
        state, rng = new_match(options, seed), random.Random(seed)
        for _ in range(400):
            if state.phase != PLAY and state.phase != WINDOW or len(state.hands[0]) < 15:
                break
            if found(state, {entry.seat: entry for entry in state.trick}):
                return state
            state, _ = step(state, _policies(options.players), rng)
    raise AssertionError(f"no {what} while seat 0 holds 15 cards or more")


def side_hook(options) -> State:
    """A side seat's (1 or 3, beside the page's seat 0) last step of the trick is a hook of
    fewer than four cards, while seat 0 still holds 15 cards or more: the play beside that
    seat's name on a phone, with its word ("móc") above its cards."""
    return _side_step(
        options,
        lambda state, last: any(
            seat in last and last[seat].kind == "hook" and len(last[seat].cards) < 4
            for seat in (1, 3)
        ),
        "hook by a side seat",
    )


def side_triple(options) -> State:
    """Seat 0's turn, a side seat's (1 or 3) last step of the trick a play of three cards
    (beside that seat's name on a phone), seat 0 holding 15 cards or more."""
    return _side_step(
        options,
        lambda state, last: (
            state.phase == PLAY
            and state.turn == 0
            and any(
                seat in last and last[seat].kind == "play" and len(last[seat].cards) == 3
                for seat in (1, 3)
            )
        ),
        "triple by a side seat before seat 0's turn",
    )


def long_top_turn(options) -> State:
    """Seat 0's turn with all its cards, the play to beat another seat's of seven cards or more
    (a straight): at 375 px with eight seats it wrapped out of the status's box."""
    for seed in range(200):
        state, rng = new_match(options, seed), random.Random(seed)
        for _ in range(400):
            if state.phase not in (PLAY, WINDOW) or len(state.hands[0]) < 20:
                break
            top = state.top
            if state.phase == PLAY and state.turn == 0 and top and len(top.cards) >= 7:
                return state
            state, _ = step(state, _policies(options.players), rng)
    raise AssertionError("no play to beat of seven cards or more on seat 0's turn")


def _applied(state: State, action) -> State:
    outcome = apply(state, action)
    assert not isinstance(outcome, Rejection), outcome
    return outcome.state


def nine_card_top(options) -> State:
    """Seat 0's turn with all its cards, the play to beat a straight of nine that another seat
    led, the seats between them having passed: on a phone its cards overlapped past reading
    and ran out of their box."""
    return straight_top(options, 9)


def straight_top(options, size: int) -> State:
    """Seat 0's turn with all its cards, the play to beat a straight of ``size`` cards that
    another seat led, the seats between them having passed (twelve: with six seats on a phone
    on its side it took two rows and pushed the levels under the own seat)."""
    for seed in range(200):
        state = new_match(options, seed)
        if state.phase != PLAY or state.turn in (None, 0):
            continue
        straights = [
            cards
            for cards, combo in leads(state.hands[state.turn], state.level, state.options)
            if combo.category == STRAIGHT and combo.size == size
        ]
        if not straights:
            continue
        state = _applied(state, Play(state.turn, straights[0]))
        while state.phase == PLAY and state.turn != 0:
            state = _applied(state, Pass(state.turn))
        if state.phase == PLAY and state.turn == 0:
            return state
    raise AssertionError(f"no deal lets another seat lead a straight of {size} before seat 0")


def own_unhook_window(options) -> State:
    """A claim window on seat 0's own play just after it unhooked a hook (its seat's box shows
    the unhook beside its name), while it holds 15 cards or more: on a phone on its side the own
    seat grew over the status's levels."""
    return _side_step(
        options,
        lambda state, last: (
            state.phase == WINDOW
            and state.window is not None
            and state.window.owner == 0
            and 0 in last
            and last[0].kind == "unhook"
        ),
        "claim window on seat 0's unhook",
    )


def a_hook(options, cards: int | None = None) -> State:
    """A seat's last step of the trick is a hook (its box pulses in front of it), of ``cards``
    cards if given (two: with six or eight seats on a phone on its side its word and its
    cards beside the name), while seat 0 still holds 15 cards or more."""
    return _side_step(
        options,
        lambda state, last: any(
            e.kind == "hook" and (cards is None or len(e.cards) == cards) for e in last.values()
        ),
        "hook" if cards is None else f"hook of {cards} cards",
    )


def tribute(options, seed: int = 5) -> State:
    """Round 2: team 1 (seats 0 and 2) went out first and second, both opponents pay; seat 0
    received a tribute and chooses its return (28 cards in hand). ``seed``: the deal's."""
    hands = deal_hands(options, round_rng(seed, 2), 0)
    tributes, leader = plan_tributes(hands, 3, (0, 2, 1, 3), (1, 3), options)
    state = start_round(options, pay_tributes(hands, tributes), 3, (3, 2), leader, round_no=2)
    return state._replace(phase=TRIBUTE, turn=None, tributes=tributes, dealer=0)


def tribute_returned(options) -> State:
    """``tribute``'s round once both receivers gave their card back: play, the round's two
    payments and returns in the tribute box (compact) for the whole round."""
    state = tribute(options)
    while state.phase == TRIBUTE:
        returns = [a for seat in range(options.players) for a in legal_actions(state, seat)]
        state = _applied(state, next(a for a in returns if isinstance(a, Return)))
    assert state.phase == PLAY and len(state.tributes) == 2, state.phase
    return state


def round_over(options) -> State:
    """Round 1 played to its end by four AI players."""
    return play_round(new_match(options, 3), _policies(), random.Random(3))


def tribute_round_over(options) -> State:
    """Round 2 of a quick match to 3 played from its tribute to its end by four AI players:
    team 1 (seats 0 and 2), at the target level, wins it, seat 0 out second, one opponent
    caught, so the result gives two reasons ("…1 opponent was caught: …", "No level change:
    Team 1 is at the target level…") under the round's tribute box. The state's options say
    the target: the table's own (its header) are the caller's to set."""
    state = play_round(
        tribute(replace(options, target_level=3), seed=2), _policies(), random.Random(2)
    )
    result = state.result
    assert state.phase == ROUND_OVER and result is not None and result.team == 0, result
    assert not state.hands[0] and len(result.caught) == 1 and state.tributes, "pick another seed"
    return state


def round_over_out(options) -> State:
    """Round 1 played to its end by four AI players, seat 0 (the page's own) out of cards."""
    state = play_round(new_match(options, 4), _policies(), random.Random(4))
    assert not state.hands[0], "seed 4 no longer puts seat 0 out: pick another"
    return state


_DEADLINE_KINDS = {
    PLAY: Match.Deadline.TURN,
    WINDOW: Match.Deadline.WINDOW,
    TRIBUTE: Match.Deadline.TRIBUTE,
    ROUND_OVER: Match.Deadline.NEXT_ROUND,
}


def install(table: Table, state: State) -> None:
    """``state`` as the match's, past every move so far (no earlier timer applies to it), with
    a deadline far enough for the measurements, of the phase's kind (its countdown's label: a
    claim window's, "Thời gian móc", is the longest).

    Installed without a move, its moment counts from the match's start for the sweep of lost AI
    decisions (``deadlines.sweep_lost_decisions``, which a worker runs as it starts): that start
    is put at the deadline, so a live stack starting beside the test never answers for its AI
    seats while the test measures it."""
    with transaction.atomic():
        match = Match.objects.select_for_update().get(table=table)
        state = state._replace(version=match.version + 1)
        match.state = state_to_json(state)
        match.version = match.deadline_token = state.version
        match.phase = state.phase
        match.level_team0, match.level_team1 = state.levels
        match.deadline = match.started_at = timezone.now() + timedelta(minutes=10)
        match.deadline_kind = _DEADLINE_KINDS.get(state.phase, match.deadline_kind)
        match.save()


BUTTONS = ["#play-button", "#hint-button", "#clear-button"]

PHASES = {
    "turn": (
        your_turn,
        27,
        [".top-play", ".seat-play.top", "#turn-line", *BUTTONS, "#pass-button"],
    ),
    "window": (
        claim_window,
        None,
        ["#claim-bar", "#claim-button", "#claim-pass-button", ".top-play"],
    ),
    "tribute": (tribute, 28, ["#tribute", "#return-form", "#return-form .card-button"]),
    "round_over": (round_over, None, ["#result", "#result h2"]),
}


#: The one screen: a laptop, two desktops, a phone upright and on its side (width, height).
ONE_SCREEN_SIZES = [(1280, 800), (1366, 768), (1920, 1080), (375, 740), (740, 375)]


def install_match_over(table: Table) -> None:
    """The table's match just over (``round_over`` with team 0's seats winning the match), and
    no deadline, as a match that ended has none."""
    over = round_over(table.engine_options())
    assert over.result is not None
    result = over.result._replace(match_winner=over.result.team, next_level=None)
    install(table, over._replace(phase=MATCH_OVER, result=result))
    Match.objects.filter(table=table).update(deadline=None)


def shoot(page, name: str) -> None:
    screenshot(page, f"one-screen/{name}")


def show_phase(page, table: Table, make) -> State:
    state = make(table.engine_options())
    install(table, state)
    page.reload()
    wait_until_live(page)
    expect(page.locator("#status")).to_have_attribute("data-phase", state.phase)
    page.wait_for_function("() => window.club414.snapshots >= 1")
    return state


def settle(page) -> None:
    """The layout after a resize, and no animation half-way (a play sliding in). The turn's glow
    is not awaited: it moves nothing (a pseudo-element's opacity) and lasts 4.8 s."""
    page.evaluate(
        """() => Promise.all(document.getAnimations()
             .filter(a => a.effect && a.animationName !== 'turn-glow')
             .map(a => a.finished.catch(() => null)))
             .then(() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r))))"""
    )
