"""The leaderboard (``leagues.leaderboard_views``): everyone's site rating
(``leagues.ratings.do_rate_site_match``), best first, with a fixed number of statements."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Match

pytestmark = pytest.mark.django_db


def statements(client, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def test_the_leaderboard_costs_the_same_statements_for_many_players(bomb_to_win, resigned, client):
    """Its statements do not grow with the players rated (or the matches they played)."""
    bomb_to_win(rated=True)
    client.force_login(Match.objects.get().table.host)
    one_board = statements(client, "/leaderboard/")
    # Names with a digit after two letters: "b0" would pass for the fixture's "bo".
    for n in range(3):
        bomb_to_win(names=("ana", f"bx{n}", f"cx{n}", f"dx{n}"), rated=True)
        resigned(["ana", f"ex{n}"], by=1)
    assert statements(client, "/leaderboard/") == one_board
    assert one_board <= 8


def test_the_leaderboard_ranks_by_rating(bomb_to_win, client, make_user):
    bomb_to_win(rated=True)
    html = client.get("/leaderboard/").content.decode()
    order = [name for name in ("ana", "bo", "cy", "di") if f'id="leaderboard-{name}"' in html]
    assert order == ["ana", "bo", "cy", "di"]
    ranks = sorted(html.index(f'id="leaderboard-{name}"') for name in order)
    winners = {html.index('id="leaderboard-ana"'), html.index('id="leaderboard-cy"')}
    assert set(ranks[:2]) == winners, "the winners rank first"
    client.force_login(make_user("newbie"))
    page = client.get("/leaderboard/").content.decode()
    assert 'id="leaderboard-link"' in page and 'id="my-rating"' not in page


def test_the_explanation_agrees_with_the_losers_figures(bomb_to_win, client):
    """Issue #18 §2: the page said ratings start at 0 and rise, while the losers of a first
    rated match showed −1.5. The figure is openskill's ordinal (μ − 3σ, 0 for a new player):
    the text now says a loss lowers it, below 0 too."""
    bomb_to_win(rated=True)
    html = client.get("/leaderboard/").content.decode()
    figure = html.split('id="leaderboard-bo"')[1].split('class="num rating">')[1].split("<")[0]
    assert float(figure.replace("−", "-")) < 0  # bo lost his first rated match
    explained = html.split('id="rating-explained">')[1].split("</p>")[0]
    assert "A new player starts at 0" in explained
    assert "a loss usually lowers it, below 0 too" in explained
    assert "starts at 0 and rises" not in explained
