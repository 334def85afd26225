"""A whole tournament round in-process: staff create it, players register, round 1 is paired
onto tables where AI stand-ins play every seat of quick matches (target level 3) from one trick
before their end, and the public page ranks the winners first. Commits are real, so
``match_finished`` arrives as in production."""

from __future__ import annotations

import re
import time

import pytest

from games.models import Match
from leagues import tournaments
from leagues.models import Pairing, Tournament, TournamentRound
from tests.games.drivers import drive

from .conftest import install_forced_end, options_post

#: Real commits and a tournament round played out by AI stand-ins: `make test`, not test-fast.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def standings_rows(html: str) -> list[tuple]:
    """(position, team, played, won, lost, levels, caught, byes) from the public page."""
    table = html.split('id="standings"', 1)[1].split("</table>", 1)[0]
    rows = []
    for row in re.findall(r"<tr>(.*?)</tr>", table, re.S)[1:]:
        cells = [
            re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
        ]
        rows.append((int(cells[0]), cells[1].replace("&amp;", "&"), *map(int, cells[2:])))
    return rows


def test_ai_stand_ins_play_round_one_to_the_end_and_the_standings_show_the_winners(
    in_process, client, make_user
):
    """Four pairs, Swiss, target level 3: both matches end, each pairing gets the winner the
    match recorded (levels gained: the winner's 3 − 2 = 1), the round finishes by itself, the
    public standings list both winners first, and round 2 pairs winners with winners."""
    staff = make_user("boss", is_staff=True)
    names = ["ana", "bo", "cy", "di", "ed", "flo", "gus", "hal"]
    people = {n: make_user(n) for n in names}
    client.force_login(staff)
    client.post(
        "/tournaments/staff/new/",
        {
            "name": "AI Open",
            "format": "swiss",
            "team_size": "2",
            "planned_rounds": "0",
            **options_post(target_level="3"),
        },
    )
    t = Tournament.objects.get(name="AI Open")
    client.post(f"/tournaments/{t.pk}/manage/open_registration/")
    for a, b in zip(names[::2], names[1::2], strict=True):
        client.force_login(people[a])
        assert client.post(f"/tournaments/{t.pk}/register/", {"partner_1": b}).status_code == 302
        team = t.teams.get(members__user=people[a])
        tournaments.do_answer_partner(team, people[b], accept=True)
    client.force_login(staff)
    client.post(f"/tournaments/{t.pk}/manage/start/")
    client.post(
        f"/tournaments/{t.pk}/manage/generate_round/", {"start": "on", "stand_in": "heuristic"}
    )

    pairings = list(
        Pairing.objects.filter(round__tournament=t, round__number=1).select_related(
            "team_a", "team_b", "table"
        )
    )
    assert [(p.team_a.name, p.team_b.name) for p in pairings] == [
        ("ana & bo", "cy & di"),
        ("ed & flo", "gus & hal"),
    ]
    for p in pairings:
        seats = list(p.table.seats.all())
        assert all(s.ai_policy == "heuristic" and s.user_id for s in seats)
        assert p.table.engine_options().target_level == 3

    # Each board's match is one trick from its end (board 1's team A wins, board 2's team B):
    # the AI stand-ins play that trick through the writer, whose last commit sends
    # ``match_finished``. (A whole AI match is driven in tests/games/records/conftest.py.)
    started = time.monotonic()
    expected = {}
    for p in pairings:
        install_forced_end(p.table, winner_team=p.board - 1)
        match, steps = drive(Match.objects.get(table=p.table).pk)
        assert match.winner_team == p.board - 1
        p.refresh_from_db()
        assert p.processed_at is not None, "match_finished fed the pairing"
        assert (p.winner_team, p.match_id) == (match.winner_team, match.pk)
        levels = (match.level_team0 - 2, match.level_team1 - 2)
        assert levels[match.winner_team] == 1 and (p.levels_a, p.levels_b) == levels
        caught = [0, 0]
        for rnd in match.rounds.all():
            if rnd.winner_team is not None:
                caught[rnd.winner_team] += len(rnd.caught)
        assert (p.caught_a, p.caught_b) == tuple(caught) and caught[match.winner_team] >= 2
        for side, team in enumerate((p.team_a, p.team_b)):
            won = int(side == match.winner_team)
            expected[team.name] = (1, won, 1 - won, levels[side], caught[side], 0)
        print(f"board {p.board}: {steps} steps")
    print(f"both matches: {time.monotonic() - started:.1f}s")
    assert TournamentRound.objects.get(tournament=t, number=1).status == "finished"

    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    rows = standings_rows(page)
    assert [r[0] for r in rows] == [1, 2, 3, 4]
    assert {r[1]: r[2:] for r in rows} == expected
    winners = {p.winner.name for p in pairings}
    assert {r[1] for r in rows[:2]} == winners and [r[3] for r in rows] == [1, 1, 0, 0]
    assert page.count('class="pill won"') == 2

    client.post(f"/tournaments/{t.pk}/manage/generate_round/", {"start": ""})
    second = Pairing.objects.filter(round__tournament=t, round__number=2)
    assert {frozenset((p.team_a.name, p.team_b.name)) for p in second} == {
        frozenset(winners),
        frozenset(expected) - frozenset(winners),
    }
