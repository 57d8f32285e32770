"""referee.core.knocks: hindsight's findings said as knocks under rules that score during play,
one sentence object shared by many findings (as hindsight gives them) said once and alike."""

from __future__ import annotations

from referee.core.events import Violation
from referee.core.hindsight import Findings
from referee.core.knocks import in_their_words, knocked
from referee.core.rules import resolve_rules
from referee.core.said import said

ENDS = "%(player)s passed with the ends at %(left)s and %(right)s"


def test_a_shared_sentence_is_said_as_a_knock_in_every_finding_that_holds_it() -> None:
    shared = said(ENDS, player="Beto", left=6, right=3)
    other = said("%(fact)s, at event %(seq)s", fact=shared, seq=9)
    findings = Findings((Violation(5, "renege", 1, shared, found_at=9,
                                   evidence=({"seq": 9, "fact": other},)),),
                        (Violation(7, "renege", 1, shared, certainty="suspected",
                                   evidence=({"seq": 7, "fact": shared},
                                             {"seq": 8, "fact": "a plain fact"})),))
    said_so = in_their_words(resolve_rules("fives-and-threes", 2), findings)
    alone = [knocked(v.message) for v in findings.proven + findings.suspicions]
    messages = [v.message for v in said_so.proven + said_so.suspicions]
    assert messages == alone and str(messages[0]) == "Beto knocked with the ends at 6 and 3"
    assert messages[0] is messages[1]  # said once for both
    assert str(said_so.proven[0].evidence[0]["fact"]) == (
        "Beto knocked with the ends at 6 and 3, at event 9")
    assert said_so.suspicions[0].evidence[0]["fact"] is messages[0]
    assert said_so.suspicions[0].evidence[1]["fact"] == "a plain fact"
    assert in_their_words(resolve_rules("mano-a-mano", 2), findings) is findings
