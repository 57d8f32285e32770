"""The club desk (``/clubs/{club}/desk``, docs/desk.md): the web console of the people who run
a club night, and the one-time sign-in codes its QR codes carry (``/api/v1/signin-codes``).

Thin, as the pages are: the service decides what each role sees and may do
(referee.service.desk, and each action's own use case); the pages lay it out and their script
calls the REST API with the token as a bearer header.
"""

from __future__ import annotations

from . import signin, views  # the desk's API (signin.blp) and its pages (views.blp)

__all__ = ["signin", "views"]
