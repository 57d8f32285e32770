"""The league's use cases (``svc.leagues``; docs/leagues.md is the secretary's account): the
season set up (:mod:`.setup`), its fixtures generated and changed (:mod:`.fixtures`), legs
recorded as matches (:mod:`.legs`), results confirmed and signed (:mod:`.sheets`), cups (:mod:`.cups`), and what it
shows (:mod:`.reads`; its pages, :mod:`.pages`). Every figure is the league engine's (``referee.service.leagues``),
computed from the store (``referee.store.leagues``) and the legs' matches."""

from __future__ import annotations

from .cups import SeasonCups
from .fixtures import SeasonFixtures
from .legs import SeasonLegs
from .pages import SeasonPages
from .reads import SeasonReads
from .setup import SeasonSetup
from .sheets import SeasonSheets


class Leagues(SeasonSetup, SeasonFixtures, SeasonLegs, SeasonSheets, SeasonReads,
              SeasonPages, SeasonCups):
    """Every league use case, over one service's units of work."""


__all__ = ["Leagues"]
