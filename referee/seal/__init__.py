"""What is signed, and checking it: the RFC 8785 bytes of a document (:mod:`.canonical`),
Ed25519 keys (:mod:`.keys`), and the signed documents themselves, the acta and the tree head
(:mod:`.documents`).

A layer of its own between the rules core and the service: like the core it does no I/O and
reads no clock (what it signs says when, as its caller gives it), but it needs two packages the
core may not import, ``rfc8785`` and ``cryptography``. ``domino verify`` runs on it and the core
alone, without the database; the service signs with it. ``cryptography`` is imported only when a
key is read or a signature made or checked.
"""
