"""The matchings the engine needs, left to networkx.

- :func:`best_matching`: the maximum-cardinality matching of a graph that is best by a list of
  rules in order of importance. Each edge carries a score per rule (higher is better); the
  scores go into one integer weight per edge, lexicographically (:func:`lexicographic`), so
  that one unit of a rule outweighs everything every later rule can add over a whole matching.
  Integer weights keep networkx's blossom algorithm (``max_weight_matching``) exact, so the
  matching is the optimum, rule by rule, not a greedy guess.
- :func:`can_pair_all`: whether a list can all be paired avoiding forbidden pairs (met or
  partnered before): a maximum-cardinality matching, unless Dirac's theorem already says yes.

Graphs are built in the nodes' order, which makes networkx's answers the same for the same input.

networkx is imported when a matching is first computed, not with this module: importing it
costs more than SQLAlchemy, and a command that reads a tournament pairs nothing
(bench/cli_bench.py).
"""

from __future__ import annotations

from functools import cache
from itertools import combinations
from types import ModuleType
from typing import Any, Hashable, Iterable, Mapping, Sequence, TypeVar

N = TypeVar("N", bound=Hashable)  # an entrant's id, or a partnership (a pair of ids)
Scored = tuple[N, N, tuple[int, ...]]  # an edge and its scores, rule by rule, higher better


def _networkx() -> ModuleType:
    import networkx

    return networkx


@cache
def _graph_type() -> type:
    """networkx's ``Graph``, but ``graph[v]`` is the node's adjacency dict itself.
    ``max_weight_matching`` reads ``graph[v][w]`` for every slack it works out (over a hundred
    thousand times in a matching of a field of 100), and a ``Graph`` makes a read-only view of
    the adjacency at each of them, a quarter to a third of the matching's time. The graphs are
    this module's own, and nothing writes through them; the algorithm, its answer and its order
    are networkx's."""

    class AdjacencyGraph(_networkx().Graph):  # type: ignore[misc]
        def __getitem__(self, node: Any) -> Any:
            return self._adj[node]

    return AdjacencyGraph


def lexicographic(scores: Sequence[tuple[int, ...]], pairs: int) -> list[int]:
    """One weight per score vector, so that comparing the summed weights of two matchings of
    ``pairs`` edges compares their summed scores rule by rule: each rule's unit is worth more
    than the most that all later rules can add over ``pairs`` edges."""
    if not scores:
        return []
    width = len(scores[0])
    most = [max(s[i] for s in scores) for i in range(width)]
    unit = [1] * width
    for i in range(width - 2, -1, -1):
        unit[i] = unit[i + 1] * (pairs * most[i + 1] + 1)
    return [sum(u * s for u, s in zip(unit, vector)) for vector in scores]


def best_matching(nodes: Sequence[N], edges: Iterable[Scored]) -> list[tuple[N, N]]:
    """The best of the maximum-cardinality matchings of ``edges`` (see the module's note), each
    pair in the nodes' order and the pairs by their first node."""
    index = {node: n for n, node in enumerate(nodes)}
    edges = list(edges)
    weights = lexicographic([s for *_, s in edges], len(nodes) // 2)
    nx = _networkx()
    graph = _graph_type()()
    graph.add_nodes_from(nodes)
    graph.add_weighted_edges_from((a, b, w) for (a, b, _), w in zip(edges, weights, strict=True))
    found = nx.max_weight_matching(graph, maxcardinality=True)
    pairs = [(a, b) if index[a] < index[b] else (b, a) for a, b in found]
    return sorted(pairs, key=lambda pair: index[pair[0]])


def can_pair_all(nodes: Sequence[N], forbidden: Mapping[N, set[N]]) -> bool:
    """Whether ``nodes`` can all be paired with no pair ``forbidden`` (each node's set of those
    it may not pair with: met, or partnered, before, or kept apart by the director).

    When every node may pair with at least half the others, Dirac's theorem gives a Hamiltonian
    cycle of allowed pairs, so an even count can be paired: that is the answer with no
    matching to compute (the early rounds of a large field). Otherwise networkx decides, by a
    maximum-cardinality matching on the allowed pairs."""
    if len(nodes) % 2:
        return False
    members = set(nodes)
    if all(2 * len(forbidden.get(node, set()) & members) <= len(nodes) - 2 for node in nodes):
        return True
    nx = _networkx()
    graph = _graph_type()()
    graph.add_nodes_from(nodes)
    graph.add_edges_from((a, b) for a, b in combinations(nodes, 2) if b not in forbidden.get(a, ()))
    return 2 * len(nx.max_weight_matching(graph, maxcardinality=True)) == len(nodes)
