"""The system's reasons (an OSError's, a network failure's, SQLite's, PostgreSQL's) in the
reader's language: English as the C library says it, Spanish and Italian from the catalogs, and
never the English sentence in another language, even for an errno the catalogs have no words
for."""

from __future__ import annotations

import errno
import http.client
import os
import socket
import ssl
from typing import Callable

import psycopg
import psycopg.errors
import pytest

import words
from words import pgerrors
from words.oserrors import ERRNO, reason


def said(lang: str, error: BaseException, by: Callable[[BaseException], str] = reason) -> str:
    token = words.use(lang)
    try:
        return by(error)
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


# PostgreSQL's failures (words.pgerrors): a failed connection by the server libpq tried and
# libpq's or the server's reason, a statement's error by its SQLSTATE. The texts are libpq's and
# psycopg's own, as psycopg 3 raised them against a closed port, a missing database, a missing
# socket.
def said_pg(lang: str, error: BaseException) -> str:
    return said(lang, error, pgerrors.reason)


REFUSED = psycopg.OperationalError(
    'connection failed: connection to server at "127.0.0.1", port 5999 failed: Connection '
    "refused\n\tIs the server running on that host and accepting TCP/IP connections?")
NO_DATABASE = psycopg.OperationalError(
    'connection failed: connection to server at "127.0.0.1", port 5432 failed: FATAL:  '
    'database "nodb" does not exist')
NO_SOCKET = psycopg.OperationalError(
    'connection is bad: connection to server on socket "/tmp/x/.s.PGSQL.5432" failed: No such '
    "file or directory\n\tIs the server running locally and accepting connections on that "
    "socket?")


def test_a_failed_connection_names_the_server_and_why() -> None:
    assert said_pg("en", REFUSED) == "the database server 127.0.0.1, port 5999: Connection refused"
    assert said_pg("es", REFUSED) \
        == "el servidor de la base de datos 127.0.0.1, puerto 5999: conexión rechazada"
    assert said_pg("it", NO_DATABASE) \
        == "il server del database 127.0.0.1, porta 5432: il database nodb non esiste"
    assert said_pg("es", NO_SOCKET) == ("el servidor de la base de datos en el socket "
                                     "/tmp/x/.s.PGSQL.5432: no existe el archivo o el directorio")


def test_the_last_address_tried_is_the_one_said() -> None:
    both = psycopg.OperationalError(
        'connection failed: connection to server at "localhost" (::1), port 5999 failed: '
        "Connection refused\n\tIs the server running on that host and accepting TCP/IP "
        'connections?\nconnection to server at "localhost" (127.0.0.1), port 5999 failed: '
        'FATAL:  role "nadie" does not exist')
    assert said_pg("es", both) \
        == "el servidor de la base de datos localhost, puerto 5999: el rol nadie no existe"


@pytest.mark.parametrize(("text", "spanish"), [
    ("failed to resolve host 'db.invalid': [Errno -2] Name or service not known",
     "no se pudo resolver el nombre del servidor db.invalid"),
    ("consuming input failed: server closed the connection unexpectedly\n\tThis probably means "
     "the server terminated abnormally\n\tbefore or while processing the request.",
     "el servidor de la base de datos cerró la conexión inesperadamente"),
    ("the connection is closed", "la conexión con la base de datos está cerrada"),
    ('connection failed: connection to server at "10.0.0.9", port 5432 failed: timeout expired',
     "el servidor de la base de datos 10.0.0.9, puerto 5432: sin respuesta a tiempo"),
    ('connection failed: connection to server at "10.0.0.9", port 5432 failed: FATAL:  '
     'password authentication failed for user "domino"',
     "el servidor de la base de datos 10.0.0.9, puerto 5432: falló la autenticación por "
     "contraseña del usuario domino"),
    ('connection failed: connection to server at "10.0.0.9", port 5432 failed: FATAL:  '
     "the database system is starting up",
     "el servidor de la base de datos 10.0.0.9, puerto 5432: el servidor de la base de datos "
     "se está iniciando o deteniendo"),
])
def test_libpq_s_words_at_a_failed_or_lost_connection(text: str, spanish: str) -> None:
    assert said_pg("es", psycopg.OperationalError(text)) == spanish


def test_a_statement_s_error_is_said_by_its_sqlstate_not_the_server_s_english() -> None:
    shutdown = psycopg.errors.AdminShutdown("terminating connection due to administrator command")
    assert said_pg("en", shutdown) == "the database server is shutting down"
    assert said_pg("it", shutdown) == "il server del database si sta arrestando"
    assert said_pg("es", psycopg.errors.ReadOnlySqlTransaction(
        "cannot execute INSERT in a read-only transaction")) \
        == "la base de datos es de solo lectura"
    assert said_pg("es", psycopg.errors.DiskFull("could not extend file")) \
        == "el disco del servidor de la base de datos está lleno"


def test_what_postgresql_has_no_words_for_is_named_by_its_code_not_its_english() -> None:
    assert said_pg("es", psycopg.errors.UniqueViolation(
        "duplicate key value violates unique constraint")) \
        == "el error de PostgreSQL 23505"
    assert said_pg("it", psycopg.OperationalError("something libpq never said before")) \
        == "l'errore di PostgreSQL OperationalError"
