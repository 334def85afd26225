"""The table's sounds and animations preferences (issue #10 item 2): saved from the preferences
page, on by default, and handed to the page's scripts and styles as data attributes; the status
names the deal, which the player's own arrangement of the hand is kept for."""

from __future__ import annotations

import re

from django.urls import reverse

from games.play import tables


def test_both_preferences_are_on_by_default_and_saved_off(client, make_user) -> None:
    user = make_user("dana")
    assert (user.effect_sounds, user.animations) == (True, True)
    client.force_login(user)
    page = client.get(reverse("preferences")).content.decode()
    assert 'name="effect_sounds"' in page and 'name="animations"' in page
    response = client.post(reverse("preferences"), {"language": "", "sound_on": "on"})
    assert response.status_code == 302
    user.refresh_from_db()
    assert (user.sound_on, user.effect_sounds, user.animations) == (True, False, False)
    client.post(reverse("preferences"), {"language": "", "effect_sounds": "on"})
    user.refresh_from_db()
    assert (user.sound_on, user.effect_sounds, user.animations) == (False, True, False)


def test_the_table_page_carries_the_preferences_and_the_deal(client, make_user) -> None:
    ana, bo = make_user("ana"), make_user("bo")
    table = tables.create_table(ana, name="duel", players=2, options={})
    tables.take_seat(table.pk, bo, 1)
    match = tables.start(table.pk, ana, seed=414)
    client.force_login(ana)
    html = client.get(reverse("games:table", args=[table.pk])).content.decode()
    assert 'data-effect-sounds="on"' in html and 'data-animations="on"' in html
    assert re.search(rf'id="status"[^>]* data-deal="{match.pk}\.1"', html)
    ana.effect_sounds = False
    ana.animations = False
    ana.save(update_fields=["effect_sounds", "animations"])
    html = client.get(reverse("games:table", args=[table.pk])).content.decode()
    assert 'data-effect-sounds="off"' in html and 'data-animations="off"' in html
    assert 'data-sound="on"' in html  # the turn beep is its own preference
    # Anonymous visitors (spectators) get the defaults.
    client.logout()
    html = client.get(reverse("games:table", args=[table.pk])).content.decode()
    assert 'data-effect-sounds="on"' in html and 'data-animations="on"' in html
