"""The alembic revisions: the only place DDL lives. Run them with ``migrations.runner.upgrade``
(what ``domino db upgrade`` and ``domino serve`` do); ``env.py`` explains the rest."""
