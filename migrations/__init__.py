"""The alembic revisions: the only place DDL lives. Run them with ``referee.db.upgrade(engine)``
(what ``domino db upgrade`` and ``Service.upgrade`` do); ``env.py`` explains the rest."""
