"""Where the private key files live, and the mode they must have: what the clubs' keys
(:mod:`.keys`) and the row key (:mod:`.rowkey`) share. Apart from :mod:`.keys` so that the row
key, which every read checks rows with, is found without loading the signing code
(cryptography) into a command that signs nothing (bench/cli_bench.py)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from ..store.db import DATA_DIR_VARIABLE

KEYS_DIR_VARIABLE = "DOMINO_KEYS_DIR"
KEYS_DIR = "domino-keys"
PRIVATE = 0o600
OTHERS = stat.S_IRWXG | stat.S_IRWXO


def keys_dir() -> Path:
    """Where the private keys live: DOMINO_KEYS_DIR, else ``domino-keys`` in DOMINO_DATA_DIR
    (else here)."""
    if path := os.environ.get(KEYS_DIR_VARIABLE):
        return Path(path)
    return Path(os.environ.get(DATA_DIR_VARIABLE) or ".") / KEYS_DIR
