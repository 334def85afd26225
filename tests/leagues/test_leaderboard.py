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
    assert "Everyone starts at 0" in explained
    assert "losing lowers it, below 0 too" in explained
    assert "starts at 0 and rises" not in explained


#: The leaderboard's rating in plain words, per language, and its "How is it computed?".
PLAIN = {
    "en": (
        "Your rating shows how well you play at rated tables. Winning raises it, more so "
        "against strong players; losing lowers it, below 0 too. Everyone starts at 0, a low "
        "figure on purpose: the rating counts only the skill your matches have shown, so it "
        "climbs as you play more. A match counts when every seat is a person.",
        "How is it computed?",
    ),
    "es": (
        "Tu puntuación muestra lo bien que juegas en las mesas puntuables. Ganar la sube, más "
        "aún contra jugadores fuertes; perder la baja, también por debajo de 0. Todos empiezan "
        "en 0, una cifra baja a propósito: la puntuación solo cuenta la habilidad que tus "
        "partidas han demostrado, así que sube a medida que juegas más. Una partida cuenta "
        "cuando todos los asientos son personas.",
        "¿Cómo se calcula?",
    ),
    "id": (
        "Rating Anda menunjukkan seberapa baik Anda bermain di meja berperingkat. Menang "
        "menaikkannya, lebih tinggi lagi bila melawan pemain kuat; kalah menurunkannya, bisa "
        "sampai di bawah 0. Semua pemain mulai dari 0, angka yang sengaja rendah: rating hanya "
        "menghitung kemampuan yang sudah terlihat dari pertandingan Anda, jadi rating naik "
        "seiring Anda bermain lebih banyak. Pertandingan dihitung bila setiap kursi diisi orang.",
        "Bagaimana cara menghitungnya?",
    ),
    "vi": (
        "Điểm xếp hạng cho biết bạn chơi giỏi đến đâu ở các bàn tính điểm. Thắng thì điểm tăng, "
        "thắng người chơi mạnh thì tăng nhiều hơn; thua thì điểm giảm, có thể xuống dưới 0. Ai "
        "cũng bắt đầu từ 0, một con số cố ý để thấp: điểm chỉ tính trình độ mà các trận của bạn "
        "đã cho thấy, nên điểm tăng dần khi bạn chơi nhiều hơn. Một trận được tính khi mọi chỗ "
        "ngồi đều là người.",
        "Điểm được tính thế nào?",
    ),
}


@pytest.mark.parametrize("language", sorted(PLAIN))
def test_the_rating_is_explained_in_plain_words(client, language):
    """A tester read "openskill, Plackett-Luce, μ − 3σ" as the leaderboard's explanation: it
    now says in a player's words what the figure means, that wins against strong players raise
    it more and why a new player starts low; the model and the formula wait behind "How is it
    computed?" (a closed <details>), in every language."""
    from django.conf import settings

    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    html = client.get("/leaderboard/").content.decode()
    plain, question = PLAIN[language]
    explained = html.split('id="rating-explained">')[1].split("</p>")[0]
    assert " ".join(explained.split()) == plain
    computed = html.split('<details id="rating-computed">')[1].split("</details>")[0]
    assert f"<summary>{question}</summary>" in computed
    assert "openskill" in computed and "μ − 3σ" in computed
    outside = html.replace(computed, "")
    assert not [w for w in ("openskill", "Plackett", "μ", "σ") if w in outside]
