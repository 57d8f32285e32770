"""Who may do what, and who sees which hands: the one place these are decided.

A token belongs to one club and has one role. The roles are a ladder, each holding every right
of the ones below it::

    viewer ⊂ scorekeeper ⊂ referee ⊂ admin

- a ``viewer`` reads the club: players, matches, events, reports, logs, standings;
- a ``scorekeeper`` also creates matches and records play (deal, play, draw, pass, reveal, note),
  and may undo its own last entry with a void (which entry: :mod:`.undo`);
- a ``referee`` also rules (penalty, void, annul, forfeit, stands, amend), withdraws a match
  with no deal standing (``abandon``; so may the token that created it), imports whole logs
  (a log may carry rulings and disputed events) and sees every hand while a round is in play;
- an ``admin`` also adds players and issues tokens.

Two callers stand outside the ladder: the *server* admin token (set by whoever runs the server,
``DOMINO_ADMIN_TOKEN``), which may create clubs and nothing else, and the *operator*, whoever
runs ``domino`` on the database itself, who may do everything.

A caller that may not do a thing gets :class:`Forbidden`; the HTTP layer answers 403.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from ..core.vocab import LADDER, RULINGS, WITHDRAWALS, kind_of
from .errors import Forbidden, NotFound, Unauthorized

SERVER = "server"
# Anyone, token or none, reading a club an admin made public (clubs.public): see
# public_reader.
PUBLIC = "public"
OPERATOR_ROLE = "operator"


class Action(enum.Enum):
    READ = "viewer"
    RECORD = "scorekeeper"       # record play, create a match
    RULE = "referee"             # rulings, whole-log imports
    MANAGE = "admin"             # players, tokens

    @property
    def least_role(self) -> str:
        return self.value


@dataclass(frozen=True)
class Caller:
    """Who is asking: the token's club (None for the server token and the operator), its role,
    and the token's id and label (what the record says recorded an event)."""

    club: str | None
    role: str
    token_id: int | None = None
    label: str | None = None

    @property
    def recorded_by(self) -> str | None:
        """How the record names this caller: labels need not be unique, the id is."""
        if self.token_id is None:
            return self.label
        ident = f"token {self.token_id}"
        return f"{self.label} ({ident})" if self.label else ident

    @property
    def is_operator(self) -> bool:
        return self.role == OPERATOR_ROLE


OPERATOR = Caller(None, OPERATOR_ROLE)
SERVER_CALLER = Caller(None, SERVER, label="server admin")


def public_reader(club: str) -> Caller:
    """Anyone at all reading ``club``, which an admin made public: what a viewer of the club
    may read and nothing else, never a hand the table has not seen (no token recorded
    anything for it). ``Clubs.public_reader`` hands one out, having read the setting."""
    return Caller(club, PUBLIC, label="public")


def desk_caller(who: Caller | None) -> Caller:
    """Who uses a club desk's page (its home, the disputes desk, the tournament desk and its
    printed sheets): a token's holder only. Without a token it is the sign-in (Unauthorized),
    whether the club is public or not: a desk is its people's, never the public reader's.
    The one place this is decided; each desk use case asks it first, then what the role may."""
    if who is None or who.role == PUBLIC:
        raise Unauthorized("the club desk takes a token of the club: sign in")
    return who


def rank(role: str) -> int:
    return LADDER.index(role) if role in LADDER else -1


def may(who: Caller, club: str | None, action: Action) -> bool:
    if who.is_operator:
        return True
    if who.role == PUBLIC:
        return who.club == club and action is Action.READ
    return who.club is not None and who.club == club and rank(who.role) >= rank(action.least_role)


def require(who: Caller, club: str | None, action: Action) -> None:
    """Forbidden unless ``who`` may do ``action`` in ``club``."""
    if who.is_operator:
        return
    if who.role == PUBLIC:
        if who.club == club and action is Action.READ:
            return
        raise Forbidden("without a token, only a public club may be read, and nothing else done")
    if who.club is None:
        raise Forbidden("this token belongs to no club")
    if who.club != club:
        raise Forbidden("this token belongs to another club")
    if rank(who.role) < rank(action.least_role):
        takes = ", ".join(LADDER[rank(action.least_role):])  # the roles: codes, not words
        raise Forbidden("a %(role)s token may not do this; it takes: %(takes)s", role=who.role,
                        takes=takes)


def require_match(who: Caller, club: str | None, action: Action, match_id: Any) -> None:
    """:func:`require` for a match named by its id alone (``/api/v1/matches/{id}/...``): a
    caller who may not read the match's club is told there is no such match, in the very words
    an id that names none gets, so that no answer tells which ids exist in another club (or a
    private one); a reader of the club whose role may not do ``action`` is Forbidden, as
    anywhere in the club (docs/api.md, "404 or 403")."""
    if not may(who, club, Action.READ):
        raise NotFound("no match %(match)r", match=match_id)
    require(who, club, action)


def require_record(who: Caller, club: str | None, finished: bool) -> None:
    """Taking a match's record away (its ``domino-log/1`` and its signed acta) from its club's
    pages: a reader of the club may, but someone without a token (the public reader of a
    public club) only once the match is finished, when every hand recorded has been seen and
    the record is what its acta signs (docs/verify.md). The one place this is decided."""
    require(who, club, Action.READ)
    if who.role == PUBLIC and not finished:
        raise Forbidden("without a token, a match's log and acta are given once it is finished")


def require_server(who: Caller) -> None:
    """Creating a club: the server admin token (or the operator)."""
    if who.role not in (SERVER, OPERATOR_ROLE):
        raise Forbidden("creating a club takes the server admin token (DOMINO_ADMIN_TOKEN)")


def action_for_event(event: Any) -> Action:
    """A ruling is a referee's, and so, by its type, is an abandon (the token that created the
    match may also record one: :func:`may_abandon`). Everything else a scorekeeper records."""
    kind = event.get("type") if isinstance(event, dict) else None
    withheld = isinstance(kind, str) and (kind in RULINGS or kind in WITHDRAWALS)
    return Action.RULE if withheld else Action.RECORD


def is_withdrawal(event: Any) -> bool:
    return kind_of(event) in WITHDRAWALS


def may_abandon(who: Caller, club: str | None, created_by: int | None) -> bool:
    """Whether ``who`` may withdraw a match of ``club`` created by the token ``created_by``
    (docs/api.md, "The record: events"): a referee of the club (an admin, the operator), or
    the token that created it while it may still record in the club (a revoked token
    authenticates no more). Whether the match may be withdrawn now (no deal stands) is the rules
    core's."""
    if may(who, club, Action.RULE):
        return True
    return (who.token_id is not None and who.token_id == created_by
            and may(who, club, Action.RECORD))


def require_abandon(who: Caller, club: str | None, created_by: int | None,
                    match_id: Any) -> None:
    """:func:`may_abandon`, or: NotFound for a caller who may not read the club (as
    :func:`require_match`), Forbidden for anyone else, told who may."""
    if may_abandon(who, club, created_by):
        return
    if not may(who, club, Action.READ):
        raise NotFound("no match %(match)r", match=match_id)
    require(who, club, Action.RECORD)  # a viewer, the public: told as for any entry
    raise Forbidden("a match is abandoned by a referee of the club or by the token that "
                    "created it, and this token did not create match %(match)s", match=match_id)


def sees_hands(who: Caller, club: str | None) -> bool:
    """Whether ``who`` is shown tiles the table has not seen yet (a round in play's hands and
    drawn tiles): the club's referees (and admins, above them), and the operator."""
    return may(who, club, Action.RULE)
