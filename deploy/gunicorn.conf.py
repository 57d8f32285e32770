"""gunicorn settings for the domino-referee API in production (docs/deploy.md says why each).

    DOMINO_DATABASE_URL=postgresql+psycopg://domino@db/domino \\
        gunicorn -c deploy/gunicorn.conf.py

Run it behind a proxy that buffers whole requests (nginx, as docs/deploy.md shows): a worker
thread reads the request itself, so a client sending its body slowly would hold a thread for as
long as it likes. Anything here can be overridden on the command line or in GUNICORN_CMD_ARGS
(``--workers 8``, ``--bind 0.0.0.0:8000``).
"""

import multiprocessing

wsgi_app = "api:create_app()"

# Only the proxy talks to gunicorn.
bind = ["127.0.0.1:8000"]

# Threads, not one request a process: a request mostly waits on PostgreSQL. Each worker has its
# own connection pool (SQLAlchemy's, 5 + 10 overflow), opened after the fork (no preload_app).
# A live scoreboard's stream (server-sent events) holds a thread for as long as it is open; a
# worker serves at most DOMINO_SCOREBOARD_STREAMS of them (4), so 16 threads leave 12 for
# requests, which wait on the pool's 15 connections at most (a stream holds none).
worker_class = "gthread"
workers = min(2 * multiprocessing.cpu_count() + 1, 9)
threads = 16

# A worker whose main loop is silent this long is killed and replaced. A request's own time is
# bounded below this by the database timeouts (referee.store.db: connect 5 s, statement 10 s,
# lock 5 s, pool 10 s; DOMINO_DB_*), so a frozen database gives 503s, not hung workers.
timeout = 30
# On a restart or stop (SIGTERM, SIGHUP), requests under way get this long to finish.
graceful_timeout = 30
# An idle keep-alive connection (the proxy's, reused across requests) is kept this long. Keep
# it above nginx's upstream keepalive_timeout, so that nginx closes first and never sends a
# request on a connection gunicorn is closing.
keepalive = 75
# Recycle workers now and then (any slow leak stays bounded); the jitter spreads the restarts.
max_requests = 10_000
max_requests_jitter = 1_000

# Request head limits (gunicorn answers 400 / 414 / 431 beyond them, before the app): a path
# with its query, a header count, a header's size. A bearer token is 43 characters; the longest
# legitimate line is a listing's query. Bodies are the app's (MAX_CONTENT_LENGTH: 413).
limit_request_line = 4094
limit_request_fields = 50
limit_request_field_size = 8190

# The proxy sets X-Forwarded-*; only a proxy on this host is believed about the scheme. For the
# client's address in the access log, set DOMINO_TRUSTED_PROXIES=1 (the app's ProxyFix).
forwarded_allow_ips = "127.0.0.1"

# The app writes its own access log (logger "domino.access": method, path without the query
# string, status, ms, client address; never a token). gunicorn's would repeat each request and
# print query strings, so it stays off; its error log goes to stderr.
accesslog = None
errorlog = "-"
loglevel = "info"
