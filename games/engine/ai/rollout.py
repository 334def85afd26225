"""Fast playouts: finish a round from a full ``State`` with every seat playing the heuristic.

The expert AI (``expert``) plays each candidate forward to the end of the round hundreds of times
per decision, so this module replays ``base.HeuristicPolicy``'s moves on a lean model of the
table: each hand is a count of cards per face (suits never matter for strength, §2), and a move
is found by looking for it directly (the weakest single above the top play, the stretch of faces
around the weakest card, ...) instead of listing every combination. The rules are the engine's
(§5–§7 and the options that touch them): passes and trick ends, the lead after a finished winner
(``lead_after_out``), claim windows and their chains (``joker_hook``, ``claim_window_seconds`` 0),
finishing and the round end. Window answers are settled in priority order, nearest the owner
first, which is how the engine resolves them (§6.3). ``tests/games/engine/test_expert.py`` checks
that a playout ends exactly as the heuristic policy playing through ``rules.apply`` does.

The expert's own team may play *bold* (``outcome``'s ``bold``): the one departure from the
heuristic, so that a bomb the expert keeps is worth in a playout what it is worth to the expert.

It runs only on sampled states (``sampling``), never on a match's real state.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ..cards import BLACK_JOKER, FACE, RED_JOKER, face_counts
from ..combos import (
    BOMBS,
    DOUBLE_DRAGON,
    FOUR_ONE_FOUR,
    JOKER_BOMB,
    KIND_BOMB,
    PAIR,
    SINGLE,
    STRAIGHT,
    classify_faces,
    four_one_four_key,
    joker_bomb_key,
    kind_bomb_key,
    ladder_low,
)
from ..options import Options
from ..power import table_for
from ..state import HOOK, PASSED, WINDOW, State
from .base import DANGER_CARDS

_NO_BOMB: tuple[float, ...] = (-1,)
#: A move of the playout: ``(category, size, key, ((face, count), ...) taken from the hand)``.
Move = tuple[str, int, Any, tuple[tuple[int, int], ...]]
#: The top play: ``(seat, category, size, key)``.
TopT = tuple[int, str, int, Any]
#: An open window: ``(owner, face, hook?, chain?, answers or None)``.
WindowT = tuple[int, int, bool, bool, list[bool | None] | None]
_FACES = (2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, BLACK_JOKER, RED_JOKER)
_KINDS = _FACES[:-2]


@lru_cache(maxsize=4096)
def _whole(
    hand: tuple[int, ...], level: int, two_high: bool, low: int, bomb_order: str
) -> Move | None:
    """A hand of face counts as one combination ``(category, size, key, taken)``, or None
    (``Playout._whole_hand``): asked at every lead and follow of every playout, and a seat's
    hand recurs across the samples and playouts of one decision, so the answer is kept."""
    faces = tuple(f for f in _FACES for _ in range(hand[f]))
    combo = classify_faces(faces, level, two_high, low, bomb_order)
    if combo is None:
        return None
    return combo.category, combo.size, combo.key, tuple((f, hand[f]) for f in _FACES if hand[f])


def claim_choice(state: State, seat: int) -> tuple[str, ...]:
    """The heuristic's answer to ``state``'s open window for ``seat``: its claim's cards when the
    owner is an opponent or it holds two cards or fewer and it can claim; else ``PASSED``."""
    window = state.window
    assert window is not None  # an open window
    hand = state.hands[seat]
    if window.owner % 2 == seat % 2 and len(hand) > 2:
        return PASSED
    same = [c for c in hand if FACE[c] == window.face]
    size = 2 if window.mode == HOOK else 1
    return tuple(same[:size]) if len(same) >= size else PASSED


def outcome(state: State, bold: int | None = None) -> tuple[int, int]:
    """Play ``state`` (phase play, window, or already over) to the end of the round with the
    heuristic at every seat: ``(team that finished first, opponents caught)`` (§7, §8).

    ``bold`` (a team, or None) changes one thing for that team's seats: they beat an opponent's
    play with their lowest bomb whenever nothing else beats it, instead of keeping their bombs
    until someone is down to ``DANGER_CARDS`` (the expert's own team, ``expert``)."""
    if state.result is not None:
        return state.result.team, len(state.result.caught)
    hands = [face_counts(h) for h in state.hands]
    top = None
    if state.top is not None:
        combo = state.top.combo
        top = (state.top.seat, combo.category, combo.size, combo.key)
    passed = 0
    for seat in state.passed:
        passed |= 1 << seat
    window: WindowT | None = None
    if state.phase == WINDOW:
        w = state.window
        assert w is not None
        answers: list[bool | None] | None = [None if a is None else bool(a) for a in w.answers]
        window = (w.owner, w.face, w.mode == HOOK, w.chain, answers)
    return Playout(hands, state.level, state.options, bold).run(state.turn, top, passed, window)


class Playout:
    """One round played out on face counts (see the module docstring)."""

    __slots__ = (
        "hands",
        "sizes",
        "n",
        "power",
        "low",
        "two_high",
        "bomb_order",
        "hooking",
        "joker_hook",
        "teammate_leads",
        "level",
        "bold",
    )

    def __init__(
        self, hands: list[list[int]], level: int, options: Options, bold: int | None = None
    ) -> None:
        self.hands = hands
        self.sizes = [sum(h) for h in hands]
        self.n = options.players
        self.power = table_for(level, options)
        self.low = ladder_low(options)
        self.two_high = options.two_position == "high"
        self.bomb_order = options.bomb_order
        self.hooking = options.hooking
        self.joker_hook = options.joker_hook
        self.teammate_leads = options.lead_after_out == "teammate"
        self.level = level
        self.bold = bold

    def run(
        self, turn: Any, top: TopT | None, passed: int, window: WindowT | None
    ) -> tuple[int, int]:
        """From seat ``turn`` to play (or the open ``window``): the round's ``(team, caught)``.
        ``top`` is ``(seat, category, size, key)`` or None; ``passed`` a bit per seat."""
        hands, sizes, n = self.hands, self.sizes, self.n
        while True:
            if window is not None:
                owner, face, hook, chain, answers = window
                need = 2 if hook else 1
                claimant = None
                for k in range(1, n):
                    s = (owner + k) % n
                    if not sizes[s]:
                        continue
                    answer = answers[s] if answers is not None else None
                    if answer is None:
                        answer = hands[s][face] >= need and (owner % 2 != s % 2 or sizes[s] <= 2)
                    if answer:
                        claimant = s
                        break
                if claimant is None:
                    window = None
                    if chain:
                        assert top is not None  # a chain follows a claim
                        turn, top, passed = self._leader(top[0]), None, 0
                    else:
                        turn = self._next(owner)
                    continue
                hands[claimant][face] -= need
                sizes[claimant] -= need
                top = (claimant, PAIR if hook else SINGLE, need, self.power[face])
                passed = 0
                if not sizes[claimant] and self._team_out(claimant):
                    return self._result(claimant)
                window = (claimant, face, not hook, True, None)
                continue
            seat = turn
            play = self._lead(seat) if top is None else self._follow(seat, top)
            if play is None:  # a pass (§5)
                assert top is not None  # only a follower passes
                passed |= 1 << seat
                active = sum(1 for x in sizes if x)
                needed = active - 1 if sizes[top[0]] else active
                if passed.bit_count() >= needed:
                    turn, top, passed = self._leader(top[0]), None, 0
                else:
                    turn = self._next(seat)
                continue
            category, size, key, taken = play
            hand = hands[seat]
            for face, k in taken:
                hand[face] -= k
            sizes[seat] -= size
            top = (seat, category, size, key)
            passed = 0
            if not sizes[seat] and self._team_out(seat):
                return self._result(seat)
            face = taken[0][0]
            if category == SINGLE and self.hooking and (face < BLACK_JOKER or self.joker_hook):
                window = (seat, face, True, False, None)
            else:
                turn = self._next(seat)

    # --- the table ------------------------------------------------------------------------

    def _next(self, seat: int) -> int:
        sizes, n = self.sizes, self.n
        for step in range(1, n + 1):
            other = (seat + step) % n
            if sizes[other]:
                return other
        raise AssertionError("no active seat: the round should have ended")

    def _leader(self, winner: int) -> int:
        """Who leads after ``winner`` won the trick (§5, ``lead_after_out``)."""
        sizes = self.sizes
        if sizes[winner]:
            return winner
        if self.teammate_leads:
            for step in range(2, self.n + 1, 2):
                other = (winner + step) % self.n
                if sizes[other]:
                    return other
        return self._next(winner)

    def _team_out(self, seat: int) -> bool:
        return not any(self.sizes[s] for s in range(seat % 2, self.n, 2))

    def _result(self, seat: int) -> tuple[int, int]:
        team = seat % 2
        return team, sum(1 for s in range(1 - team, self.n, 2) if self.sizes[s])

    # --- the heuristic's moves --------------------------------------------------------------

    def _whole_hand(self, seat: int) -> Move | None:
        """The hand as one combination ``(category, size, key, taken)``, or None."""
        hand = self.hands[seat]
        size = self.sizes[seat]
        distinct = 18 - hand.count(0)
        # one face (single, pair, kind bomb), two jokers, 4-4-A, or a sequence of distinct
        # faces (straight) or of pairs (double dragon): anything else is no combination
        if not (
            distinct == 1
            or size == 2
            or (size == 3 and distinct == 2)
            or distinct == size
            or 2 * distinct == size
        ):
            return None
        return _whole(tuple(hand), self.level, self.two_high, self.low, self.bomb_order)

    def _lead(self, seat: int) -> Move:
        """A combination that empties the hand; else, among the plays holding the weakest card,
        the longest (then the lowest key; singles, pairs, straights, double dragons in that
        order on a tie), as ``HeuristicPolicy._lead``."""
        whole = self._whole_hand(seat)
        if whole is not None:
            return whole
        hand, power = self.hands[seat], self.power
        held = [f for f in _FACES if hand[f]]
        if seat % 2 == self.bold:
            # The bold team keeps its kind bombs whole for beating opponents (``_follow``):
            # it leads from the weakest face it holds fewer than three of, and a bomb only
            # when it holds nothing else.
            loose = [f for f in held if hand[f] < 3 or f >= BLACK_JOKER]
            if not loose:
                return self._lowest_bomb(hand, _NO_BOMB) or self._single(held[0])
            held = loose
        w = min(held, key=power.__getitem__)
        best: Move = (SINGLE, 1, power[w], ((w, 1),))
        rank = (-1, power[w])
        if hand[w] >= 2 and w < BLACK_JOKER:
            best, rank = (PAIR, 2, power[w], ((w, 2),)), (-2, power[w])
        if self.low <= w <= 14:
            for width, category in ((1, STRAIGHT), (2, DOUBLE_DRAGON)):
                if hand[w] < width:
                    break
                lo = hi = w
                while lo - 1 >= self.low and hand[lo - 1] >= width:
                    lo -= 1
                while hi + 1 <= 14 and hand[hi + 1] >= width:
                    hi += 1
                faces = hi - lo + 1
                if faces >= 3 and (-faces * width, hi) < rank:
                    rank = (-faces * width, hi)
                    best = (
                        category,
                        faces * width,
                        hi,
                        tuple((f, width) for f in range(lo, hi + 1)),
                    )
        return best

    def _single(self, face: int) -> Move:
        return SINGLE, 1, self.power[face], ((face, 1),)

    def _follow(self, seat: int, top: TopT) -> Move | None:
        """``HeuristicPolicy._follow``: empty the hand if that beats the top; pass when the
        partner holds the trick; the weakest non-bomb that beats; the weakest bomb that beats
        when someone is close to going out; else pass (None)."""
        top_seat, category, size, key = top
        whole = self._whole_hand(seat)
        if whole is not None and _beats(whole[0], whole[1], whole[2], category, size, key):
            return whole
        if top_seat % 2 == seat % 2:
            return None
        hand, power = self.hands[seat], self.power
        if category == SINGLE:
            best = None
            for f in _FACES:
                if hand[f] and power[f] > key and (best is None or power[f] < power[best]):
                    best = f
            if best is not None:
                return SINGLE, 1, power[best], ((best, 1),)
        elif category == PAIR:
            best = None
            for f in _KINDS:
                if hand[f] >= 2 and power[f] > key and (best is None or power[f] < power[best]):
                    best = f
            if best is not None:
                return PAIR, 2, power[best], ((best, 2),)
        elif category == STRAIGHT or category == DOUBLE_DRAGON:
            width = 1 if category == STRAIGHT else 2
            faces = size // width
            for t in range(max(key + 1, self.low + faces - 1), 15):
                if all(hand[f] >= width for f in range(t - faces + 1, t + 1)):
                    return category, size, t, tuple((f, width) for f in range(t - faces + 1, t + 1))
        sizes = self.sizes
        if (
            seat % 2 != self.bold
            and sizes[seat] > DANGER_CARDS
            and not any(0 < sizes[s] <= DANGER_CARDS for s in range(1 - seat % 2, self.n, 2))
        ):
            return None
        return self._lowest_bomb(hand, key if category in BOMBS else _NO_BOMB)

    def _lowest_bomb(self, hand: list[int], above: tuple[float, ...]) -> Move | None:
        """The lowest bomb of ``hand`` whose key is above ``above`` (§4), or None."""
        power = self.power
        best: Move | None = None
        for f in _KINDS:
            if hand[f] >= 3:
                for k in range(3, hand[f] + 1):
                    bomb_key = kind_bomb_key(k, power[f])
                    if bomb_key > above and (best is None or bomb_key < best[2]):
                        best = (KIND_BOMB, k, bomb_key, ((f, k),))
        black, red = hand[BLACK_JOKER], hand[RED_JOKER]
        for pair, taken, ok in (
            ((BLACK_JOKER, BLACK_JOKER), ((BLACK_JOKER, 2),), black >= 2),
            ((BLACK_JOKER, RED_JOKER), ((BLACK_JOKER, 1), (RED_JOKER, 1)), black and red),
            ((RED_JOKER, RED_JOKER), ((RED_JOKER, 2),), red >= 2),
        ):
            if ok:
                bomb_key = joker_bomb_key(pair, self.bomb_order)
                if bomb_key > above and (best is None or bomb_key < best[2]):
                    best = (JOKER_BOMB, 2, bomb_key, taken)
        if hand[4] >= 2 and hand[14]:
            bomb_key = four_one_four_key(self.bomb_order)
            if bomb_key > above and (best is None or bomb_key < best[2]):
                best = (FOUR_ONE_FOUR, 3, bomb_key, ((4, 2), (14, 1)))
        return best


def _beats(
    category: str, size: int, key: Any, top_category: str, top_size: int, top_key: Any
) -> bool:
    """``combos.beats`` on bare fields (§4, §5)."""
    if category in BOMBS:
        return top_category not in BOMBS or key > top_key
    return category == top_category and size == top_size and key > top_key
