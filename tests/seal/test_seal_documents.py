"""What is signed (referee.seal): RFC 8785 bytes as an independent implementation (``jcs``) and
hand-checked bytes give them; an acta with an accent in a name verified with nothing but
``cryptography`` and ``jcs``, and by ``openssl pkeyutl``; a tree head; a domino-acta/1 as it
was signed; a signature outside its key's validity."""

from __future__ import annotations

import base64
import datetime as dt
import json
import shutil
import subprocess
from pathlib import Path

import jcs
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from hypothesis import given
from hypothesis import strategies as st

from referee.core import acta as sheet
from referee.core import merkle
from referee.seal import documents
from referee.seal.canonical import canonical
from referee.seal.keys import KeyFormatError, PrivateKey, PublicKey, read_keys

BODY = {"format": "domino-acta/2", "match": 7, "club": "casino", "event": "Copa Otoño",
        "players": [{"seat": 0, "name": "Íñigo", "side": 0}, {"seat": 1, "name": "Zoë 🁣", "side": 1}],
        "totals": [101, 87], "winner": 0, "finished": True, "open_disputes": 0,
        "chain": {"algorithm": "domino-chain/1", "head": "ab" * 32}}
SIGNED_AT = "2026-05-01T18:30:00+00:00"


def test_hand_checked_bytes() -> None:
    # Members sorted by UTF-16 code units (U+1F600, a surrogate pair, before U+FFFF), UTF-8,
    # no spaces, only the escapes JSON needs.
    assert canonical({"b": "Otoño", "a": [1, None, True], "\U0001f600": 1, "\uffff": "\n\u0001"}) \
        == b'{"a":[1,null,true],"b":"Oto\xc3\xb1o","\xf0\x9f\x98\x80":1,"\xef\xbf\xbf":"\\n\\u0001"}'


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53) + 1, 2**53 - 1)
    | st.text(st.characters(blacklist_categories=("Cs",))),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(st.characters(blacklist_categories=("Cs",)), max_size=4), inner,
                      max_size=4), max_leaves=20)


@given(json_values)
def test_the_bytes_are_an_independent_implementations(value: object) -> None:
    assert canonical(value) == jcs.canonicalize(value)


def test_what_has_no_rfc_8785_form_is_refused() -> None:
    for value in ({"a": "\ud800"}, 2**60, float("nan")):
        with pytest.raises(ValueError, match="no RFC 8785 form"):
            canonical(value)


def test_an_acta_with_accents_verifies_with_cryptography_and_jcs_alone(tmp_path: Path) -> None:
    key = PrivateKey.generate()
    acta = documents.sign_acta(BODY, key, SIGNED_AT, 3)
    # The verifier a federation would write: another RFC 8785, the raw Ed25519 key.
    body = jcs.canonicalize({k: v for k, v in acta.items() if k != "signature"})
    assert "Íñigo".encode("utf-8") in body  # not \u-escaped: the standard's bytes
    Ed25519PublicKey.from_public_bytes(key.public.raw).verify(
        base64.b64decode(acta["signature"]), body)
    assert acta["key_id"] == key.key_id and acta["leaf_index"] == 3
    assert documents.signature_problems(acta, [key.public], "the acta") == []
    if shutil.which("openssl") is None:
        pytest.skip("no openssl")
    (tmp_path / "pub.pem").write_text(key.public.pem())
    (tmp_path / "body").write_bytes(body)
    (tmp_path / "sig").write_bytes(base64.b64decode(acta["signature"]))
    verified = subprocess.run(["openssl", "pkeyutl", "-verify", "-pubin", "-inkey",
                               str(tmp_path / "pub.pem"), "-rawin", "-in", str(tmp_path / "body"),
                               "-sigfile", str(tmp_path / "sig")], capture_output=True, text=True)
    assert verified.returncode == 0 and "Signature Verified Successfully" in verified.stdout


