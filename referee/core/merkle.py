"""The Merkle tree of a transparency log, exactly as RFC 9162 §2.1 defines it (the same tree as
RFC 6962's): a leaf's hash is SHA-256(0x00 || leaf), a node's SHA-256(0x01 || left || right),
and a tree of n > 1 leaves splits at k, the largest power of two below n. Inclusion proofs
(§2.1.3) and consistency proofs (§2.1.4), made and checked; ``docs/verify.md`` says how the
clubs' logs use them.

The proofs are made from the leaf hashes (:func:`inclusion_path`, :func:`consistency_path`) by
the RFC's recursive definitions, and checked by the RFC's iterative algorithms
(:func:`verify_inclusion`, :func:`verify_consistency`), so that each side is a second reading of
the other. :class:`Frontier` keeps the roots of the perfect subtrees of a growing tree (a
"compact range"): appending a leaf and reading the root cost O(log n), without the leaves.
"""

from __future__ import annotations

import hashlib
from typing import Sequence

LEAF_PREFIX = b"\x00"
NODE_PREFIX = b"\x01"
EMPTY_ROOT = hashlib.sha256(b"").digest()  # MTH({}), the root of the empty tree


class ProofError(ValueError):
    """A proof that does not hold, or a request no proof can answer (a size past the tree)."""


def leaf_hash(leaf: bytes) -> bytes:
    return hashlib.sha256(LEAF_PREFIX + leaf).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(NODE_PREFIX + left + right).digest()


def _split(n: int) -> int:
    """The largest power of two smaller than n (n > 1)."""
    return 1 << ((n - 1).bit_length() - 1)


def root(hashes: Sequence[bytes]) -> bytes:
    """MTH of the leaves whose hashes are ``hashes``."""
    if not hashes:
        return EMPTY_ROOT
    if len(hashes) == 1:
        return hashes[0]
    k = _split(len(hashes))
    return node_hash(root(hashes[:k]), root(hashes[k:]))


def inclusion_path(index: int, hashes: Sequence[bytes]) -> list[bytes]:
    """PATH(m, D[n]) of RFC 9162 §2.1.3.1: the audit path of leaf ``index`` in the tree of the
    leaves ``hashes``."""
    if not 0 <= index < len(hashes):
        raise ProofError(f"leaf {index} is not in a tree of {len(hashes)} leaves")
    if len(hashes) == 1:
        return []
    k = _split(len(hashes))
    if index < k:
        return inclusion_path(index, hashes[:k]) + [root(hashes[k:])]
    return inclusion_path(index - k, hashes[k:]) + [root(hashes[:k])]


def consistency_path(old_size: int, hashes: Sequence[bytes]) -> list[bytes]:
    """PROOF(m, D[n]) of RFC 9162 §2.1.4.1: that the tree of the first ``old_size`` leaves is a
    prefix of the tree of all ``hashes``. Empty for 0 < old_size == n (nothing to prove) and for
    old_size 0 (any tree extends the empty one)."""
    n = len(hashes)
    if not 0 <= old_size <= n:
        raise ProofError(f"a tree of {old_size} leaves is not a prefix of one of {n}")
    if old_size in (0, n):
        return []
    return _subproof(old_size, hashes, True)


def _subproof(m: int, hashes: Sequence[bytes], whole: bool) -> list[bytes]:
    n = len(hashes)
    if m == n:
        return [] if whole else [root(hashes)]
    k = _split(n)
    if m <= k:
        return _subproof(m, hashes[:k], whole) + [root(hashes[k:])]
    return _subproof(m - k, hashes[k:], False) + [root(hashes[:k])]


