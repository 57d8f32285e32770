"""The gunicorn worker class of production (``deploy/gunicorn.conf.py``): uvicorn's, running
:mod:`api.server`'s protocol and settings, so that gunicorn's workers and ``domino serve``
answer at the edge alike. gunicorn's own request parser and limits are not used by it: the
edge's are (:mod:`api.edge`)."""

from __future__ import annotations

from typing import Any

from uvicorn_worker import UvicornWorker

from .server import more_files, options


class Worker(UvicornWorker):
    CONFIG_KWARGS: dict[str, Any] = options()

    def init_process(self) -> None:
        more_files()
        super().init_process()
