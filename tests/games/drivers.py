"""Driving AI seats in-process, for tests that play a match without a worker."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from django.test import override_settings
from django.utils import timezone

from accounts.models import User
from games.engine.actions import Action
from games.engine.codec import action_to_json
from games.engine.rules import seats_to_act
from games.engine.state import State
from games.models import Match, Round, Seat
from games.play import ai_turns, deadlines, services, stewarding


def act_now(match_id: int, seat: int, token: int) -> bool:
    """AI seat ``seat`` decides and acts at once, at the moment ``token``: the worker's path
    (``deadlines.ai_decide`` then ``deadlines.ai_apply``) without the window answer's pause.
    Returns whether it acted."""
    decided = deadlines.ai_decide(match_id, seat, token)
    return decided is not None and deadlines.ai_apply(match_id, seat, token, decided[0])


def person_acts(match_id: int, seat: int, token: int) -> bool:
    """The person at ``seat`` (whose seat names a policy: ``stewarding.open_table``'s
    ``(user, policy)``) sends the move that policy picks, through the writer as a page would
    (``services.submit``): the move is theirs (``Move.by_ai`` false), not a stand-in's, so
    their round review weighs it. Returns whether it was applied."""
    decided = deadlines.ai_decide(match_id, seat, token)
    if decided is None:
        return False
    user = Seat.objects.get(table__match=match_id, number=seat).user
    assert user is not None, seat
    return _send(match_id, user, decided[0], Match.objects.get(pk=match_id).version)


def _send(match_id: int, user: User, action: Action, version: int) -> bool:
    """``user`` sends ``action`` at ``version`` through the writer, as a page would."""
    data = action_to_json(action)
    payload = {"action": data.pop("type"), **data, "version": version}
    payload.pop("seat", None)
    return services.submit(match_id, user, payload).ok


def finished(match: Match) -> bool:
    """Whether ``match`` has its winner (``drive``'s default end)."""
    return match.winner_team is not None


def drive(
    match_id: int,
    max_steps: int = 20000,
    until: Callable[[Match], bool] = finished,
    people: bool = False,
) -> tuple[Match, int]:
    """Play a match whose seats are all AI (or stood in for) with the writer until ``until``
    holds for it (default: it is finished): each step lets the first seat due act, or, when
    nobody is due (or nobody moved), rings the current deadline as its timer would (a timeout
    is an action, RULES.md §10). A person's seat is played by its timeouts; with ``people``, a
    person's seat that names a policy sends that policy's moves itself (as ``person_acts``), as if
    they played them, rather than by its stand-in. Returns the match as it then is and the
    steps taken."""
    persons = (
        {
            s.number: (s.user, s.ai_policy)
            for s in Seat.objects.filter(table__match=match_id, user__isnull=False).select_related(
                "user"
            )
        }
        if people
        else {}
    )

    def moved(match: Match, state: State, seat: int) -> bool:
        if seat not in persons:
            return act_now(match_id, seat, match.deadline_token)
        # A person's move: what their seat's policy picks in the state this step read, as
        # ``person_acts`` (``deadlines.ai_decide``'s decision) without reading it all again.
        user, policy = persons[seat]
        if not policy:
            return False  # they never move: their turns time out
        left = (match.deadline - timezone.now()).total_seconds() if match.deadline else None
        action, _pause = ai_turns.decide(state, seat, policy, match.seed, left)
        return _send(match_id, user, action, match.version)

    for step in range(max_steps):
        match = Match.objects.get(pk=match_id)
        if until(match):
            return match, step
        state = services.load_state(match)
        if any(moved(match, state, seat) for seat in seats_to_act(state)[:1]):
            continue
        if Match.objects.get(pk=match_id).version != match.version:
            # The decision came after the deadline (on a busy box, or while another match was
            # driven): the writer made the deadline's own transition instead.
            continue
        Match.objects.filter(pk=match_id).update(deadline=timezone.now() - timedelta(seconds=1))
        assert deadlines.expire(match_id, match.deadline_token), match.phase
    raise AssertionError(f"match {match_id} did not get there in {max_steps} steps")


def round_one_ended(match: Match) -> bool:
    """Whether round 1 of ``match`` is over (a ``drive`` end)."""
    return Round.objects.filter(match=match, number=1, ended_at__isnull=False).exists()


def first_round(ana: User, bo: User, seed: int = 414) -> Match:
    """A table of two people (``ana`` at seat 0, ``bo`` at seat 2, sending the moves the
    heuristic picks: their own moves, ``person_acts``) and two AI seats; its first round played
    to its end in this process through the writer (so its end asks for the review, as in
    production), then left there (round 2 not dealt)."""
    table = stewarding.open_table(
        ana,
        name=f"review table {seed}",
        options={"claim_window_seconds": 1},
        seats=[(ana, "heuristic"), (None, "heuristic"), (bo, "heuristic"), (None, "heuristic")],
        start=True,
        seed=seed,
    )
    match_id = Match.objects.get(table=table).pk
    with override_settings(GAMES_STAND_IN_AFTER_TIMEOUTS=0):  # timeouts bring no stand-in
        return drive(match_id, until=round_one_ended, people=True)[0]
