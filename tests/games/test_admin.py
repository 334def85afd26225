"""The admin shows records, never a hand (the brief: secrets stay secret in admin lists too)."""

from __future__ import annotations

import pytest

from games.models import Match, Move
from games.play import services

pytestmark = pytest.mark.django_db

HANDS = [["10D", "10C", "JS"], ["10H", "QS", "KS"], ["10S", "QH", "KH"], ["JH", "QD", "KD"]]


@pytest.fixture
def staff_client(client, make_user):
    admin = make_user("boss", is_staff=True, is_superuser=True)
    client.force_login(admin)
    return client


def test_match_and_move_admin_pages_show_no_card_of_a_live_hand(
    staff_client, make_table, start_with_hands
):
    """Match list and page, and the move list, of a live match name no card."""
    table = make_table(["ana", "bo", "cy", "di"])
    match = start_with_hands(table, HANDS, leader=0)
    assert services.submit(
        match.pk, table.host, {"action": "play", "cards": ["JS"], "version": 0}
    ).ok
    pages = [
        "/admin/games/match/",
        f"/admin/games/match/{match.pk}/change/",
        "/admin/games/move/",
        f"/admin/games/move/{Move.objects.get(match=match).pk}/change/",
        f"/admin/games/table/{table.pk}/change/",
    ]
    for url in pages:
        response = staff_client.get(url)
        assert response.status_code == 200, url
        html = response.content.decode()
        for card in ("10D", "10C", "10H", "10S", "JS"):
            assert f"'{card}'" not in html and f'"{card}"' not in html, (url, card)


def test_matches_cannot_be_edited_in_the_admin(staff_client, make_table, start_with_hands):
    """A match is written by services only: the admin offers no change or delete."""
    table = make_table(["ana", "bo", "cy", "di"])
    match = start_with_hands(table, HANDS, leader=0)
    response = staff_client.post(f"/admin/games/match/{match.pk}/delete/", {"post": "yes"})
    assert response.status_code == 403
    assert Match.objects.filter(pk=match.pk).exists()


@pytest.mark.parametrize(
    "url",
    [
        "/admin/games/match/?state__icontains=RJ",
        "/admin/games/match/?seed=1",
        "/admin/games/move/?action__icontains=RJ",
        "/admin/games/move/?events__icontains=cards",
    ],
)
def test_secret_fields_cannot_be_searched_in_the_admin(
    staff_client, make_table, start_with_hands, url
):
    """Filtering on the state, seed or move contents would find hidden cards: refused."""
    table = make_table(["ana", "bo", "cy", "di"])
    start_with_hands(table, HANDS, leader=0)
    assert staff_client.get(url).status_code == 400


def test_the_seed_is_hidden_while_the_match_is_live(staff_client, make_table, start_with_hands):
    """The seed deals every round, so the admin shows it only after the match."""
    table = make_table(["ana", "bo", "cy", "di"])
    match = start_with_hands(table, HANDS, leader=0)
    Match.objects.filter(pk=match.pk).update(seed=987654321)
    html = staff_client.get(f"/admin/games/match/{match.pk}/change/").content.decode()
    assert "987654321" not in html
    assert "hidden until the match is over" in html


def test_seats_of_a_started_table_cannot_be_changed_in_the_admin(
    staff_client, make_user, make_table, start_with_hands
):
    """Sitting oneself at a live table would show that seat's hand: the seats are read-only."""
    table = make_table(["ana", "bo", "cy", "di"])
    start_with_hands(table, HANDS, leader=0)
    html = staff_client.get(f"/admin/games/table/{table.pk}/change/").content.decode()
    assert 'name="seats-0-user"' not in html
    assert 'name="options"' not in html
