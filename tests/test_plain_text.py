"""Names and chat lines keep only visible text (config.plain_text): a right-to-left override or
a zero-width mark cannot make a table's name read backwards in the lobby (the breaker's walk)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from config.plain_text import visible
from games.chat.rooms import clean_text
from games.models import Table
from tests.games.play.test_table_setup import form_data

RLO, ZWJ, ZWSP = "\u202e", "\u200d", "\u200b"


def test_visible_drops_controls_and_format_characters_and_keeps_letters_and_spaces():
    assert visible(f"{RLO}<b>x</b>") == "<b>x</b>"
    assert visible(f" Tr{ZWSP}ận đấu{ZWJ} 414\n\t ") == "Trận đấu 414"
    assert visible("Mesa de Ana · ♠ 4-1-4") == "Mesa de Ana · ♠ 4-1-4"
    assert clean_text(f"hi{RLO} there") == "hi there"


def test_a_text_of_several_lines_keeps_its_line_breaks_only():
    text = f" {RLO}Liga{ZWSP} de\r\nlos viernes\n\n\tcada semana\x00 "
    assert visible(text, lines=True) == "Liga de\nlos viernes\n\ncada semana"
    assert visible(text) == "Liga delos viernescada semana"  # a name is one line


@pytest.mark.django_db
def test_league_and_tournament_texts_are_kept_without_invisible_characters():
    from leagues.forms import LeagueForm
    from leagues.tournament_forms import TournamentForm

    league = LeagueForm({"name": f"{RLO}Liga", "description": f"{RLO}Liga\r\nde viernes"})
    league.is_valid()
    assert league.cleaned_data["name"] == "Liga"
    assert league.cleaned_data["description"] == "Liga\nde viernes"
    tournament = TournamentForm({"name": f"Copa{RLO}", "description": f"{RLO}otoño\n2026"})
    tournament.is_valid()
    assert tournament.cleaned_data["name"] == "Copa"
    assert tournament.cleaned_data["description"] == "otoño\n2026"


@pytest.mark.parametrize(
    "emoji",
    [
        "\U0001f468\u200d\U0001f469\u200d\U0001f467",  # family: man, woman, girl
        "\U0001f3c3\u200d\u2640\ufe0f",  # woman running
        "\U0001f469\U0001f3fd\u200d\U0001f4bb",  # woman technologist, medium skin tone
        "\u2764\ufe0f\u200d\U0001f525",  # heart on fire
    ],
)
def test_an_emoji_keeps_the_joiners_that_make_it_one_picture(emoji):
    assert clean_text(f"gg {emoji}!") == f"gg {emoji}!"
    # A joiner anywhere else is still dropped: after a letter, before a space, at the end.
    assert visible(f"a{ZWJ}\U0001f468 {emoji}{ZWJ} x{ZWJ}") == f"a\U0001f468 {emoji} x"
    assert visible(f"{RLO}{emoji}") == emoji


@pytest.mark.django_db
def test_a_table_name_is_kept_without_its_invisible_characters(make_user, password):
    host = make_user("ana")
    client = Client()
    client.login(username="ana", password=password)
    response = client.post(reverse("games:create_table"), form_data(name=f"{RLO}Friday{ZWSP}"))
    assert response.status_code == 302
    assert Table.objects.get(host=host).name == "Friday"


@pytest.mark.django_db
def test_a_table_name_of_invisible_characters_only_is_refused(make_user, password):
    make_user("ana")
    client = Client()
    client.login(username="ana", password=password)
    response = client.post(reverse("games:create_table"), form_data(name=RLO + ZWJ))
    assert response.status_code == 200
    assert response.context["form"].errors["name"]
    assert not Table.objects.exists()
