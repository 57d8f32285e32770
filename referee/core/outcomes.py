"""How a round stands: the outcomes the report names (``in_progress`` to ``awaiting_reveal``,
and ``target``: the points family's round stopped where a side reached the target)."""

IN_PROGRESS, DOMINO, BLOCKED, ANNULLED, AWAITING, TARGET = (
    "in_progress", "domino", "blocked", "annulled", "awaiting_reveal", "target")
