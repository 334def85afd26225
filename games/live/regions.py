"""The table page's regions: for each, the template it renders and the context fields it reads.

A region's declaration is the one list of its inputs. It gives

- its **key** (``Region.key``): the values of the fields it reads, which a delta compares
  between two views to decide whether the region is sent again (``games.live.frames``), and
  which shares one render between the audiences of a push;
- its **inputs** (``Region.inputs``): the only fields its template is rendered with.

So a template that reads a field its region does not declare reads nothing — and, under
``settings.GAMES_STRICT_REGIONS`` (on in development and in the tests), fails at once
(``UndeclaredInput``): a region can no longer be shown too rarely because its key lacks an input.

Outside the keys: the table's own fields (``FIXED``: the same in every view of one table at one
revision, which every two compared views share — a push renders one table, and the views a delta
compares are kept per match and revision) and the clocks (``Region.clocks``: countdowns that run
on the page by themselves; the status, in every delta, carries the live one, and a region
showing another is sent again with the window, result or rematch it counts down).
"""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any, cast

import jinja2
from django.conf import settings
from django.template import Context, Engine, engines
from django.template.backends.jinja2 import Jinja2
from django.template.base import Node
from django.template.loader import render_to_string

from games.live.context import FIELDS, TableContext

#: Read by every region, held by no key (see the module's docstring).
FIXED = ("table", "match", "ai_policies", "ai_fill_default")


class UndeclaredInput(Exception):
    """A region's template read a table-context field its region does not declare."""


