"""Generated bad input to every organiser form (issue 18 §3 Goals: 0 server errors): leagues,
seasons, members, fixtures, results, round robins, tournaments, team registrations and the
staff's tournament actions. Hypothesis posts values the forms should refuse (empty, blank,
numbers out of range, words for numbers, forged ids and addresses, NUL, long text) mixed with
values they accept. Every answer is below 500, and an answer that is not a redirect (the form
came back with its errors, or a 404) changed nothing: no row of what the form makes exists
that did not before. ``ORGANISER_FUZZ_SCALE=20`` multiplies the examples."""

from __future__ import annotations

import datetime
import os
from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accounts.models import User
from leagues import services, tournaments
from leagues.models import (
    Fixture,
    League,
    Membership,
    Season,
    TeamMember,
    Tournament,
    TournamentRound,
    TournamentTeam,
)
from tests.built_once import world_fixtures
from tests.conftest import PASSWORD
from tests.db_snapshot import Snapshot

from .conftest import QUICK, options_post, register_confirmed

#: Hundreds of generated posts: `make test`, not `make test-fast`.
pytestmark = [
    pytest.mark.django_db,
    pytest.mark.usefixtures("english", "uncaptured_templates"),
    pytest.mark.slow,
]

SCALE = max(1, int(os.environ.get("ORGANISER_FUZZ_SCALE", "1")))
SETTINGS = dict(
    max_examples=30 * SCALE,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

#: Values a form must answer: refused ones, and some it takes (so later fields get checked).
TRICKY = [
    "",
    " ",
    "0",
    "-1",
    "1",
    "2",
    "3",
    "7",
    "13",
    "16",
    "999",
    "40000",
    "999999",
    "99999999999999999999",
    "1.5",
    "1e309",
    "nan",
    "inf",
    "abc",
    "on",
    "\x00",
    "a\x00b",
    "x" * 300,
    "2026-02-30",
    "2026-06-01",
    "2026-06-01T18:00",
    "9999-12-31T23:59",
    "0001-01-01T00:00",
    "ana",
    "ANA",
    "ana, cy",
    "bo, di",
    "ana, ana",
    "ana, bo, cy",
    "olga",
    "nobody-here",
    "ana, cy\nbo, di",
    "ana, cy\nbo, di\ned, flo",
    "ana, cy\ncy, di",
    "/\\evil.example",
    "//evil.example",
    "https://evil.example",
    "javascript:alert(1)",
    "<script>x</script>",
    "open",
    "round_robin",
    "swiss",
    "public",
    "invite_only",
    "approval",
    "running",
    "finished",
    "expert",
]

value = st.one_of(
    st.sampled_from(TRICKY),
    st.text(st.characters(exclude_categories=["Cs"]), max_size=30),
    st.integers(min_value=-(2**70), max_value=2**70).map(str),
)


def posts(fields: list[str], valid: dict):
    """Form data: ``valid`` (what the form takes) with some of ``fields`` given a generated
    value instead, or left out."""
    missing = object()
    changes = st.dictionaries(st.sampled_from(fields), st.one_of(value, st.just(missing)))

    def apply(changed: dict) -> dict:
        data = {**valid, **changed}
        return {k: v for k, v in data.items() if v is not missing}

    return changes.map(apply)


@translation.override("en")
def _build_world() -> dict:
    """A league with an open season, a round-robin season and an open fixture; staff; a
    tournament taking registrations with one confirmed team, and a running one with a round.
    (The league and its members as tests/leagues/conftest.py's ``league`` and ``members``.)"""
    organiser = User.objects.create_user("olga", password=PASSWORD)
    league = services.do_create_league(organiser, name="Tuesday Club", table_options=QUICK)
    members = {}
    for name in ("ana", "bo", "cy", "di", "ed", "flo"):
        members[name] = User.objects.create_user(name, password=PASSWORD)
        services.do_join(league, members[name])
    staff = User.objects.create_user("boss", password=PASSWORD, is_staff=True)
    dates = {"starts_on": datetime.date(2026, 3, 1), "ends_on": datetime.date(2026, 5, 31)}
    season = services.do_create_season(league, organiser, name="Spring", **dates)
    rr = services.do_create_season(
        league, organiser, name="All play all", format=Season.Format.ROUND_ROBIN, **dates
    )
    fixture = services.do_create_fixture(
        season, organiser, [[members["ana"], members["cy"]], [members["bo"], members["di"]]]
    )
    open_cup = tournaments.do_create_tournament(staff, name="Open Cup", table_options=QUICK)
    tournaments.do_open_registration(open_cup, staff)
    team = register_confirmed(open_cup, members["ana"], ["bo"])
    running = tournaments.do_create_tournament(staff, name="Running Cup", table_options=QUICK)
    tournaments.do_open_registration(running, staff)
    register_confirmed(running, members["cy"], ["di"])
    register_confirmed(running, members["ed"], ["flo"])
    tournaments.do_start(running, staff)
    rnd = tournaments.do_generate_round(running, staff, start=False)
    return {
        "league": league,
        "organiser": organiser,
        "staff": staff,
        "player": User.objects.create_user("gus", password=PASSWORD),
        "season": season,
        "rr": rr,
        "fixture": fixture,
        "open_cup": open_cup,
        "team": team,
        "running": running,
        "round": rnd,
        "pairing": rnd.pairings.first(),
    }


_world, world = world_fixtures(_build_world)


#: The rows each organiser form makes, counted in one query (``tests.db_snapshot``, compiled
#: once for the module's hundreds of reads).
_SNAPSHOT = Snapshot(
    counts={
        "leagues": League.objects.all(),
        "seasons": Season.objects.all(),
        "memberships": Membership.objects.filter(status=Membership.Status.ACTIVE),
        "organisers": Membership.objects.filter(role=Membership.Role.ORGANISER),
        "fixtures": Fixture.objects.all(),
        "results": Fixture.objects.filter(processed_at__isnull=False),
        "tournaments": Tournament.objects.all(),
        "teams": TournamentTeam.objects.all(),
        "team_members": TeamMember.objects.all(),
        "rounds": TournamentRound.objects.all(),
    }
)


def _counts() -> dict:
    """The rows each organiser form makes, counted (``_SNAPSHOT``)."""
    return _SNAPSHOT()["counts"]


def _post(client: Client, url: str, data: dict) -> None:
    """Post ``data``: never a 5xx; a refusal (no redirect) leaves every count as it was."""
    before = _counts()
    response = client.post(url, data)
    assert response.status_code < 500, (url, data)
    if response.status_code != 302:
        assert _counts() == before, (url, data, response.status_code)


def _fuzz(client: Client, user, url: str, strategy) -> None:
    client.force_login(user)  # once: no organiser form signs anyone out

    @settings(**SETTINGS)
    @given(strategy)
    def run(data: dict) -> None:
        _post(client, url, data)

    run()


LEAGUE_FIELDS = ["name", "slug", "description", "visibility", "join_policy", "players", "rated"]
TOURNAMENT_FIELDS = [
    "name",
    "description",
    "format",
    "team_size",
    "planned_rounds",
    "registration_opens",
    "registration_closes",
    "league",
    "min_rating",
    "rated",
]

# Each case: who posts, the address, the fields Hypothesis changes, and data the form takes
# (the ids of ``world``'s rows among them, which a generated value may replace: forged ids).
CASES: dict[str, Callable[[dict], tuple]] = {
    "league": lambda w: (
        "staff",
        reverse("leagues:create"),
        LEAGUE_FIELDS,
        {"name": "Club", "visibility": "public", "join_policy": "open", "players": "4"}
        | options_post(),
    ),
    "league options": lambda w: (
        "organiser",
        reverse("leagues:options", args=[w["league"].slug]),
        ["options-target_level", "options-claim_window_seconds", "options-two_position"],
        options_post(),
    ),
    "season": lambda w: (
        "organiser",
        reverse("leagues:manage_season", args=[w["league"].slug]),
        ["name", "starts_on", "ends_on", "format", "status"],
        {"name": "Autumn", "starts_on": "2026-09-01", "ends_on": "2026-11-30"},
    ),
    "member": lambda w: (
        "organiser",
        reverse("leagues:manage_members", args=[w["league"].slug]),
        ["username", "action"],
        {"action": "add", "username": "gus"},
    ),
    "fixture": lambda w: (
        "organiser",
        reverse("leagues:fixture_create", args=[w["league"].slug]),
        ["season", "team0", "team1", "scheduled_at", "next"],
        {"season": str(w["season"].pk), "team0": "ed, flo", "team1": "bo, di"},
    ),
    "result": lambda w: (
        "organiser",
        reverse("leagues:manage_result", args=[w["league"].slug]),
        ["fixture", "winner_team", "levels_team0", "levels_team1", "caught_team0", "caught_team1"],
        {"fixture": str(w["fixture"].pk), "winner_team": "0", "levels_team1": "0"}
        | {"levels_team0": "1", "caught_team0": "0", "caught_team1": "0"},
    ),
    "round robin": lambda w: (
        "organiser",
        reverse("leagues:manage_round_robin", args=[w["league"].slug]),
        ["season", "teams"],
        {"season": str(w["rr"].pk), "teams": "ana, cy\nbo, di"},
    ),
    "tournament": lambda w: (
        "staff",
        reverse("tournaments:create"),
        TOURNAMENT_FIELDS,
        {"name": "Cup", "format": "swiss", "team_size": "2", "planned_rounds": "0"}
        | {"registration_opens": "2026-06-01T18:00", "registration_closes": "2026-06-09T18:00"}
        | options_post(),
    ),
    "registration": lambda w: (
        "player",
        reverse("tournaments:register", args=[w["open_cup"].pk]),
        ["name", "partner_1"],
        {"name": "Aces", "partner_1": "flo"},
    ),
    "replace player": lambda w: (
        "staff",
        reverse("tournaments:act", args=[w["open_cup"].pk, "replace_player"]),
        ["team", "old", "new"],
        {"team": str(w["team"].pk), "old": "ana", "new": "gus"},
    ),
    "stand-in": lambda w: (
        "staff",
        reverse("tournaments:act", args=[w["running"].pk, "stand_in"]),
        ["team", "username", "policy"],
        {"team": str(w["running"].teams.first().pk), "username": "cy", "policy": "expert"},
    ),
    "forfeit": lambda w: (
        "staff",
        reverse("tournaments:act", args=[w["running"].pk, "forfeit"]),
        ["pairing", "forfeiting"],
        {"pairing": str(w["pairing"].pk), "forfeiting": "0"},
    ),
    "round": lambda w: (
        "staff",
        reverse("tournaments:act", args=[w["running"].pk, "start_round"]),
        ["round"],
        {"round": str(w["round"].pk)},
    ),
    "generate round": lambda w: (
        "staff",
        reverse("tournaments:act", args=[w["running"].pk, "generate_round"]),
        ["start", "stand_in"],
        {"stand_in": ""},
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_generated_bad_input_never_fails_the_server_nor_half_creates(client, world, case):
    who, url, fields, fixed = CASES[case](world)
    _fuzz(client, world[who], url, posts(fields, fixed))
