"""The searches the engine needs, left to networkx.

- :func:`can_pair_all`: whether a list can all be paired avoiding forbidden pairs (met or
  partnered before): a maximum-cardinality matching, unless Dirac's theorem already says yes;
- :func:`top_down`: pairs from the top of the standing, each taking the best placed below it
  that keeps the rest pairable (the Swiss rule, and ``rotating``'s partnerships);
- :func:`pair_from_top`: the one, else (when repeats cannot be avoided) the other;
- :func:`perfect_matching`: the perfect matching that repeats as little as possible (a rematch,
  a partner again, opponents met before) and then keeps pairs close in the standing. Both aims
  go into one integer weight per edge, lexicographically: one repeat fewer outweighs any gain
  in closeness. Integer weights keep networkx's blossom algorithm exact.

Graphs are built in the nodes' order, which makes networkx's answers the same for the same input.
"""

from __future__ import annotations

from itertools import combinations
from typing import Callable, Hashable, Mapping, Sequence, TypeVar

import networkx as nx

N = TypeVar("N", bound=Hashable)  # an entrant's id, or a partnership (a pair of ids)


def perfect_matching(nodes: Sequence[N], repeats: Callable[[N, N], int],
                     distance: Callable[[N, N], int], *,
                     allow_repeats: bool = True) -> list[tuple[N, N]] | None:
    """The pairs of the best perfect matching of ``nodes`` (an even number), each pair in the
    nodes' order and the pairs by their first node; None when ``allow_repeats`` is False and no
    perfect matching avoids every repeat."""
    index = {node: n for n, node in enumerate(nodes)}
    edges = [(a, b, repeats(a, b), distance(a, b)) for a, b in combinations(nodes, 2)]
    if not allow_repeats:
        edges = [(a, b, 0, d) for a, b, r, d in edges if r == 0]
    closeness = max((d for *_, d in edges), default=0) + 1  # every weight stays positive
    # above the closeness of a whole matching: one repeat fewer always wins
    per_repeat = (len(nodes) // 2 + 1) * closeness
    most = max((r for _, _, r, _ in edges), default=0) + 1
    graph = nx.Graph()
    graph.add_nodes_from(nodes)
    graph.add_weighted_edges_from(
        (a, b, per_repeat * (most - r) + closeness - d) for a, b, r, d in edges)
    found = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(found) < len(nodes):
        return None
    pairs = [(a, b) if index[a] < index[b] else (b, a) for a, b in found]
    return sorted(pairs, key=lambda pair: index[pair[0]])


def standing_distance(x: int, y: int, size: int) -> int:
    """How far apart two places ``x`` and ``y`` (0 leads, below ``size``) are for pairing: the
    squared difference, so two near misses beat one far one, counted more the higher the
    better of the two stands, so that among equally close pairings the top tables get the
    closest opponents (1st v 3rd and 2nd v 4th, rather than 1st v 4th and 2nd v 3rd)."""
    return (x - y) ** 2 * (size - min(x, y))


def can_pair_all(nodes: Sequence[N], forbidden: Mapping[N, set[N]]) -> bool:
    """Whether ``nodes`` can all be paired with no pair ``forbidden`` (each node's set of those
    it may not pair with: met, or partnered, before).

    When every node may pair with at least half the others, Dirac's theorem gives a Hamiltonian
    cycle of allowed pairs, so an even count can be paired: that is the answer with no
    matching to compute (the early rounds of a large field). Otherwise networkx decides, by a
    maximum-cardinality matching on the allowed pairs."""
    if len(nodes) % 2:
        return False
    members = set(nodes)
    if all(2 * len(forbidden.get(node, set()) & members) <= len(nodes) - 2 for node in nodes):
        return True
    graph = nx.Graph()
    graph.add_nodes_from(nodes)
    graph.add_edges_from((a, b) for a, b in combinations(nodes, 2) if b not in forbidden.get(a, ()))
    return 2 * len(nx.max_weight_matching(graph, maxcardinality=True)) == len(nodes)


def top_down(order: Sequence[N], forbidden: Mapping[N, set[N]]) -> list[tuple[N, N, list[N]]]:
    """Pairs from the top of ``order`` (which can all be paired, see :func:`can_pair_all`): the
    first node not yet paired takes the first one below it that it may pair with and that
    leaves the rest able to be paired. Each pair comes with the nodes passed over for it."""
    pairs = []
    left = list(order)
    while left:
        best, skipped = left[0], []
        for other in left[1:]:
            rest = [node for node in left[1:] if node != other]
            if other not in forbidden.get(best, ()) and can_pair_all(rest, forbidden):
                break
            skipped.append(other)
        else:  # only when ``order`` could not all be paired to begin with
            raise ValueError("top_down: the nodes cannot all be paired")
        pairs.append((best, other, skipped))
        left = rest
    return pairs


def pair_from_top(order: Sequence[N], forbidden: Mapping[N, set[N]], repeats: Callable[[N, N], int],
                  distance: Callable[[N, N], int]) -> tuple[list[tuple[N, N, list[N]]], bool]:
    """The pairs of ``order`` as :func:`top_down` makes them when no forbidden pair is needed;
    else the :func:`perfect_matching` with the fewest repeats (no one passed over then). The
    flag says whether repeats had to be allowed."""
    if can_pair_all(order, forbidden):
        return top_down(order, forbidden), False
    found = perfect_matching(order, repeats, distance)
    assert found is not None  # with every pair allowed, a perfect matching always exists
    return [(a, b, []) for a, b in found], True
