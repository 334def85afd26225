"""The worker's AI seats play a match's last trick, and the match ends through the worker.

The browser and league tests end their matches by a resignation or in-process (short matches, for
time); this is the worker's own path to a match's end: its AI seats go out, the round's result
ends the match (§8), and ``match_finished`` is sent after the commit, as for any end.
"""

from __future__ import annotations

import pytest

from games.engine.deal import new_match, start_round
from games.engine.options import Options
from games.models import Match, MatchTally, Move, PlayerMatch
from games.play import services, tables
from tests.games.conftest import install_state
from tests.servers import wait_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("worker")]

OPTIONS = {"target_level": "3", "claim_window_seconds": 0, "turn_seconds": 60}
#: Team 1 (the AI seats 1 and 3) at the target level 3: seat 0 leads 5C, seat 1 goes out with
#: the red joker, nobody can beat it, and its partner seat 3 goes out with the black joker —
#: a double victory at the target level, which ends the match.
HANDS = [("5C", "7D"), ("RJ",), ("6S", "8D"), ("BJ",)]


def test_the_ai_seats_of_the_worker_play_the_last_trick_and_end_the_match(make_table):
    """People at seats 0 and 2, AI at 1 and 3. The people lead and pass; the worker's AI seats
    go out one after the other; the match is won by team 1, and its end (``match_finished``,
    sent by the worker after its commit) counts the match once, for the two people."""
    table = make_table(["ana", None, "bo", None], OPTIONS)
    engine_options = Options.from_dict(OPTIONS, players=4)
    # A seed whose deal a person leads: no AI seat acts on the deal this test replaces.
    seed = next(s for s in range(100) if new_match(engine_options, s).turn in (0, 2))
    match = tables.start(table.pk, table.host, seed=seed)
    state = start_round(table.engine_options(), HANDS, 3, (2, 3), leader=0, seed=seed)
    install_state(match, state)
    Match.objects.filter(pk=match.pk).update(level_team1=3)
    match.rounds.update(level=3, levels_before=[2, 3])
    people = {0: table.host, 2: table.seats.get(number=2).user}

    def act(number: int, **payload) -> None:
        version = Match.objects.get(pk=match.pk).version
        result = services.submit(match.pk, people[number], {"version": version, **payload})
        assert result.ok, result

    def reached(version: int) -> bool:
        return wait_for(lambda: Match.objects.get(pk=match.pk).version >= version, 60)

    act(0, action="play", cards=["5C"])
    assert reached(2)  # seat 1 (AI) went out with the red joker
    act(2, action="pass")
    assert reached(4)  # seat 3 (AI) cannot beat it: it passed
    act(0, action="pass")
    # The trick is seat 1's, who is out: its partner, seat 3, leads its black joker and the
    # match is over — all through the worker.
    assert wait_for(lambda: Match.objects.get(pk=match.pk).winner_team is not None, 60)
    match = Match.objects.get(pk=match.pk)
    assert match.winner_team == 1 and match.is_over
    moves = list(Move.objects.filter(match=match).order_by("seq").values_list("seat", "action"))
    assert moves[1] == (1, {"seat": 1, "type": "play", "cards": ["RJ"]})
    assert moves[-1] == (3, {"seat": 3, "type": "play", "cards": ["BJ"]}) and len(moves) == 6
    assert wait_for(lambda: MatchTally.objects.filter(match=match).exists(), 30)
    assert PlayerMatch.objects.filter(match=match).count() == 2
