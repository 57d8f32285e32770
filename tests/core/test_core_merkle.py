"""The transparency log's Merkle tree (referee.core.merkle) against the published RFC 6962 /
RFC 9162 test vectors (the eight-leaf tree of certificate-transparency and
transparency-dev/merkle: leaf inputs, the root of every size, inclusion and consistency
proofs), and properties: every proof made checks, and any change to a proof, a leaf, a root or
a size fails."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.core import merkle

LEAVES = [bytes.fromhex(h) for h in ("", "00", "10", "2021", "3031", "40414243",
                                     "5051525354555657", "606162636465666768696a6b6c6d6e6f")]
ROOTS = [bytes.fromhex(h) for h in (
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",  # the empty tree
    "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
    "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
    "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
    "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
    "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
    "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
    "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328")]


def h(*hexes: str) -> list[bytes]:
    return [bytes.fromhex(x) for x in hexes]


# (leaf index, tree size, path): the vectors' leaf indices are 1-based, these 0-based
INCLUSION = [
    (0, 1, []),
    (0, 8, h("96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
             "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
             "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4")),
    (5, 8, h("bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
             "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
             "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7")),
    (2, 3, h("fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125")),
    (1, 5, h("6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
             "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
             "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b")),
]
CONSISTENCY = [
    (1, 1, []),
    (1, 8, h("96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
             "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
             "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4")),
    (6, 8, h("0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
             "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
             "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7")),
    (2, 5, h("5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
             "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b")),
    (6, 7, h("0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
             "b08693ec2e721597130641e8211e7eedccb4c26413963eee6c1e2ed16ffb1a5f",
             "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7")),
]
HASHES = [merkle.leaf_hash(leaf) for leaf in LEAVES]


def test_the_root_of_every_size_is_the_published_one() -> None:
    for size, expected in enumerate(ROOTS):
        assert merkle.root(HASHES[:size]) == expected
        assert merkle.Frontier.of(HASHES[:size]).root() == expected


@pytest.mark.parametrize("index,size,path", INCLUSION)
def test_inclusion_proofs_are_the_published_ones(index: int, size: int, path: list) -> None:
    assert merkle.inclusion_path(index, HASHES[:size]) == path
    merkle.verify_inclusion(index, size, HASHES[index], path, ROOTS[size])
    if path:
        with pytest.raises(merkle.ProofError):
            merkle.verify_inclusion(index, size, HASHES[index], path[:-1], ROOTS[size])


@pytest.mark.parametrize("old,new,path", CONSISTENCY)
def test_consistency_proofs_are_the_published_ones(old: int, new: int, path: list) -> None:
    assert merkle.consistency_path(old, HASHES[:new]) == path
    merkle.verify_consistency(old, new, ROOTS[old], ROOTS[new], path)
    if path:
        with pytest.raises(merkle.ProofError):
            merkle.verify_consistency(old, new, ROOTS[old], ROOTS[new], path[1:])


def test_the_edges_of_consistency() -> None:
    merkle.verify_consistency(0, 5, merkle.EMPTY_ROOT, ROOTS[5], [])  # the empty tree
    merkle.verify_consistency(4, 4, ROOTS[4], ROOTS[4], [])
    for bad in [(4, 4, ROOTS[4], ROOTS[5], []), (5, 4, ROOTS[5], ROOTS[4], []),
                (0, 5, merkle.EMPTY_ROOT, ROOTS[5], [ROOTS[1]]), (2, 5, ROOTS[2], ROOTS[5], [])]:
        with pytest.raises(merkle.ProofError):
            merkle.verify_consistency(*bad)


def test_a_proof_for_no_leaf_is_refused() -> None:
    with pytest.raises(merkle.ProofError):
        merkle.inclusion_path(8, HASHES)
    with pytest.raises(merkle.ProofError):
        merkle.consistency_path(9, HASHES)
    with pytest.raises(merkle.ProofError):
        merkle.verify_inclusion(0, 0, HASHES[0], [], merkle.EMPTY_ROOT)


leaves = st.lists(st.binary(max_size=8), min_size=1, max_size=70)


@given(leaves, st.data())
def test_every_inclusion_proof_checks_and_nothing_else_does(data: list, draw: st.DataObject) -> None:
    hashes = [merkle.leaf_hash(x) for x in data]
    n = len(hashes)
    index = draw.draw(st.integers(0, n - 1))
    root = merkle.root(hashes)
    path = merkle.inclusion_path(index, hashes)
    merkle.verify_inclusion(index, n, hashes[index], path, root)
    other = draw.draw(st.integers(0, n - 1))
    if hashes[other] != hashes[index]:  # another leaf, under this leaf's path
        with pytest.raises(merkle.ProofError):
            merkle.verify_inclusion(index, n, hashes[other], path, root)
    if path:
        at = draw.draw(st.integers(0, len(path) - 1))
        changed = path[:at] + [bytes(32)] + path[at + 1:]
        with pytest.raises(merkle.ProofError):
            merkle.verify_inclusion(index, n, hashes[index], changed, root)


@given(leaves, st.data())
def test_every_consistency_proof_checks_and_a_rewrite_does_not(data: list,
                                                               draw: st.DataObject) -> None:
    hashes = [merkle.leaf_hash(x) for x in data]
    n = len(hashes)
    old = draw.draw(st.integers(1, n))
    path = merkle.consistency_path(old, hashes)
    merkle.verify_consistency(old, n, merkle.root(hashes[:old]), merkle.root(hashes), path)
    # The old tree rewritten (one of its leaves changed): the proof from today's tree fails.
    at = draw.draw(st.integers(0, old - 1))
    rewritten = hashes[:at] + [merkle.leaf_hash(b"forged" + data[at])] + hashes[at + 1:]
    with pytest.raises(merkle.ProofError):
        merkle.verify_consistency(old, n, merkle.root(hashes[:old]), merkle.root(rewritten),
                                  merkle.consistency_path(old, rewritten))


@given(leaves)
def test_the_frontier_grows_as_the_tree(data: list) -> None:
    frontier = merkle.Frontier()
    hashes = [merkle.leaf_hash(x) for x in data]
    for size, leaf in enumerate(hashes, start=1):
        frontier.append(leaf)
        again = merkle.Frontier(frontier.size, frontier.hashes())
        assert frontier.root() == again.root() == merkle.root(hashes[:size])