def test_any_change_fails_the_signature() -> None:
    key = PrivateKey.generate()
    acta = documents.sign_acta(BODY, key, SIGNED_AT, 0)
    for change in ({"winner": 1}, {"club": "rival"}, {"leaf_index": 1},
                   {"signed_at": "2026-05-02T18:30:00+00:00"},
                   {"players": [{**BODY["players"][0], "name": "Mallory"}, BODY["players"][1]]}):
        problems = documents.signature_problems({**acta, **change}, [key.public], "the acta")
        assert problems and "does not match the acta" in problems[0]
    other = PrivateKey.generate()
    assert "names key" in documents.signature_problems(acta, [other.public], "the acta")[0]


def test_a_signature_outside_its_keys_validity_fails() -> None:
    key = PrivateKey.generate()
    acta = documents.sign_acta(BODY, key, SIGNED_AT, 0)
    at = dt.datetime.fromisoformat(SIGNED_AT)
    within = PublicKey(key.public.raw, at - dt.timedelta(days=1), at + dt.timedelta(days=1))
    before = PublicKey(key.public.raw, at + dt.timedelta(seconds=1))
    ended = PublicKey(key.public.raw, at - dt.timedelta(days=9), at - dt.timedelta(days=1))
    assert documents.signature_problems(acta, [within], "the acta") == []
    for key_listed in (before, ended):
        assert "outside the validity" in documents.signature_problems(acta, [key_listed],
                                                                      "the acta")[0]


def test_a_legacy_acta_still_verifies() -> None:
    """A domino-acta/1, signed by the server's one key over the chain's canonical bytes
    (sorted, ASCII), as it was before club keys."""
    key = PrivateKey.generate()
    legacy = {**BODY, "format": "domino-acta/1", "key_id": key.key_id}
    legacy["signature"] = sheet.encode(key.sign(sheet.legacy_bytes(legacy)))
    assert b"\\u00cd" in sheet.legacy_bytes(legacy)  # Í, escaped as the chain writes it
    assert documents.signature_problems(legacy, [key.public], "the acta") == []
    assert documents.signature_problems({**legacy, "winner": 1}, [key.public], "the acta")


def test_a_tree_head_and_an_inclusion_proof() -> None:
    key = PrivateKey.generate()
    actas = [documents.sign_acta({**BODY, "match": n}, key, SIGNED_AT, n) for n in range(5)]
    hashes = [merkle.leaf_hash(documents.leaf(a)) for a in actas]
    head = documents.sign_head("casino", 5, merkle.root(hashes), SIGNED_AT, key)
    assert set(head) == set(documents.TREE_HEAD_FIELDS)
    assert documents.signature_problems(head, [key.public], "the tree head") == []
    proof = {"index": 3, "size": 5, "path": [h.hex() for h in merkle.inclusion_path(3, hashes)]}
    assert documents.inclusion_problems(actas[3], head, proof) == []
    assert documents.inclusion_problems({**actas[3], "winner": 1}, head, proof)
    assert documents.inclusion_problems(actas[2], head, proof)  # another leaf's proof
    old = documents.sign_head("casino", 2, merkle.root(hashes[:2]), SIGNED_AT, key)
    consistency = {"from": 2, "to": 5, "path": [h.hex() for h in merkle.consistency_path(2, hashes)]}
    assert documents.consistency_problems(old, head, consistency) == []
    rewritten = documents.sign_head("casino", 2, merkle.root(hashes[2:4]), SIGNED_AT, key)
    assert "old tree was rewritten" in documents.consistency_problems(rewritten, head,
                                                                      consistency)[0]
    assert "shrank" in documents.consistency_problems(head, old, consistency)[0]


def test_keys_are_read_from_every_form() -> None:
    key = PrivateKey.generate()
    raw = key.public.raw
    listing = {"club": "casino", "keys": [{**key.public.published(), "status": "signing",
                                           "valid_from": SIGNED_AT, "valid_until": None}]}
    for text in (json.dumps(listing), json.dumps(key.public.published()), key.public.pem(),
                 sheet.encode(raw)):
        assert [k.raw for k in read_keys(text)] == [raw]
    assert read_keys(json.dumps(listing))[0].valid_from == dt.datetime.fromisoformat(SIGNED_AT)
    for bad in ("nothing", sheet.encode(b"short"), "{}", "[1]"):
        with pytest.raises(KeyFormatError):
            read_keys(bad)
