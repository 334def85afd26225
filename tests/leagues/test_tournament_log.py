"""The tournament manage page's log (``leagues.tournament_log``): each entry a sentence in the
reader's language, never an action's code. A walk's staff, in Spanish on a phone, read
"boss · start 2 teams", "partner_accept Los Carl: demo accepted", "(waiting for demo)" and
"generate_round round 1: … v …"."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from leagues import tournament_log, tournaments
from leagues.models import TournamentLog

from .conftest import QUICK, register_confirmed

pytestmark = pytest.mark.django_db

LANGUAGES = ("en", "es", "id", "vi")
#: One entry of each action as ``leagues.tournaments`` logs it now, variants included.
SAMPLES = [
    ("create", {"format": "swiss", "team_size": 2}),
    ("open_registration", {}),
    ("register", {"team": "Los Carl", "players": ["carl", "demo"], "waiting": ["demo"]}),
    ("register", {"team": "Los Carl", "players": ["carl"], "waiting": []}),
    ("partner_accept", {"team": "Los Carl", "user": "demo"}),
    ("partner_decline", {"team": "Los Carl", "user": "demo"}),
    ("withdraw", {"team": "Los Carl"}),
    ("drop_unconfirmed", {"teams": ["Aces", "Kings"]}),
    ("start", {"teams": 2}),
    ("start", {"teams": 1}),
    ("pause", {}),
    ("resume", {}),
    ("close", {"team": "Aces"}),
    ("close", {"team": None}),
    ("table_options", {"options": {"target_level": "3"}}),
    ("generate_round", {"round": 1, "pairings": [["Aces", "Los Carl"], ["Kings", None]]}),
    ("start_round", {"round": 1}),
    ("repair_round", {"round": 1, "before": [["Aces", "Kings"]], "pairings": [["Kings", "Aces"]]}),
    ("forfeit", {"round": 2, "board": 1, "team": "Aces"}),
    ("replace_player", {"team": "Aces", "user": "ana", "new_user": "eve"}),
    ("stand_in", {"team": "Aces", "user": "ana", "policy": "heuristic"}),
    ("stand_in", {"team": "Aces", "user": "ana", "policy": ""}),
]


def _log_section(page: str) -> str:
    start = page.index('id="log"')
    return page[start : page.index("</section>", start)]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_logged_action_reads_as_a_sentence_in_each_language(language):
    with translation.override(language):
        for action, data in SAMPLES:
            # (an action logged with no fields was logged with no English line either)
            text = tournament_log.sentence(action, data, "English detail" if data else "")
            assert "_" not in action or action not in text, text
            assert "%(" not in text and "English detail" not in text, text
            assert not re.search(r"\bNone\b|\[|\{", text), text
            for value in data.values():
                if isinstance(value, str) and value and action != "create":
                    # a name shows as it is; an AI's code shows as its label
                    assert value in text or action == "stand_in", (value, text)


def test_the_manage_page_log_in_spanish_has_no_code_and_no_english(client, staff, make_user):
    carl, ana = make_user("carl"), make_user("ana")
    make_user("demo"), make_user("bo")
    t = tournaments.do_create_tournament(staff, name="Walk Cup", table_options=QUICK)
    tournaments.do_open_registration(t, staff)
    register_confirmed(t, carl, ["demo"], name="Los Carl")
    register_confirmed(t, ana, ["bo"], name="Aces")
    tournaments.do_start(t, staff)
    tournaments.do_generate_round(t, staff, start=False)
    client.force_login(staff)
    client.cookies["django_language"] = "es"
    with translation.override("es"):
        page = client.get(f"/tournaments/{t.pk}/manage/", HTTP_ACCEPT_LANGUAGE="es")
    assert page.status_code == 200
    log = _log_section(page.content.decode())
    for code in {a for a, _ in SAMPLES}:
        assert code not in log, code
    for english in ("waiting for", "accepted", " v ", "teams", "round 1", "start "):
        assert english not in log, english
    assert "demo aceptó su plaza en el equipo «Los Carl»." in log
    assert "Emparejó la ronda 1: Los Carl contra Aces." in log or (
        "Emparejó la ronda 1: Aces contra Los Carl." in log
    )
    assert "Inició el torneo con 2 equipos." in log
    assert "Creó el torneo: Sistema suizo, equipos de 2." in log


def test_an_old_entry_and_an_unknown_action_still_read_sensibly(client, staff):
    """Rows written before the log stored its fields show the action's label and the stored
    line; an action this page does not know shows "Other action" and its line, not its code."""
    t = tournaments.do_create_tournament(staff, name="Old Cup", table_options=QUICK)
    TournamentLog.objects.create(
        tournament=t, actor=staff, action="partner_accept", detail="Los Carl: demo accepted"
    )
    TournamentLog.objects.create(tournament=t, actor=staff, action="mystery_code", detail="x y")
    TournamentLog.objects.create(tournament=t, actor=staff, action="pause")
    client.force_login(staff)
    client.cookies["django_language"] = "es"
    with translation.override("es"):
        log = _log_section(client.get(f"/tournaments/{t.pk}/manage/").content.decode())
    assert "Compañero aceptó: Los Carl: demo accepted" in log
    assert "Otra acción: x y" in log and "mystery_code" not in log
    assert "Pausó el torneo." in log
