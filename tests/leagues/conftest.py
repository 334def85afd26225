"""Fixtures for leagues tests: a league with members, and matches that end in one trick."""

from __future__ import annotations

import datetime
from collections.abc import Callable

import pytest
from django.utils import translation

from games import tasks
from games.engine.codec import state_to_json
from games.engine.deal import start_round
from games.live import notify
from games.models import Match, Seat, Table
from games.play import services
from leagues import services as league_services
from leagues import tournaments
from leagues.models import League, Tournament, TournamentLog, TournamentTeam
from tests.games.conftest import bomb_to_win, install_state, resigned  # noqa: F401 (shared fixtures)

#: Quick matches (§10 target_level) without claim windows, so a scripted trick needs no answers.
QUICK = {"target_level": "3", "claim_window_seconds": 0}


@pytest.fixture
def organiser(make_user):
    return make_user("olga")


@pytest.fixture
def league(organiser) -> League:
    return league_services.do_create_league(organiser, name="Tuesday Club", table_options=QUICK)


@pytest.fixture
def members(league, make_user) -> dict:
    """ana, bo, cy, di, ed, flo: active members of ``league``."""
    people = {}
    for name in ("ana", "bo", "cy", "di", "ed", "flo"):
        people[name] = make_user(name)
        league_services.do_join(league, people[name])
    return people


def options_post(prefix: str = "options", **changes) -> dict:
    """The POST data of a ``games.forms.TableOptionsForm`` with its initial values (the §10
    defaults), ``changes`` applied; a False flag is left out, as a browser does."""
    from games.forms import TableOptionsForm

    values = {name: field.initial for name, field in TableOptionsForm.base_fields.items()}
    values.update(changes)
    return {
        f"{prefix}-{name}": ("on" if value is True else value)
        for name, value in values.items()
        if value is not False and value is not None
    }


def register_confirmed(tournament, user, partner_names, name: str = "") -> TournamentTeam:
    """Register a team and have every named partner accept the notice (the team is then
    confirmed and can be paired): ``leagues.tournaments.do_answer_partner``."""
    team = tournaments.do_register_team(tournament, user, partner_names, name)
    for member in team.members.filter(pending=True).select_related("user"):
        tournaments.do_answer_partner(team, member.user, accept=True)
    return team


def install_winning_round(table: Table, winner_team: int) -> Match:
    """Give the started match at ``table`` a round in which ``winner_team`` (at the target
    level 3, the other team at 2) finishes both its players in one trick, catching both
    opponents (§7, §8): the match is won on the next moves (see ``play_out``)."""
    match = Match.objects.get(table=table)
    options = table.engine_options()
    hands = [["3C", "4C"], ["3D", "4D"], ["3H", "4H"], ["3S", "4S"]]
    hands[winner_team], hands[winner_team + 2] = ["KH"], ["JH"]
    levels = (3, 2) if winner_team == 0 else (2, 3)
    state = start_round(
        options, [tuple(h) for h in hands], 3, levels, leader=winner_team + 2, seed=1
    )
    match.state = state_to_json(state)
    match.version = state.version
    match.phase = state.phase
    match.deadline_token = state.version
    match.level_team0, match.level_team1 = levels
    match.save()
    match.rounds.update(level=3, levels_before=list(levels))
    return match


def install_forced_end(table: Table, winner_team: int) -> Match:
    """Like ``install_winning_round``, but every seat has one legal action at each turn, so
    AI seats (``tests.games.drivers.drive``) play it out as scripted: seat ``winner_team + 2``
    leads its red joker and goes out, the others cannot beat a joker, its partner leads the
    black joker and goes out too — a double victory at the target level 3 (one level gained,
    both opponents caught) in six moves. Nobody holds a pair, so no claim window is answered."""
    match = install_winning_round(table, winner_team)
    hands = [["5C", "7D"], ["6S", "8D"], ["5C", "7D"], ["6S", "8D"]]
    hands[winner_team], hands[winner_team + 2] = ["BJ"], ["RJ"]
    levels = (match.level_team0, match.level_team1)
    state = start_round(
        table.engine_options(), [tuple(h) for h in hands], 3, levels, leader=winner_team + 2, seed=1
    )
    return install_state(match, state)


@pytest.fixture
def play_out(django_capture_on_commit_callbacks) -> Callable[[Table, int], Match]:
    """Play the winning trick of ``install_winning_round`` through games.play.services.submit,
    seat by seat; the last move's commit sends ``match_finished`` as in production."""

    def play(table: Table, winner_team: int) -> Match:
        match = install_winning_round(table, winner_team)
        seat = {s.number: s.user for s in Seat.objects.filter(table=table)}
        lead = winner_team + 2

        def act(number, **payload):
            version = Match.objects.get(pk=match.pk).version
            result = services.submit(match.pk, seat[number], {"version": version, **payload})
            assert result.ok, result

        act(lead, action="play", cards=["JH"])
        for offset in (1, 2, 3):
            act((lead + offset) % 4, action="pass")
        with django_capture_on_commit_callbacks(execute=True):
            act(winner_team, action="play", cards=["KH"])
        match.refresh_from_db()
        assert match.winner_team == winner_team
        return match

    return play


class _NoTask:
    """Stands in for a Celery task when a test moves the clock and the AI itself."""

    def apply_async(self, *args, **kwargs) -> None:
        return None


@pytest.fixture
def in_process(monkeypatch):
    """No broker and no channel layer: games' after-commit wake-ups and pushes do nothing, so
    tests with real commits drive timers and AI turns themselves."""
    monkeypatch.setattr(notify, "_send", lambda group, message: None)
    for name in ("expire", "ai_act", "auto_pass"):
        monkeypatch.setattr(tasks, name, _NoTask())


@pytest.fixture
def english():
    """Messages are checked in English (a request in another language earlier in the run
    leaves its language active in this thread): ``pytest.mark.usefixtures("english")``."""
    with translation.override("en"):
        yield


@pytest.fixture
def staff(make_user):
    return make_user("boss", is_staff=True)


@pytest.fixture
def season(league, organiser):
    return league_services.do_create_season(
        league,
        organiser,
        name="Spring",
        starts_on=datetime.date(2026, 3, 1),
        ends_on=datetime.date(2026, 5, 31),
    )


#: The eight players of a tournament's tests (``players``): four pairs, ana+bo, cy+di, ed+flo,
#: gus+hal.
NAMES = ["ana", "bo", "cy", "di", "ed", "flo", "gus", "hal"]


@pytest.fixture
def staff_client(client, staff):
    client.force_login(staff)
    return client


@pytest.fixture
def superuser_client(client, make_user):
    client.force_login(make_user("root", is_staff=True, is_superuser=True))
    return client


@pytest.fixture
def players(make_user):
    return {name: make_user(name) for name in NAMES}


@pytest.fixture
def running(staff, players):
    """A running Swiss tournament of four pairs: ana+bo, cy+di, ed+flo, gus+hal."""
    t = tournaments.do_create_tournament(staff, name="Spring Cup", table_options=QUICK)
    tournaments.do_open_registration(t, staff)
    for a, b in zip(NAMES[::2], NAMES[1::2], strict=True):
        register_confirmed(t, players[a], [b])
    tournaments.do_start(t, staff)
    return Tournament.objects.get(pk=t.pk)


def actions_logged(t):
    """The actions of tournament ``t``'s log, oldest first."""
    return list(
        TournamentLog.objects.filter(tournament=t).order_by("pk").values_list("action", flat=True)
    )
