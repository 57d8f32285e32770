"""How a round stands: the outcomes the report names (``in_progress`` to ``awaiting_reveal``)."""

IN_PROGRESS, DOMINO, BLOCKED, ANNULLED, AWAITING = (
    "in_progress", "domino", "blocked", "annulled", "awaiting_reveal")
