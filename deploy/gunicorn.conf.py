"""gunicorn settings for the domino-referee API in production (docs/deploy.md says why each).

    DOMINO_DATABASE_URL=postgresql+psycopg://domino@db/domino \\
        gunicorn -c deploy/gunicorn.conf.py

Each worker is uvicorn (api.worker) serving the ASGI front (api.asgi): one event loop holds the
connections, the live scoreboard streams among them, and the flask app runs in DOMINO_THREADS
threads (16) a worker. The edge's limits (request head, body, timeouts: api.edge) are the
app's own, the same under ``domino serve``; gunicorn's limit_request_* are not used by this
worker class. Run it behind a proxy for TLS (nginx, as docs/deploy.md shows). Anything here can
be overridden on the command line or in GUNICORN_CMD_ARGS (``--workers 8``, ``--bind
0.0.0.0:8000``).
"""

import multiprocessing

wsgi_app = "api.asgi:create_asgi()"  # an ASGI app, despite the setting's name
worker_class = "api.worker.Worker"

# Only the proxy talks to gunicorn.
bind = ["127.0.0.1:8000"]

# Each worker has its own connection pool (SQLAlchemy's, 5 + 10 overflow), opened after the
# fork (no preload_app), and its own threads for the app (DOMINO_THREADS, 16): a request mostly
# waits on PostgreSQL. Streams hold no thread and no connection.
workers = min(2 * multiprocessing.cpu_count() + 1, 9)

# A worker whose event loop is silent this long is killed and replaced. A request's own time is
# bounded below this by the database timeouts (referee.store.db: connect 5 s, statement 10 s,
# lock 5 s, pool 10 s; DOMINO_DB_*), so a frozen database gives 503s, not hung workers.
timeout = 30
# On a restart or stop (SIGTERM, SIGHUP), requests under way get this long to finish; open
# streams end at once (the pages reconnect to another worker).
graceful_timeout = 30
# An idle keep-alive connection (the proxy's, reused across requests) is kept this long. Keep
# it above nginx's upstream keepalive_timeout, so that nginx closes first and never sends a
# request on a connection gunicorn is closing.
keepalive = 75
# Recycle workers now and then (any slow leak stays bounded); the jitter spreads the restarts.
max_requests = 10_000
max_requests_jitter = 1_000

# The app writes its own access log (logger "domino.access": method, path without the query
# string, status, ms, client address; never a token). gunicorn's would repeat each request and
# print query strings, so it stays off; its error log goes to stderr. For the client's address
# behind the proxy, set DOMINO_TRUSTED_PROXIES=1 (the app's ProxyFix).
accesslog = None
errorlog = "-"
loglevel = "info"