def verify_inclusion(index: int, size: int, leaf: bytes, path: Sequence[bytes],
                     expected_root: bytes) -> None:
    """RFC 9162 §2.1.3.2: ProofError unless ``path`` proves the leaf hash ``leaf`` is leaf
    ``index`` of the tree of ``size`` leaves whose root is ``expected_root``."""
    if not 0 <= index < size:
        raise ProofError(f"leaf {index} is not in a tree of {size} leaves")
    fn, sn, r = index, size - 1, leaf
    for p in path:
        if sn == 0:
            raise ProofError("the inclusion path is longer than the tree is deep")
        if fn & 1 or fn == sn:
            r = node_hash(p, r)
            if not fn & 1:
                while fn and not fn & 1:
                    fn >>= 1
                    sn >>= 1
        else:
            r = node_hash(r, p)
        fn >>= 1
        sn >>= 1
    if sn != 0:
        raise ProofError("the inclusion path is shorter than the tree is deep")
    if r != expected_root:
        raise ProofError("the inclusion path does not lead to the tree head's root")


def verify_consistency(old_size: int, new_size: int, old_root: bytes, new_root: bytes,
                       path: Sequence[bytes]) -> None:
    """RFC 9162 §2.1.4.2: ProofError unless ``path`` proves the tree of ``old_size`` leaves
    with root ``old_root`` is a prefix of the tree of ``new_size`` leaves with root
    ``new_root``."""
    if not 0 <= old_size <= new_size:
        raise ProofError(f"a tree of {old_size} leaves cannot grow into one of {new_size}")
    if old_size == 0:
        if path:
            raise ProofError("a proof from the empty tree must be empty")
        return
    if old_size == new_size:
        if path:
            raise ProofError("a proof between equal sizes must be empty")
        if old_root != new_root:
            raise ProofError("two heads of the same size have different roots: the old tree was "
                             "rewritten")
        return
    if not path:
        raise ProofError("the consistency path is empty")
    path = list(path)
    if old_size & (old_size - 1) == 0:  # a power of two: the old root is the first node
        path.insert(0, old_root)
    fn, sn = old_size - 1, new_size - 1
    while fn & 1:
        fn >>= 1
        sn >>= 1
    fr = sr = path[0]
    for c in path[1:]:
        if sn == 0:
            raise ProofError("the consistency path is longer than the trees are deep")
        if fn & 1 or fn == sn:
            fr = node_hash(c, fr)
            sr = node_hash(c, sr)
            if not fn & 1:
                while fn and not fn & 1:
                    fn >>= 1
                    sn >>= 1
        else:
            sr = node_hash(sr, c)
        fn >>= 1
        sn >>= 1
    if sn != 0:
        raise ProofError("the consistency path is shorter than the trees are deep")
    if fr != old_root or sr != new_root:
        # With an old size that is a power of two the old root is the path's first node, so a
        # rewrite shows only in the new root: one message for both.
        raise ProofError("the consistency path does not join the old head's root to the new "
                         "one's: the old tree was rewritten, or the proof is not theirs")


class Frontier:
    """The roots of the perfect subtrees a tree of ``size`` leaves is made of, largest
    (leftmost) first: all that appending needs. Built from leaf hashes or from what
    :meth:`hashes` gave (as stored beside a tree head)."""

    __slots__ = ("size", "_nodes")

    def __init__(self, size: int = 0, nodes: Sequence[bytes] = ()) -> None:
        if len(nodes) != bin(size).count("1"):
            raise ValueError(f"a tree of {size} leaves has {bin(size).count('1')} perfect "
                             f"subtrees, not {len(nodes)}")
        self.size = size
        self._nodes = list(nodes)

    @classmethod
    def of(cls, hashes: Sequence[bytes]) -> "Frontier":
        frontier = cls()
        for h in hashes:
            frontier.append(h)
        return frontier

    def append(self, leaf: bytes) -> None:
        """Add the leaf whose hash is ``leaf``: equal subtrees merge as the size's bits carry."""
        node, size = leaf, self.size
        while size & 1:
            node = node_hash(self._nodes.pop(), node)
            size >>= 1
        self._nodes.append(node)
        self.size += 1

    def root(self) -> bytes:
        if not self._nodes:
            return EMPTY_ROOT
        node = self._nodes[-1]
        for left in reversed(self._nodes[:-1]):
            node = node_hash(left, node)
        return node

    def hashes(self) -> list[bytes]:
        return list(self._nodes)
