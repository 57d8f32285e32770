"""The system's reasons (an OSError's, a network failure's) in the reader's language: English as
the C library says it, Spanish and Italian from the catalogs, and never the English sentence
in another language, even for an errno the catalogs have no words for."""

from __future__ import annotations

import errno
import http.client
import os
import socket
import ssl

import pytest

import words
from words.oserrors import ERRNO, reason


def said(lang: str, error: BaseException) -> str:
    token = words.use(lang)
    try:
        return reason(error)
    finally:
        words.reset(token)


@pytest.mark.parametrize("code", sorted(ERRNO))
def test_each_errno_is_the_c_library_s_words_in_english_and_the_catalogs_elsewhere(code: int) -> None:
    error = OSError(code, os.strerror(code))
    assert said("en", error) == os.strerror(code)
    for lang in ("es", "it"):
        assert said(lang, error) != os.strerror(code), lang


def test_the_common_ones_read_as_written() -> None:
    missing = FileNotFoundError(errno.ENOENT, "No such file or directory", "x.json")
    assert said("es", missing) == "no existe el archivo o el directorio"
    assert said("it", missing) == "file o directory inesistente"
    assert said("es", ConnectionRefusedError(errno.ECONNREFUSED, "x")) == "conexión rechazada"


def test_network_failures_are_said_not_their_codes() -> None:
    assert said("es", socket.gaierror(socket.EAI_NONAME, "Name or service not known")) \
        == "no se pudo resolver el nombre del servidor"
    assert said("it", ssl.SSLCertVerificationError(1, "certificate verify failed")) \
        == "impossibile verificare il certificato del server"
    assert said("en", ssl.SSLError(1, "wrong version number")) == "the secure connection (TLS) failed"
    assert said("en", http.client.RemoteDisconnected("Remote end closed")) \
        == "the server closed the connection without a whole answer"
    assert said("en", http.client.LineTooLong("header line")) \
        == "the server's answer is not HTTP that can be read"
    assert said("es", TimeoutError("timed out")) == "sin respuesta a tiempo"


def test_what_has_no_words_is_named_by_its_code_not_its_english() -> None:
    assert errno.EXDEV not in ERRNO
    assert said("es", OSError(errno.EXDEV, os.strerror(errno.EXDEV))) == "el error del sistema EXDEV"
    assert said("it", OSError("no errno at all")) == "l'errore di sistema OSError"


def test_sqlite_s_failures_are_said_by_their_code(tmp_path) -> None:
    import sqlite3

    path = tmp_path / "x.db"
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        sqlite3.connect(path, timeout=0).execute("SELECT 1 FROM sqlite_master")
    except sqlite3.OperationalError as error:
        locked = error
    holder.close()
    assert said("en", locked) == "database is locked"
    assert said("es", locked) == "la base de datos está bloqueada"
    (tmp_path / "text.db").write_text("not a database at all, " * 100)
    try:
        sqlite3.connect(tmp_path / "text.db").execute("SELECT 1 FROM sqlite_master")
    except sqlite3.DatabaseError as error:
        not_one = error
    assert said("it", not_one) == "il file non è un database"
