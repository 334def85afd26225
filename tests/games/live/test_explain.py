"""A round's result in words (``games.live.explain``, issue #10 item 4), on the result panel and in
the match record: which team had every seat out (and so won the round), whom it caught and what
that did to the levels (RULES.md §0, §7, §8)."""

from __future__ import annotations

import pytest

from games.engine.deal import start_round
from games.live import regions
from games.live.explain import RoundFacts, explain_round
from games.live.presenters import table_context
from games.models import Match, Seat
from games.play import services, tables
from tests.games.conftest import install_state

NAMES = {0: "ana", 1: "bo", 2: "cy", 3: "di"}
A, K = 14, 13


def facts(**changes) -> RoundFacts:
    values = dict(
        players=4,
        finish_order=(0, 1, 2),
        team=0,
        caught=(3,),
        levels_before=(2, 2),
        levels_after=(3, 2),
        target=A,
    )
    values.update(changes)
    return RoundFacts(**values)


def test_the_result_names_the_team_all_out_not_the_first_seat_out():
    """bo (seat 1, team 2) went out first, then cy and ana (team 1): team 1 had every seat out,
    caught di and goes up one level; the first seat out's team is not named (RULES.md §7)."""
    round_facts = facts(finish_order=(1, 2, 0))
    assert explain_round(round_facts, NAMES) == [
        "Every player of Team 1 is out; 1 opponent was caught: di.",
        "Team 1 goes up 1 level: 2 → 3.",
    ]


def test_no_level_change_at_the_target_when_only_one_opponent_is_caught():
    lines = explain_round(
        facts(levels_before=(5, 3), levels_after=(5, 3), target=5, team=0, caught=(1,)), NAMES
    )
    assert lines[-1] == (
        "No level change: Team 1 is at the target level and caught only one opponent "
        "(it must catch all 2 to win)."
    )


def test_a_rise_stops_at_the_target_and_says_what_comes_next():
    """Team 2 at K catches both opponents: it rises to A only (the other step is lost) and
    has not won yet (§8, §11 example 12)."""
    lines = explain_round(
        facts(
            finish_order=(1, 3),
            team=1,
            caught=(0, 2),
            levels_before=(4, K),
            levels_after=(4, A),
        ),
        NAMES,
    )
    assert lines == [
        "Every player of Team 2 is out; 2 opponents were caught: ana, cy.",
        "Team 2 goes up 1 level: K → A.",
        "Levels stop at the target level A: the other steps are lost.",
        "Team 2 is at the target level: catching every opponent in a round from there wins "
        "the match.",
    ]


def test_a_match_win_and_a_resignation_are_explained():
    won = facts(
        finish_order=(0, 2),
        caught=(1, 3),
        levels_before=(3, 2),
        levels_after=(3, 2),
        target=3,
        match_winner=0,
    )
    assert explain_round(won, NAMES)[-1] == (
        "Team 1 wins the match: it started the round at the target level 3 and caught every "
        "opponent."
    )
    resigned = facts(finish_order=(), team=0, caught=(), match_winner=0, resigned=3)
    assert explain_round(resigned, NAMES) == [
        "di resigned, so Team 1 wins the match; the levels stay as they were."
    ]
    assert explain_round(facts(team=None, levels_after=None), NAMES) == []


@pytest.fixture
def round_won_by_team_1_after_team_2_went_out_first(make_table):
    """ana, bo, cy, di (seats 0–3), no claim windows. bo leads his last card (out first), cy
    plays her last card, di and ana cannot beat it; ana leads her last card: team 1 (ana, cy)
    is all out, di is caught (RULES.md §5, §7)."""
    table = make_table(["ana", "bo", "cy", "di"], {"claim_window_seconds": 0})
    match = tables.start(table.pk, table.host, seed=3)
    hands = [("5S",), ("3S",), ("6S",), ("4C", "4D", "7H")]
    install_state(match, start_round(table.engine_options(), hands, 2, leader=1, seed=3))
    people = {s.number: s.user for s in Seat.objects.filter(table=table).select_related("user")}

    def act(number: int, **payload) -> None:
        version = Match.objects.get(pk=match.pk).version
        result = services.submit(match.pk, people[number], {"version": version, **payload})
        assert result.ok, result

    act(1, action="play", cards=["3S"])
    act(2, action="play", cards=["6S"])
    act(3, action="pass")
    act(0, action="pass")
    act(0, action="play", cards=["5S"])
    match = Match.objects.select_related("table").get(pk=match.pk)
    assert services.load_state(match).finished == (1, 2, 0)
    return match


@pytest.mark.django_db
def test_the_result_headline_is_the_team_all_out_not_the_first_seat_out(
    round_won_by_team_1_after_team_2_went_out_first,
):
    """Issue #18: the headline said "Team 2 finished first" (bo of team 2 went out first) while
    the lines below said team 1 had every player out and moved up. A round ends when one team
    has all finished (RULES.md §0, §7): that team, team 1, is the headline."""
    match = round_won_by_team_1_after_team_2_went_out_first
    state = services.load_state(match)
    context = table_context(match.table, match, state, 3)
    assert context.result["team"] == 0
    html = regions.RESULT.render(context)
    headline = html.split('id="result-headline">')[1].split("</h2>")[0]
    assert headline == "Team 1 wins the round"
    assert "finished first" not in html and "went out first" not in html
    assert "Every player of Team 1 is out; 1 opponent was caught: di." in html
    assert "Team 1 goes up 1 level: 2 → 3." in html


@pytest.mark.django_db
def test_the_record_explains_each_round_as_the_panel_does(
    round_won_by_team_1_after_team_2_went_out_first, client
):
    match = round_won_by_team_1_after_team_2_went_out_first
    client.force_login(Seat.objects.get(table=match.table, number=0).user)
    html = client.get(f"/matches/{match.pk}/").content.decode()
    row = html.split('id="record-round-1"')[1].split("</tr>")[0]
    assert "Team 1</span> wins the round" in row
    assert "finished first" not in html
    explained = html.split('id="round-1-explained"')[1].split("</tr>")[0]
    assert "went out first" not in explained
    assert "Every player of Team 1 is out; 1 opponent was caught: di." in explained
    assert "Team 1 goes up 1 level: 2 → 3." in explained
    assert "Round over: every player of Team 1 is out" in html  # the move's log line