@dataclass(frozen=True)
class Region:
    """One region of the table page.

    ``reads``: the context fields it shows (its key). ``clocks``: the countdowns it shows (read,
    never keyed). ``holds``: regions rendered inside it that a delta also sends on their own,
    when their own key changes — their inputs are this region's inputs too, their keys are not
    in this region's key (the hand holds its buttons). ``each``: the region is rendered once per
    row of that field, the row as ``s`` (a seat of ``seats``); the row is part of its key.
    """

    name: str
    template: str
    reads: tuple[str, ...]
    clocks: tuple[str, ...] = ()
    holds: tuple[Region, ...] = ()
    each: str = ""
    #: Every field its template may read (``names``), worked out once.
    _names: tuple[str, ...] = field(init=False, repr=False, compare=False)
    #: Reads ``reads`` off a context in one C call (``key``: a region key is built for every
    #: view of every push, ten per view).
    _read: Callable[[TableContext], tuple[object, ...]] = field(
        init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        unknown = {*self.reads, *self.clocks, self.each} - {*FIELDS, ""}
        if unknown:
            raise ValueError(f"region {self.name} reads no field named {sorted(unknown)}")
        names = [*FIXED, *self.reads, *self.clocks]
        for region in self.holds:
            names += [region.each] if region.each else []
            names += region.names()
        object.__setattr__(self, "_names", tuple(dict.fromkeys(names)))
        object.__setattr__(self, "_read", _reader(self.reads))

    def key(self, context: TableContext) -> tuple[object, ...]:
        """What the region shows, as comparable values (for ``each``: its frame only)."""
        return self._read(context)

    def row_key(self, context: TableContext, row: dict[str, Any]) -> tuple[object, ...]:
        """An ``each`` region's key for one row."""
        return (row, *self.key(context))

    def render_key(self, context: TableContext) -> tuple[object, ...]:
        """The key of one whole render: its own and every region's it holds."""
        held: list[tuple[object, ...]] = []
        for region in self.holds:
            if region.each:
                rows = getattr(context, region.each)
                held.append(tuple(region.row_key(context, row) for row in rows))
            else:
                held.append(region.render_key(context))
        return (self.key(context), *held)

    def names(self) -> tuple[str, ...]:
        """Every field the region's template may read, with the regions it holds."""
        return self._names

    def inputs(self, context: TableContext, **extra: Any) -> dict[str, Any]:
        """The region's template context: its declared fields, and ``extra`` (``oob``, a row)."""
        values = {name: getattr(context, name) for name in self.names()}
        values.update(extra)
        return values

    def render(self, context: TableContext, **extra: Any) -> str:
        return render(self.template, self.inputs(context, **extra), self.name)


def _reader(names: tuple[str, ...]) -> Callable[[TableContext], tuple[object, ...]]:
    """A function giving the tuple of ``names``' values on a context (``attrgetter`` gives a
    bare value for one name and nothing for none: wrapped so that it is always a tuple)."""
    if not names:
        return lambda context: ()
    if len(names) == 1:
        one = attrgetter(names[0])
        return lambda context: (one(context),)
    # attrgetter's own typing is loose: with several names it returns their tuple
    return cast(Callable[[TableContext], tuple[object, ...]], attrgetter(*names))


def render(template: str, inputs: dict[str, Any], region: str = "") -> str:
    """``template`` rendered with ``inputs`` only; under ``GAMES_STRICT_REGIONS``, reading a
    table-context field that is not among them raises ``UndeclaredInput``. A name ending in
    ``.jinja`` is a Jinja partial (``games.live.jinja``), any other a Django template."""
    strict = settings.GAMES_STRICT_REGIONS
    if template.endswith(JINJA):
        return render_jinja(template, inputs, (region or template) if strict else "")
    if not strict:
        return render_to_string(template, inputs)
    # the site's one DjangoTemplates engine (config/settings.py), whose Template takes a Context
    return Engine.get_default().get_template(template).render(_Declared(inputs, region or template))


def render_jinja(template: str, inputs: dict[str, Any], strict_region: str = "") -> str:
    """Jinja partial ``template`` with ``inputs``; with a ``strict_region`` named, reading a
    table-context field not among them raises ``UndeclaredInput`` (``games.live.jinja``)."""
    if not strict_region:
        return _jinja_template(template).render(inputs)
    token = STRICT.set(strict_region)
    try:
        return _jinja_template(template).render(inputs)
    finally:
        STRICT.reset(token)


#: The Jinja partials loaded, by name, each beside the environment that loaded it (a settings
#: change builds another): Jinja's own ``get_template`` costs ~4 µs a render (the loader cache's
#: lock and weak reference), ~9 renders a push. Only while the environment does not reload
#: changed templates (``auto_reload``: off in production); a handful of names, never cleared.
_jinja_templates: dict[str, tuple[jinja2.Environment, jinja2.Template]] = {}


def _jinja_template(name: str) -> jinja2.Template:
    """The compiled Jinja partial ``name`` (kept by name while its environment lasts)."""
    env = _jinja()
    kept = _jinja_templates.get(name)
    if kept is not None and kept[0] is env:
        return kept[1]
    template = env.get_template(name)
    if not env.auto_reload:
        _jinja_templates[name] = (env, template)
    return template


def strict_region(context: Context) -> str:
    """The region a Django template context is strict for (a region's render under
    ``GAMES_STRICT_REGIONS``), else ""."""
    return context.region if isinstance(context, _Declared) else ""


#: The suffix of a Jinja partial's name.
JINJA = ".jinja"

#: The region a Jinja partial is being rendered for under ``GAMES_STRICT_REGIONS`` ("" for
#: none, as on a page): ``games.live.jinja.Undeclared`` refuses its undeclared fields.
STRICT: ContextVar[str] = ContextVar("strict_region", default="")


def _jinja() -> jinja2.Environment:
    """The Jinja environment of Django's Jinja2 backend (``TEMPLATES`` in config/settings.py);
    its compiled templates are kept by Jinja (rendered directly, without the backend's
    per-call wrapper)."""
    backend = engines["jinja2"]
    assert isinstance(backend, Jinja2)
    return backend.env


class _Declared(Context):
    """A template context that refuses, loudly, the table-context fields it was not given
    (other missing names stay empty, as Django makes them: a partial's optional argument)."""

    def __init__(self, inputs: dict[str, Any], region: str) -> None:
        super().__init__(inputs, autoescape=True)
        self.region = region

    def __getitem__(self, key: int | str | Node) -> Any:
        for values in reversed(self.dicts):
            if key in values:
                return values[key]
        if key in _FIELD_NAMES:
            raise UndeclaredInput(f"the {self.region} region reads {key!r}: declare it")
        raise KeyError(key)


_FIELD_NAMES = frozenset(FIELDS)

# --- the page's regions, in the order of a full frame ---------------------------------------------

STATUS = Region(
    "status",
    "games/partials/status.jinja",
    reads=(
        "version",
        "phase",
        "turn",
        "round_no",
        "my_turn",
        "ai_turn_for_me",
        "turn_name",
        "top",
        "window",
        "levels",
        "round_level",
        "is_open",
        "seats_full",
        "is_host",
        "stopped",
    ),
    clocks=("countdown",),
)
SPECTATORS = Region(
    "spectators",
    "games/partials/spectators.html",
    reads=("spectators", "spectator_delay", "table_delay"),
)
SEAT = Region(
    "seat",
    "games/partials/seat.jinja",
    reads=("window_open", "is_open", "signed_in", "is_host", "away", "leave_closes"),
    each="seats",
)
SEATS = Region(
    "seats",
    "games/partials/seats.html",
    reads=(
        "is_open",
        "is_host",
        "can_close",
        "signed_in",
        "invite_path",
        "seats_full",
        "rated_uncounted",
    ),
    holds=(SEAT,),
)
TRICK = Region("trick", "games/partials/trick.jinja", reads=("trick", "trick_leader"))
CLAIM_BAR = Region(
    "claim_bar",
    "games/partials/claim_bar.jinja",
    # The bar reads the viewer only as "is it my card?": seats in the same place share it.
    reads=("window", "my_window", "claim", "own_window", "claim_help"),
    clocks=("countdown",),
)
TRIBUTE = Region(
    "tribute", "games/partials/tribute.html", reads=("in_tribute", "tributes", "returns")
)
RESULT = Region(
    "result",
    "games/partials/result.html",
    reads=("result", "match_over", "levels"),
    clocks=("countdown",),
)
REMATCH = Region(
    "rematch", "games/partials/rematch.html", reads=("rematch",), clocks=("rematch_countdown",)
)
SEAT_MENU = Region("seat_menu", "games/partials/seat_menu.html", reads=("seat_menu",))
TRACKER = Region("tracker", "games/partials/tracker.jinja", reads=("tracker",))
HAND_ACTIONS = Region(
    "hand_actions",
    "games/partials/hand_actions.jinja",
    reads=("hand_size", "play_phase", "hints", "can_pass"),
)
HAND = Region("hand", "games/partials/hand.jinja", reads=("me", "hand"), holds=(HAND_ACTIONS,))
LOG = Region("log", "games/partials/log.html", reads=("log",))

#: Every region of a full frame, in its order (as the page's socket swaps them in by id).
FULL = (
    STATUS,
    SPECTATORS,
    SEATS,
    TRICK,
    CLAIM_BAR,
    TRIBUTE,
    RESULT,
    REMATCH,
    SEAT_MENU,
    TRACKER,
    HAND,
    LOG,
)
#: The regions a delta may carry beside the status (always sent) and the log (appended), in
#: page order.
DELTA = (SEATS, TRICK, CLAIM_BAR, TRIBUTE, RESULT, REMATCH, HAND, HAND_ACTIONS, SEAT_MENU, TRACKER)
BY_NAME = {region.name: region for region in (*FULL, SEAT, HAND_ACTIONS)}


def region_keys(context: TableContext) -> dict[str, tuple[object, ...]]:
    """Each delta region's key: a region whose key is equal at two versions (or for two
    audiences of one push) renders the same."""
    return {region.name: region.key(context) for region in DELTA}


def seat_keys(context: TableContext) -> list[tuple[object, ...]]:
    """Each seat's key (its row and the seat region's other inputs)."""
    return [SEAT.row_key(context, row) for row in context.seats]
