"""A push never undoes what the viewer chose in a form control (static/js/table.js, "form
controls"): a full frame swaps the seats region in — the page's first snapshot just after it
loads, and every seating change before the start — and the host's "AI players" difficulty
read "Casual" again right after they picked "Beginner", so "Fill empty seats with AI" seated
Casual players. A browser test: the swap and the control's state live in the page."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from accounts.models import User
from games.models import Seat
from games.play import tables

from .helpers import log_in_as, log_in_user, screenshot, wait_until_live

pytestmark = pytest.mark.django_db(transaction=True)

#: How many full frames the page applied (first connect, resyncs, seat changes).
SNAPSHOTS = "window.club414.snapshots"


def test_a_difficulty_picked_before_a_push_is_the_one_seated(new_page, make_user):
    page = new_page()
    log_in_as(page, "ana_fc")
    host = User.objects.get(username="ana_fc")
    table = tables.create_table(host, name="controls", players=4, options={})
    page.goto(table.get_absolute_url())
    wait_until_live(page)
    page.wait_for_function(f"() => {SNAPSHOTS} > 0")  # the connect snapshot is shown
    expect(page.locator("#fill-policy")).to_have_value(Seat.Policy.HEURISTIC)  # the default
    page.select_option("#fill-policy", Seat.Policy.RANDOM)
    page.click("#close-table")  # the confirmation opened, not answered yet
    expect(page.locator("#close-table-confirm")).to_have_attribute("open", "")
    shown = page.evaluate(f"() => {SNAPSHOTS}")
    # A guest sits down: every page of the table gets a full frame with the seats region.
    tables.take_seat(table.pk, make_user("bo_fc"), 1)
    page.wait_for_function(f"n => {SNAPSHOTS} > n", arg=shown)
    expect(page.locator("#seats .seat.empty")).to_have_count(2)  # the frame was swapped in
    expect(page.locator("#fill-policy")).to_have_value(Seat.Policy.RANDOM)
    expect(page.locator("#close-table-confirm")).to_have_attribute("open", "")
    page.click("#fill-ai")
    expect(page.locator("#seats .seat.empty")).to_have_count(0)
    policies = Seat.objects.filter(table=table, user__isnull=True).values_list(
        "ai_policy", flat=True
    )
    assert sorted(policies) == [Seat.Policy.RANDOM, Seat.Policy.RANDOM]


# A control's look: its font, height, border, corners, padding, and the ring it shows once the
# keyboard's focus is on it.
LOOK = """(selector) => {
  const el = document.querySelector(selector);
  if (!el) return null;
  const look = s => ({font: `${s.fontFamily} ${s.fontSize} ${s.fontWeight}`,
    border: `${s.borderTopWidth} ${s.borderTopStyle} ${s.borderTopColor}`,
    radius: s.borderTopLeftRadius, padding: `${s.paddingTop} ${s.paddingLeft}`,
    height: Math.round(el.getBoundingClientRect().height)});
  const rest = look(getComputedStyle(el));
  el.focus();
  const s = getComputedStyle(el);
  const ring = `${s.outlineWidth} ${s.outlineStyle} ${s.outlineColor} ${s.outlineOffset}`;
  el.blur();
  return {...rest, ring};
}"""


def test_the_lobby_replay_and_profile_controls_look_like_the_forms(
    new_page, replayed_match
) -> None:
    """A tester: the lobby's "AI difficulty", the replay's "Show" and the profile's token name
    were the browser's own grey controls, unlike every form's (static/css/forms.css). Each has
    the create-table form's font, height, border, corners, padding and focus ring, at 1280×800
    and 375×667."""
    host, match = replayed_match
    page = new_page(1280, 800)
    log_in_user(page, host, landing=None)
    pages = [
        ("lobby", "/", "#play-computer-difficulty", "select"),
        ("replay", f"/matches/{match.pk}/replay/?step=1", "#replay-seat", "select"),
        ("profile", f"/accounts/{host.username}/", "#token-name", "input"),
    ]
    problems = {}
    for width, height in ((1280, 800), (375, 667)):
        page.set_viewport_size({"width": width, "height": height})
        page.goto("/tables/new/")
        forms = {
            "select": page.evaluate(LOOK, "#id_seats"),
            "input": page.evaluate(LOOK, "#id_name"),
        }
        # The forms' own controls: a border and a ring to compare with (not the defaults').
        assert all(look["ring"].startswith("3px solid") for look in forms.values()), forms
        assert all(look["border"].startswith("1px solid") for look in forms.values()), forms
        for name, url, selector, kind in pages:
            page.goto(url)
            page.locator(selector).scroll_into_view_if_needed()
            screenshot(page, f"form-controls/{name}-{width}x{height}")
            look = page.evaluate(LOOK, selector)
            if look != forms[kind]:
                problems[f"{name} {width}x{height}"] = {
                    key: (look and look[key], value)
                    for key, value in forms[kind].items()
                    if not look or look[key] != value
                }
    assert not problems, problems
