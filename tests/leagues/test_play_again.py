"""The lobby's "play again" after a league fixture or a tournament pairing (issue 17 item 3):
the copy is a private, unrated table of the player who asked, named after them in their
language, and no list or page shows it (or the names of the league, season or tournament) to
anyone who may not see it. docs/ACCESS.md, "Copies of a table"."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client

from games import access
from games.live.lobby import public_context
from games.models import Match, Seat, Table
from games.play import services, tables
from leagues import services as league_services
from leagues.models import League, Pairing, Tournament, TournamentRound, TournamentTeam

pytestmark = pytest.mark.django_db

SECRETS = ("Zz Secret League", "Zz Secret Season", "Zz Secret Cup")


def fixture_table(make_user) -> Table:
    """A finished fixture of the invite-only, rated "Zz Secret League" (season "Zz Secret
    Season"): ana and cy against bo and di; bo resigned."""
    olga = make_user("olga")
    league = league_services.do_create_league(
        olga,
        name="Zz Secret League",
        visibility=League.Visibility.INVITE_ONLY,
        table_options={"claim_window_seconds": 0},
    )
    people = {name: make_user(name) for name in ("ana", "bo", "cy", "di")}
    for person in people.values():
        league_services.do_add_member(league, olga, person)
    season = league_services.do_create_season(
        league,
        olga,
        name="Zz Secret Season",
        starts_on=datetime.date(2026, 1, 1),
        ends_on=datetime.date(2026, 12, 31),
    )
    fixture = league_services.do_create_fixture(
        season, olga, [[people["ana"], people["cy"]], [people["bo"], people["di"]]]
    )
    league_services.do_start_fixture(fixture, olga)
    table = Table.objects.get(pk=fixture.table_id)
    assert table.rated and table.visibility == Table.Visibility.PUBLIC  # hidden by its league
    return finish(table, people["bo"])


def pairing_table(make_user) -> Table:
    """A finished pairing of "Zz Secret Cup", a tournament of an invite-only rated league:
    ana and cy against bo and di (the table is rated and public, hidden by its tournament)."""
    olga = make_user("olga")
    league = league_services.do_create_league(
        olga, name="Zz Secret League", visibility=League.Visibility.INVITE_ONLY
    )
    tournament = Tournament.objects.create(
        name="Zz Secret Cup", league=league, status=Tournament.Status.RUNNING, created_by=olga
    )
    table = tables.create_table(
        make_user("ana"),
        name="Zz Secret Cup · R1 · 1",
        players=4,
        options={"claim_window_seconds": 0},
        rated=True,
    )
    for number, name in ((1, "bo"), (2, "cy"), (3, "di")):
        tables.take_seat(table.pk, make_user(name), number)
    teams = [
        TournamentTeam.objects.create(tournament=tournament, name=f"team {n}") for n in range(2)
    ]
    rnd = TournamentRound.objects.create(
        tournament=tournament, number=1, status=TournamentRound.Status.PLAYING
    )
    Pairing.objects.create(round=rnd, board=1, team_a=teams[0], team_b=teams[1], table=table)
    tables.start(table.pk, table.host, seed=3)
    return finish(table, Seat.objects.get(table=table, number=1).user)


def finish(table: Table, resigner) -> Table:
    match = Match.objects.get(table=table)
    assert services.submit(match.pk, resigner, {"action": "resign", "version": match.version}).ok
    return Table.objects.get(pk=table.pk)


SCHEDULED = {"fixture": fixture_table, "pairing": pairing_table}


@pytest.mark.parametrize("kind", sorted(SCHEDULED))
def test_play_again_after_a_scheduled_match_opens_a_private_unrated_table(kind, make_user):
    source = SCHEDULED[kind](make_user)
    ana = Seat.objects.get(table=source, number=0).user
    client = Client()
    client.force_login(ana)
    response = client.post("/tables/again/")
    new = Table.objects.exclude(pk=source.pk).get()
    assert response.status_code == 302 and response["Location"] == f"/tables/{new.pk}/"

    assert new.visibility == Table.Visibility.PRIVATE
    assert new.rated is False
    assert new.name == "ana's table"
    assert new.host == ana and new.status == Table.Status.OPEN
    assert new.options == source.options
    # ana at her seat, the other people's seats open for her to invite them.
    assert [(s.number, s.user_id) for s in new.seats.order_by("number")] == [
        (0, ana.pk),
        (1, None),
        (2, None),
        (3, None),
    ]
    assert client.get(f"/tables/{new.pk}/").status_code == 200  # its host sees it

    # Nobody else is shown the table, nor the names of what scheduled the match.
    stranger = make_user("stranger")
    assert not access.visible_tables(Table.objects.filter(pk=new.pk), None).exists()
    assert not access.visible_tables(Table.objects.filter(pk=new.pk), stranger).exists()
    for viewer in (None, stranger):
        other = Client()
        if viewer is not None:
            other.force_login(viewer)
        lobby = other.get("/").content.decode()
        assert f'data-table="{new.pk}"' not in lobby  # in no list
        assert not [secret for secret in SECRETS if secret in lobby], lobby
        assert other.get(f"/tables/{new.pk}/").status_code == 404
    lists = public_context()
    listed = [row["table"].pk for name in ("open_tables", "live_tables") for row in lists[name]]
    assert new.pk not in listed


def test_the_copys_name_is_in_the_players_language(make_user):
    source = fixture_table(make_user)
    ana = Seat.objects.get(table=source, number=0).user
    ana.language = "es"
    ana.save(update_fields=["language"])
    client = Client()
    client.force_login(ana)
    client.post("/tables/again/")
    assert Table.objects.exclude(pk=source.pk).get().name == "Mesa de ana"


def test_the_lobby_offer_of_a_fixture_is_seen_by_its_player_alone(make_user):
    """The "play again" offer names the player's own last table (they sat there); the lobby of
    an anonymous visitor or a stranger shows neither the offer nor the name."""
    source = fixture_table(make_user)
    ana = Seat.objects.get(table=source, number=0).user
    client = Client()
    client.force_login(ana)
    assert 'id="play-again-button"' in client.get("/").content.decode()
    assert "Zz Secret League" not in Client().get("/").content.decode()
