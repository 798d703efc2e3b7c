"""What a Swytch position is worth: the searching bots' evaluation (docs/SWYTCH.md).

:func:`evaluate` scores a position for the player to move, in hundredths of a counter
(:data:`COUNTER`), from what decides this game:

- **material**: counters on the board;
- **threats**: every own stack whose group could reach an opponent stack this turn
  (straight, jumping own stacks, or bending when its top is angled) and what that
  attack takes by the rule ``a >= d`` (the defender's ``d`` counters; a shorter group
  still takes ``a`` counters for its own top one). The player to move will take the best
  of its own threats; of the opponent's it can parry one, so a second one counts nearly
  in full;
- **mobility**: the empty cells each stack can reach this turn, which is where height
  (longer paths), an angled top (bending) and orientation (a top pointing at open board)
  pay off;
- **danger**: own counters in stacks that an opponent stack at least as tall could
  attack after one move (within twice its height), a threat a short search misses;
- **conversion**: the side ahead by :data:`LEAD` counters or more is rewarded for
  bringing its stacks to the opponent's remaining ones and penalised for every quiet
  turn, so that a won game is won, not drawn by the 100-quiet-turn rule.

>>> from .state import State
>>> evaluate(State.new())
0
"""

from __future__ import annotations

from functools import cache

from .board import SOUTH, Counter, Direction, Shape, Stack
from .state import State, neighbour_table

#: Score of a won game (a search subtracts the turns it takes, so that sooner is better).
WIN = 1_000_000
#: A counter on the board.
COUNTER = 100
#: An empty cell a stack can reach this turn.
MOBILITY = 2
#: Shares (in %) of a threat's gain: the mover's best; the opponent's best and second.
MOVER_THREAT, THREAT, SECOND_THREAT = 30, 25, 70
#: A counter of a stack that an opponent stack at least as tall could reach in two turns.
DANGER = 8
#: From this lead in counters on, the side ahead plays to convert it.
LEAD = 1
#: Conversion: per step from each opponent stack to the nearest own stack; per step from
#: each own stack to the nearest opponent stack; per quiet turn (turns without a removal).
CHASE, GATHER, QUIET = 6, 1, 2

_HEX, _ROUND = Shape.HEX, Shape.ROUND
_DIRS = tuple(Direction)
_ALL = tuple(range(6))
#: Direction indices a hex top allows, by ``up``.
_POINTS = {up: tuple(_DIRS.index(d) for d in Counter(up).directions()) for up in (False, True)}


@cache
def distances(ranks: int) -> tuple[tuple[int, ...], ...]:
    """Steps between any two cells (by index) on an empty board."""
    neighbours = neighbour_table(ranks)
    out = []
    for start in range(len(neighbours)):
        far = [-1] * len(neighbours)
        far[start] = 0
        layer = [start]
        while layer:
            nxt = []
            for i in layer:
                for j in neighbours[i]:
                    if j >= 0 and far[j] < 0:
                        far[j] = far[i] + 1
                        nxt.append(j)
            layer = nxt
        out.append(tuple(far))
    return tuple(out)


def attack_gain(attacker: int, defender: int) -> int:
    """Counters an attack by a group of ``attacker`` counters takes from the opponent, less
    what it loses: the whole defender when ``attacker >= defender``, else ``attacker`` of
    them for the group's top counter."""
    return defender if attacker >= defender else attacker - 1


def evaluate(state: State) -> int:
    """The position's worth to the player to move, in hundredths of a counter (higher is
    better; :data:`WIN` for a won game, 0 for a draw)."""
    me = state.to_move
    if state.winner is not None:
        return WIN if state.winner == me else -WIN
    if state.draw is not None:
        return 0
    return assess(state)[0]


def assess(state: State) -> tuple[int, int]:
    """:func:`evaluate` of a position still in play, and the most the player to move can
    take with one attack (counters, less what the attack loses; 0 when no attack gains):
    a search need not look at the attacks when that is 0."""
    cells, ranks, me, left, quiet = state.cells, state.ranks, state.to_move, state.left, state.quiet
    neighbours = neighbour_table(ranks)
    mobility = [0, 0]
    gains: tuple[dict[int, int], dict[int, int]] = ({}, {})  # by side: target -> best gain
    where: tuple[list[int], list[int]] = ([], [])  # by side: stack indices
    heights: list[int] = [0] * len(cells)
    for i, stack in enumerate(cells):
        if stack is None:
            continue
        owner, shape, counters = stack.owner, stack.shape, stack.counters
        h = len(counters)
        where[owner].append(i)
        heights[i] = h
        if shape is _ROUND:
            dirs, bends = _ALL, False
        else:
            top = counters[-1]
            dirs, bends = _POINTS[top.up], top.angled and h > 1
        reach = gains[owner]
        moves = 0
        for d in dirs:  # straight paths: the group of all h counters, jumping own stacks
            j, jumps = i, 0
            for _ in range(h):
                j = neighbours[j][d]
                if j < 0:
                    break
                target = cells[j]
                if target is None:
                    moves += 1
                    continue
                if target.owner == owner:
                    if target.shape is not shape:
                        break
                    jumps += 1
                    continue
                gain = attack_gain(h - jumps, len(target.counters))
                if gain > reach.get(j, 0):
                    reach[j] = gain
                break
        if bends:
            moves += _bent_reach(cells, neighbours, dirs, i, h, owner, reach)
        mobility[owner] += moves
    far = distances(ranks)
    danger = [0, 0]  # by side: counters of its stacks an opponent stack reaches in two turns
    for side in (0, 1):
        for e in where[1 - side]:
            h = heights[e]
            row = far[e]
            for o in where[side]:
                d = heights[o]
                if d <= h and row[o] <= 2 * h:
                    danger[side] += d
    south = (
        COUNTER * (left[0] - left[1])
        + MOBILITY * (mobility[0] - mobility[1])
        + DANGER * (danger[1] - danger[0])
    )
    score = south if me == SOUTH else -south
    mine = max(gains[me].values(), default=0)
    theirs = sorted(gains[1 - me].values(), reverse=True)[:2]
    score += (MOVER_THREAT * COUNTER * mine) // 100
    if theirs:
        score -= (THREAT * COUNTER * theirs[0]) // 100
    if len(theirs) > 1:
        score -= (SECOND_THREAT * COUNTER * theirs[1]) // 100
    lead = left[me] - left[1 - me]
    if abs(lead) >= LEAD:
        ahead = me if lead > 0 else 1 - me
        own, other = where[ahead], where[1 - ahead]
        chase = sum(min(far[o][e] for o in own) for e in other)
        gather = sum(min(far[o][e] for e in other) for o in own)
        convert = CHASE * chase + GATHER * gather + QUIET * quiet
        score += -convert if ahead == me else convert
    return score, mine


def _bent_reach(
    cells: tuple[Stack | None, ...],
    neighbours: tuple[tuple[int, ...], ...],
    dirs: tuple[int, ...],
    origin: int,
    h: int,
    owner: int,
    reach: dict[int, int],
) -> int:
    """An angled group of ``h`` counters turning freely: the empty cells it reaches that a
    straight path does not (counted), and the opponent stacks it reaches (into ``reach``)."""
    straight = set()
    for d in dirs:
        j = origin
        for _ in range(h):
            j = neighbours[j][d]
            if j < 0:
                break
            straight.add(j)
    seen = {origin}
    layer = [origin]
    extra = 0
    for step in range(h):
        nxt = []
        for here in layer:
            for d in dirs:
                j = neighbours[here][d]
                if j < 0 or j in seen:
                    continue
                seen.add(j)
                target = cells[j]
                if target is None:
                    if j not in straight:
                        extra += 1
                    if step + 1 < h:
                        nxt.append(j)
                elif target.owner != owner:
                    gain = attack_gain(h, len(target.counters))
                    if gain > reach.get(j, 0):
                        reach[j] = gain
        layer = nxt
    return extra
