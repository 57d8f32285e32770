"""Marshmallow schemas for every request and response body of the HTTP API.

Request schemas check only the shape HTTP needs (types, sizes); whether a rules object, a player
list or an event makes sense is the service's business, so that a malformed event is refused by the
referee with its violation code rather than by a generic validation error.
"""

from __future__ import annotations

import re
from typing import Any, Iterable

from marshmallow import INCLUDE, Schema, ValidationError, fields, validate, validates_schema

import words
from referee.core.rules import PRESETS
from referee.core.vocab import (
    DISPUTE_FILTERS,
    EVENT_FILTER_LENGTH,
    LANGUAGES,
    MATCH_STATUSES,
    MAX_DEFAULT_TARGET,
    MAX_INT,
    NAME_LENGTH,
    PLAYER_EVENT_KINDS,
    REASON_LENGTH,
    RECORDED,
    ROLES,
    RULINGS,
    SLUG_RULE,
    SLUG_TEXT,
    STANDING_GROUPS,
    TIE_BREAKERS,
    UNRANKED,
    whole_number,
)
from referee.core.vocab import (
    SLUG as SLUG_PATTERN,
)
from referee.service.clubs import SETTINGS

SLUG = validate.Regexp(SLUG_PATTERN, error=f"a slug is {SLUG_RULE}")
# A slug field says so in the document too: JSON Schema's pattern is unanchored and has no \Z.
SLUG_FIELD = {"pattern": f"^{SLUG_TEXT}$"}


class Documented(validate.Regexp):
    """A pattern the OpenAPI document states (apispec writes a Regexp's pattern) and the
    service checks, refusing with its own words (``invalid``, naming the character): here it
    lets every value through."""

    def __call__(self, value: Any) -> Any:
        return value


# Text people type (a name, a label, a reason): not blank, no control character, as the service
# checks it (referee/service/checks.py), so that the document admits only what the service takes.
# The service refuses lone surrogates too; the pattern cannot say so: regex engines that work on
# Unicode text (Rust's, which schemathesis validates with; Go's) refuse a surrogate range as no
# regex at all, and such a client took the whole pattern for invalid. JSON Schema's ``$`` is the
# end of the text (ECMA 262, no multiline flag).
_CONTROL = r"\x00-\x1f\x7f-\x9f"
TYPED = Documented(re.compile(f"^[^{_CONTROL}]*[^\\s{_CONTROL}][^{_CONTROL}]*$"))
NAME = [validate.Length(min=1, max=NAME_LENGTH), TYPED]


def rules_field(description: str, presets: Iterable[str] = PRESETS) -> fields.Raw:
    """A match's (or a tournament's) rules: a preset's name, or an object of parameters (which
    the core judges: RulesError, 422)."""
    return fields.Raw(required=True, metadata={
        "oneOf": [{"type": "string", "enum": list(presets)}, {"type": "object"}],
        "description": description})


def _raw(kind: str | list[str], description: str, required: bool = False) -> fields.Raw:
    # Documented with a type, loaded as is: the referee judges the value (bad_event), not webargs.
    # null too: in a log's event it is the field left out (docs/log.md: `"hands": null` is a
    # closed deal), and an import took it; an append was webargs' 422 "may not be empty".
    return fields.Raw(required=required, allow_none=True,
                      metadata={"type": kind, "description": description})


# ---------------------------------------------------------------- problems (RFC 9457)

class Spoken(fields.String):
    """A sentence of the rules core, in the request's language (``words.say``)."""

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> str | None:
        return super()._serialize(words.say(value), attr, obj, **kwargs)


class FactSchema(Schema):
    seq = fields.Integer(required=True)
    fact = Spoken(required=True)


class ViolationSchema(Schema):
    seq = fields.Integer(required=True)
    code = fields.String(required=True, metadata={"description": "a domino-report/1 violation code"})
    certainty = fields.String(validate=validate.OneOf(("proven", "possible")))
    seat = fields.Integer(allow_none=True, required=True)
    message = Spoken(required=True)
    found_at = fields.Integer(metadata={
        "description": "proven in hindsight: the event that completed the proof"})
    evidence = fields.List(fields.Nested(FactSchema), metadata={
        "description": "the facts the proof rests on (for a suspicion, for and against)"})


class RulingSchema(Schema):
    seq = fields.Integer(required=True)
    type = fields.String(required=True)
    reason = fields.String(allow_none=True)
    points = fields.Integer()


class DisputeSchema(Schema):
    seq = fields.Integer(required=True, metadata={"description": "the disputed event"})
    code = fields.String(required=True)
    certainty = fields.String(required=True)
    seat = fields.Integer(allow_none=True, required=True)
    found_at = fields.Integer(required=True)
    ruling = fields.Nested(RulingSchema, allow_none=True, required=True)
    match = fields.Integer(metadata={"description": "in a club's list: the match"})
    seat_name = fields.String(allow_none=True, metadata={"description": "the seat's player"})


class ProblemSchema(Schema):
    """application/problem+json (RFC 9457), with the members this API adds."""

    type = fields.String(required=True, metadata={"description": "a URI naming the kind of problem"})
    title = fields.String(required=True)
    status = fields.Integer(required=True)
    detail = fields.String()
    instance = fields.String()
    violation = fields.Nested(ViolationSchema, metadata={"description": "for an illegal event"})
    current_seq = fields.Integer(metadata={"description": "for 412: the match's last sequence number"})
    line = fields.Integer(allow_none=True, metadata={"description": "for an unreadable log: where"})
    errors = fields.Dict(metadata={"description": "for 422 on a malformed request: field errors"})
    suggestions = fields.Dict(
        keys=fields.String(), values=fields.List(fields.String()), metadata={
            "description": "for 422 on a new name close to players' (\"did you mean ...?\"): "
                           "each name as typed -> the close players' names, most similar first"})
    limit = fields.String(metadata={
        "description": "for 413 on a match past its limits: events, or bytes of events"})
    maximum = fields.Integer(metadata={"description": "for 413: that limit"})


# ---------------------------------------------------------------- clubs, players, tokens

class ClubCreateSchema(Schema):
    slug = fields.String(required=True, validate=SLUG, metadata=SLUG_FIELD)
    name = fields.String(required=True, validate=NAME)


class ClubSchema(Schema):
    slug = fields.String(required=True)
    name = fields.String(required=True)
    created_at = fields.String(required=True, metadata={"format": "date-time"})
    public = fields.Boolean(metadata={
        "description": "anyone may read its pages (/clubs/{club}) and their JSON twins "
                       "without a token (an admin's setting: PATCH /clubs/{club})"})
    language = fields.String(allow_none=True, metadata={
        "description": "the language its pages speak (en, es, it) to a reader who picked none "
                       "in the menu; null: the reader's Accept-Language (PATCH /clubs/{club})"})
    default_rules = fields.String(allow_none=True, metadata={
        "description": "the preset the phone's start form and the desk preselect for a new "
                       "match; null: none (the form's first). A match created without rules is "
                       "not affected (PATCH /clubs/{club})"})
    default_target = fields.Integer(allow_none=True, metadata={
        "description": "the target (points) the start form fills in; null: the preset's own "
                       "(PATCH /clubs/{club})"})
    timezone = fields.String(allow_none=True, metadata={
        "description": "the club's time zone, an IANA name (Europe/Madrid): every time its "
                       "pages, its desk and its actas show people is said in it; null: UTC "
                       "(PATCH /clubs/{club})"})


class ClubCreatedSchema(ClubSchema):
    admin_token = fields.String(required=True, metadata={
        "description": "the club's first admin token; shown once, only its hash is stored"})


NEW_PLAYERS = ("true when a new name that is close to a player's (\"did you mean ...?\", 422) "
               "is someone new: register it anyway")


class PlayerCreateSchema(Schema):
    name = fields.String(required=True, validate=NAME, metadata={
        "description": "normalised (NFC, spaces trimmed and collapsed) and matched "
                       "case-insensitively: \"ana\" is Ana (409)"})
    new = fields.Boolean(load_default=False, metadata={"description": NEW_PLAYERS})


class PlayerSchema(Schema):
    id = fields.Integer(required=True)
    name = fields.String(required=True)
    created_at = fields.String(metadata={"format": "date-time"})


class PlayerEventSchema(Schema):
    """A rename or a merge, as the audit keeps it."""

    id = fields.Integer(required=True)
    kind = fields.String(required=True, validate=validate.OneOf(PLAYER_EVENT_KINDS))
    player = fields.Integer(required=True, metadata={"description": "the player renamed, or merged"})
    old_name = fields.String(required=True)
    new_name = fields.String(required=True, metadata={
        "description": "rename: the new name; merge: the name of the player it went into, then"})
    into = fields.Integer(allow_none=True, required=True, metadata={"description": "merge: into whom"})
    moved = fields.List(fields.Integer(), allow_none=True, required=True, metadata={
        "description": "merge: the matches whose seats moved"})
    reason = fields.String(required=True)
    recorded_at = fields.String(required=True, metadata={"format": "date-time"})
    recorded_by = fields.String(allow_none=True, required=True)


class PlayerAliasSchema(Schema):
    id = fields.Integer(required=True)
    name = fields.String(required=True)


class PlayerDetailSchema(PlayerSchema):
    """A player with its history."""

    merged_into = fields.Integer(allow_none=True, required=True, metadata={
        "description": "set for a player merged into another (an alias now): that one's id"})
    aliases = fields.List(fields.Nested(PlayerAliasSchema), required=True, metadata={
        "description": "the players merged into this one: their names find it"})
    matches = fields.Integer(required=True, metadata={"description": "how many it sat in"})
    history = fields.List(fields.Nested(PlayerEventSchema), required=True, metadata={
        "description": "renames and merges, its own and its aliases', oldest first"})


REASON = [validate.Length(min=1, max=REASON_LENGTH), TYPED]


class PlayerRenameSchema(Schema):
    name = fields.String(required=True, validate=NAME)
    reason = fields.String(required=True, validate=REASON, metadata={"description": "for the audit"})


class PlayerMergeSchema(Schema):
    into = fields.Integer(required=True, validate=validate.Range(min=1, max=MAX_INT), metadata={
        "description": "the id of the player this one is merged into"})
    reason = fields.String(required=True, validate=REASON, metadata={"description": "for the audit"})


class NewPlayersArgsSchema(Schema):
    new = fields.Boolean(load_default=False, metadata={"description": NEW_PLAYERS})


class TokenCreateSchema(Schema):
    role = fields.String(required=True, validate=validate.OneOf(ROLES))
    label = fields.String(load_default=None, allow_none=True,
                          validate=[validate.Length(min=1, max=100), TYPED])


class TokenCreatedSchema(Schema):
    club = fields.String(required=True)
    role = fields.String(required=True)
    label = fields.String(allow_none=True)
    token = fields.String(required=True, metadata={"description": "shown once; only its hash is stored"})


class TokenSchema(Schema):
    """A token as its club's admins see it: never the token itself, nor its hash."""

    id = fields.Integer(required=True)
    label = fields.String(allow_none=True, required=True)
    role = fields.String(required=True)
    created_at = fields.String(required=True, metadata={"format": "date-time"})
    last_used_at = fields.String(allow_none=True, required=True, metadata={
        "format": "date-time", "description": "when it last authenticated (to the minute)"})
    revoked_at = fields.String(allow_none=True, required=True, metadata={
        "format": "date-time", "description": "when it was revoked; null while it works"})
    issued_by = fields.Integer(allow_none=True, required=True, metadata={
        "description": "the id of the token that issued it over the API; null for one issued "
                       "from the command line or by the server admin token"})


class TokenRevokedSchema(TokenSchema):
    revoked_with = fields.List(fields.Integer(), required=True, metadata={
        "description": "the tokens revoked along with it (?cascade=true): those it issued, "
                       "theirs, and so on"})


class RevokeArgsSchema(Schema):
    cascade = fields.Boolean(load_default=False, metadata={
        "description": "revoke the tokens it issued as well, and theirs, and so on"})


class StandingSchema(Schema):
    rank = fields.Integer(required=True, allow_none=True, metadata={
        "description": "rows tied on every tie-breaker share a rank; null for a player listed "
                       "apart (no counted match: ranked false)"})
    player = fields.String(metadata={"description": "?group=players"})
    partners = fields.List(fields.String(), metadata={
        "description": "?group=partnerships: the two partners, by name"})
    played = fields.Integer(required=True, metadata={"description": "finished matches"})
    won = fields.Integer(required=True)
    lost = fields.Integer(required=True, metadata={"description": "another side won (played - won - lost: draws)"})
    rounds_won = fields.Integer(required=True)
    points_for = fields.Integer(required=True)
    points_against = fields.Integer(required=True, metadata={"description": "the other sides' totals"})
    difference = fields.Integer(required=True, metadata={"description": "points_for - points_against"})
    win_rate = fields.Float(required=True, metadata={"description": "won / played (0 with none), 4 decimals"})
    rating = fields.Integer(required=True, metadata={
        "description": "the rating, as every page and the CLI show it: 1000 for a newcomer, "
                       "1000 + 40 x (mu - 3 sigma) of OpenSkill's Plackett-Luce over every "
                       "finished match of the club, rounded; a partnership's from its partners' "
                       "mean (docs/standings.md)"})
    rating_games = fields.Integer(required=True, metadata={"description": "matches the rating is made of"})
    flagged = fields.Integer(required=True, metadata={
        "description": "matches counted that have an open dispute (they count as they stand until ruled)"})
    provisional = fields.Boolean(required=True, metadata={
        "description": "the rating's sigma is still above 7 (a partnership: either partner's)"})
    rating_points = fields.Integer(required=True, metadata={
        "description": "the same number as rating (the name it had first, kept for its readers)"})
    ranked = fields.Boolean(required=True, metadata={
        "description": "false for a player with no counted match, listed apart after the "
                       "ranked (the club's unranked setting: apart; hidden leaves them out)"})


class StandingsArgsSchema(Schema):
    format = fields.String(load_default="json", validate=validate.OneOf(("json", "csv")))
    group = fields.String(load_default="players", validate=validate.OneOf(STANDING_GROUPS),
                          metadata={"description": "per player, or per fixed partnership"})
    date_from = fields.Date(data_key="from", metadata={"description": "matches played on or after this day"})
    date_to = fields.Date(data_key="to", metadata={"description": "matches played on or before this day"})
    event = fields.String(validate=validate.Length(min=1, max=EVENT_FILTER_LENGTH),
                          metadata={"description": "matches whose log header names this event"})


class StrictBoolean(fields.Boolean):
    """true or false, and nothing a looser reader would take for one (1, "yes", "on")."""

    def _deserialize(self, value, attr, data, **kwargs):  # type: ignore[no-untyped-def]
        if type(value) is not bool:
            raise self.make_error("invalid", input=value)
        return value


class QueryInteger(fields.Integer):
    """A whole number in a query string: ASCII digits alone (a minus before them), as the
    pages read their numbers (referee.core.vocab.whole_number): not "２", " 2", "+2", "1_0",
    which int() would take."""

    def _deserialize(self, value, attr, data, **kwargs):  # type: ignore[no-untyped-def]
        if isinstance(value, str) and whole_number(value, signed=True) is None:
            raise self.make_error("invalid", input=value)
        return super()._deserialize(value, attr, data, **kwargs)


class StrictInteger(fields.Integer):
    """A JSON integer, and nothing a looser reader would take for one (true, "5", 5.0)."""

    def _deserialize(self, value, attr, data, **kwargs):  # type: ignore[no-untyped-def]
        if type(value) is not int:
            raise self.make_error("invalid", input=value)
        return super()._deserialize(value, attr, data, **kwargs)


class ClubSettingsSchema(Schema):
    """The settings to change: those named (at least one), the others left as they are. They
    change together, in one transaction: one refused value (422) changes none."""

    name = fields.String(validate=NAME, metadata={
        "description": "the club's name as people write it (its slug, in URLs, stays)"})
    tie_breakers = fields.List(
        fields.String(validate=validate.OneOf(TIE_BREAKERS)), allow_none=True,
        validate=validate.Length(min=1, max=len(TIE_BREAKERS)),
        metadata={"uniqueItems": True, "description": "how standings break ties, in order (distinct names); null for the "
                                 "default: won, difference, points_for, head_to_head"})
    public = StrictBoolean(metadata={
        "description": "whether anyone may read the club's pages (/clubs/{club}) and their JSON "
                       "twins (/api/v1/pages/clubs/{club}...) without a token; false at first"})
    language = fields.String(allow_none=True, validate=validate.OneOf(LANGUAGES), metadata={
        "description": "the language of the club's pages for a reader who picked none in the "
                       "menu (en, es, it); null for none: the reader's Accept-Language"})
    unranked = fields.String(allow_none=True, validate=validate.OneOf(UNRANKED), metadata={
        "description": "where the standings put the players who played no counted match in the "
                       "period: apart (listed after the ranked, rank null, ranked false) or "
                       "hidden (not listed); null for the default, apart"})
    default_rules = fields.String(allow_none=True, validate=validate.OneOf(list(PRESETS)), metadata={
        "description": "the preset the phone's start form preselects for a new match; null for "
                       "none (the form's first). What a match created without rules means is "
                       "not changed by it"})
    default_target = StrictInteger(
        allow_none=True, validate=validate.Range(min=1, max=MAX_DEFAULT_TARGET), metadata={
            "description": "the target in points the start form fills in for a new match; null "
                           "for the preset's own"})
    timezone = fields.String(allow_none=True, validate=validate.Length(max=64), metadata={
        "description": "the club's time zone, an IANA name (Europe/Madrid, "
                       "America/Mexico_City...): the times people read are said in it; null "
                       "for UTC"})

    @validates_schema
    def _names_a_setting(self, data: dict, **kwargs: object) -> None:
        if not data:
            raise ValidationError("name a setting to change: " + ", ".join(SETTINGS))


class ClubSettingsResultSchema(ClubSchema):
    tie_breakers = fields.List(fields.String(), required=True)
    unranked = fields.String(required=True, metadata={"description": "apart or hidden"})


# ---------------------------------------------------------------- lists

class PageArgsSchema(Schema):
    limit = QueryInteger(load_default=50, validate=validate.Range(min=1, max=500))
    offset = QueryInteger(load_default=0, validate=validate.Range(min=0, max=MAX_INT))


class MatchListArgsSchema(PageArgsSchema):
    status = fields.String(validate=validate.OneOf(MATCH_STATUSES))
    player = fields.String(validate=NAME, metadata={"description": "matches this player sat in"})
    date = fields.Date(metadata={"description": "matches of this day (same as date_from = date_to)"})
    date_from = fields.Date(metadata={"description": "matches on or after this day"})
    date_to = fields.Date(metadata={"description": "matches on or before this day"})


class EventListArgsSchema(Schema):
    after = QueryInteger(load_default=0, validate=validate.Range(min=0, max=MAX_INT),
                           metadata={"description": "only events with a greater sequence number"})
    limit = QueryInteger(load_default=1000, validate=validate.Range(min=1, max=10000))


# ---------------------------------------------------------------- matches

class MatchCreateSchema(Schema):
    rules = rules_field("a preset name, or {\"preset\": ..., parameter: value, ...} overriding some")
    players = fields.List(fields.String(validate=NAME), required=True,
                          validate=validate.Length(min=1, max=64))
    table = fields.String(validate=validate.Length(max=200))
    date = fields.String(validate=validate.Length(max=40), metadata={"description": "ISO 8601"})
    event = fields.String(validate=validate.Length(max=200))
    match = fields.String(validate=validate.Length(max=200), metadata={"description": "a name"})
    new = fields.Boolean(load_default=False, metadata={"description": NEW_PLAYERS})


class MatchSummarySchema(Schema):
    """A match as listings show it (the store's projection)."""

    id = fields.Integer(required=True)
    club = fields.String(required=True)
    rules = fields.Dict(required=True, metadata={"description": "every parameter, resolved"})
    players = fields.List(fields.String(), required=True)
    status = fields.String(required=True)
    round = fields.Integer(allow_none=True)
    totals = fields.List(fields.Integer())
    winner = fields.Integer(allow_none=True)
    last_seq = fields.Integer(required=True, metadata={"description": "the ETag of the match"})
    violations = fields.Integer(required=True, metadata={"description": "open disputes"})
    match = fields.String(allow_none=True)
    table = fields.String(allow_none=True)
    date = fields.String(allow_none=True)
    event = fields.String(allow_none=True)
    created_at = fields.String(required=True, metadata={"format": "date-time"})
    updated_at = fields.String(required=True, metadata={"format": "date-time"})


class PlaySchema(Schema):
    tile = fields.String(required=True)
    end = fields.Integer(allow_none=True, required=True,
                         metadata={"description": "the open end it joins; null on the lead"})


class LeadSchema(Schema):
    seat = fields.Integer(required=True)
    tile = fields.String(required=True)


class LegalSchema(Schema):
    seat = fields.Integer(allow_none=True, required=True)
    plays = fields.List(fields.Nested(PlaySchema), allow_none=True, required=True, metadata={
        "description": "null when the seat's hand is not shown to this token"})
    draw = fields.Boolean(required=True)
    pass_ = fields.Boolean(required=True, data_key="pass", attribute="pass")


class OpenEndSchema(Schema):
    """An open end of the layout."""

    side = fields.String(required=True, validate=validate.OneOf(["left", "right", "up", "down"]))
    pip = fields.Integer(required=True, metadata={"description": "the pip a tile must match"})
    kind = fields.String(required=True, validate=validate.OneOf(["plain", "double", "empty_arm"]),
                         metadata={"description": "double: a double lies crosswise there; "
                                                  "empty_arm: a spinner's arm with no tile yet"})


class ArmsSchema(Schema):
    """The tiles on the spinner's two arms."""

    up = fields.List(fields.String(), required=True)
    down = fields.List(fields.String(), required=True)


class PositionSchema(Schema):
    """The table as it stands after event ``seq``, as this token may see it."""

    seq = fields.Integer(required=True, metadata={"description": "the event this view reflects"})
    round = fields.Integer(allow_none=True, required=True)
    phase = fields.String(required=True, metadata={
        "description": "before_first_deal, in_progress, or the last round's outcome"})
    line = fields.List(fields.String(), required=True,
                       metadata={"description": "tiles left to right, each left pip first"})
    ends = fields.List(fields.Integer(), allow_none=True, required=True)
    turn = fields.Integer(allow_none=True, required=True)
    may_lead = fields.List(fields.Integer(), required=True)
    hands = fields.List(fields.List(fields.String(), allow_none=True), required=True, metadata={
        "description": "each seat's tiles where known and shown to this token, else null"})
    counts = fields.List(fields.Integer(), required=True)
    boneyard = fields.Integer(required=True)
    owes_reveal = fields.List(fields.Integer(), required=True, metadata={
        "description": "seats the ended round still waits on to reveal their hands"})
    legal = fields.Nested(LegalSchema, required=True)
    totals = fields.List(fields.Integer(), required=True)
    finished = fields.Boolean(required=True)
    winner = fields.Integer(allow_none=True, required=True)
    hands_hidden = fields.Boolean(required=True, metadata={
        "description": "true when hands the table has not seen are withheld from this token"})
    open_ends = fields.List(fields.Nested(OpenEndSchema), required=True, metadata={
        "description": "each open end, left, right, then the spinner's up and down arms once "
                       "open (empty before the lead)"})
    count = fields.Integer(allow_none=True, required=True, metadata={
        "description": "with scoring: ends, the open ends' count; else null"})
    spinner = fields.String(allow_none=True, required=True, metadata={
        "description": "the spinner's tile (on the line), where the rules have one and it lies"})
    arms = fields.Nested(ArmsSchema, allow_none=True, required=True, metadata={
        "description": "once the spinner's arms open: the tiles on each, from the spinner "
                       "outward, the pip toward the spinner first; else null"})


class RoundResultSchema(Schema):
    """A round dealt, as the report has it, with the names a phone says to the table."""

    round = fields.Integer(required=True)
    opener = fields.Integer(allow_none=True, required=True, metadata={"description": "the seat that led"})
    outcome = fields.String(required=True, metadata={
        "description": "in_progress, awaiting_reveal, domino, blocked, annulled or target"})
    winner = fields.Integer(allow_none=True, required=True, metadata={"description": "the side"})
    winner_name = fields.String(allow_none=True, required=True)
    points = fields.Integer(required=True, metadata={"description": "what the round scored"})
    pips = fields.List(fields.Integer(), allow_none=True, required=True, metadata={
        "description": "each seat's pips left, once revealed"})
    blocked_by = fields.Integer(allow_none=True, required=True, metadata={
        "description": "a blocked round: the seat whose play blocked it"})
    blocked_by_name = fields.String(allow_none=True, required=True)
    scores = fields.List(fields.Integer(), metadata={
        "description": "the points each side scored in the round (penalties aside)"})
    scored = fields.List(fields.Dict(), metadata={
        "description": "with scoring: ends, each play whose count scored or bust: seq, seat, "
                       "count, points, bust?; on a screen, total: the side's total after it "
                       "(a bust: the total it would have made), unless a penalty leaves it "
                       "unknown"})


class ScreenWordsSchema(Schema):
    """What a screen says in words, in the request's language (Accept-Language): the phone's
    sentences, made where every other sentence is (words/events.py)."""

    phase = fields.String(required=True, metadata={
        "description": "the line above the table: the round and its state, or who won"})
    rounds = fields.List(fields.String(allow_none=True), required=True, metadata={
        "description": "each round's result in one sentence, as rounds lists them (null: a "
                       "round in play)"})
    undo = fields.String(allow_none=True, required=True, metadata={
        "description": "the entry the undo takes back (event undo), in words, or null"})
    disputes = fields.List(fields.String(), required=True, metadata={
        "description": "each open dispute's foul in words, as disputes lists them"})
    undealt = fields.String(allow_none=True, required=True, metadata={
        "description": "what the tiles not dealt are called (\"Sleeping tiles\" in Fives and "
                       "Threes, else \"Boneyard\"), where the screen shows them (shows_undealt); "
                       "else null"})
    scored = fields.List(fields.List(fields.String(), allow_none=True), metadata={
        "description": "with scoring: ends, each round's scoring plays in words (\"15 — 8 "
                       "points\", \"bust: 62 is past 61\"), as its scored lists them (null: a round "
                       "that lists none); absent for rules that score no plays"})


class PlaceSchema(Schema):
    """A tile the seat on turn may place on an open end."""

    side = fields.String(required=True, validate=validate.OneOf(["left", "right", "up", "down"]))
    tile = fields.String(required=True)
    end = fields.String(allow_none=True, required=True, metadata={
        "description": "what the play names to go there (the side), or null: it goes there "
                       "without one"})
    count = fields.Integer(required=True, metadata={
        "description": "the open ends' count after the play"})


class MatchSchema(PositionSchema, MatchSummarySchema):
    """The match now: everything a scorekeeper's screen shows."""

    said = fields.Nested(ScreenWordsSchema, required=True, metadata={
        "description": "what the screen says in words, in the request's language"})

    disputes = fields.List(fields.Nested(ViolationSchema), required=True, metadata={
        "description": "the open disputes: events recorded as disputed, fouls proven in "
                       "hindsight, until a referee rules"})
    turn_name = fields.String(allow_none=True, metadata={"description": "who is on turn"})
    may_lead_names = fields.List(fields.String(), metadata={"description": "who may open"})
    sides = fields.List(fields.String(), metadata={"description": "each side's name"})
    winner_name = fields.String(allow_none=True, metadata={"description": "the winning side"})
    offers_draw = fields.Boolean(metadata={
        "description": "true when a phone offers the seat on turn a draw, legal or not: the "
                       "rules have a boneyard (draw is not none) and it still holds a tile"})
    shows_undealt = fields.Boolean(metadata={
        "description": "true when the table shows its undealt tiles (the boneyard, or Fives "
                       "and Threes' sleeping tiles) at all: the rules draw, or tiles were left "
                       "undealt; false in parejas and Puerto Rico (four hands of seven)"})
    can_abandon = fields.Boolean(metadata={
        "description": "true when this token may withdraw the match now (an abandon: no deal "
                       "stands, and it is a referee's token or the one that created the match)"})
    chain_head = fields.String(allow_none=True, metadata={
        "description": "a finished match's chain head (domino-chain/1, hex: docs/verify.md); "
                       "null while it is in play"})
    unseen = fields.List(fields.String(), metadata={
        "description": "while a round is in play: the tiles not on the line and in no hand "
                       "shown to this token (what a draw in sight may bring)"})
    unseen_plays = fields.List(fields.Nested(PlaySchema), metadata={
        "description": "for the seat on turn whose hand is not shown whole: the tiles not seen "
                       "anywhere that it may play, each with the end it joins"})
    leads = fields.List(fields.Nested(LeadSchema), metadata={
        "description": "before a lead several seats may make: each seat that may lead with "
                       "each tile it may lead"})
    undo = fields.Integer(allow_none=True, metadata={
        "description": "the event this token may take back with a void (its own last entry, "
                       "with nothing after it but its own undos), or null"})
    rounds = fields.List(fields.Nested(RoundResultSchema), metadata={
        "description": "each round dealt, in order: its outcome, winning side and points"})
    started_at = fields.String(allow_none=True, metadata={
        "format": "date-time", "description": "when the match's first event was recorded (the "
                                              "clock of a time limit runs from it); null before"})
    time_called = fields.Integer(allow_none=True, metadata={
        "description": "the event that called time (rules with a time_limit), or null"})
    places = fields.List(fields.Nested(PlaceSchema), metadata={
        "description": "with scoring: ends, once the lead lies: for each open end, each tile "
                       "the seat on turn may place there (its tiles where shown, else every "
                       "tile not seen)"})


# ---------------------------------------------------------------- events

class EventSchema(Schema):
    """One line of a domino-log/1 (after the header). Unknown members are kept as recorded."""

    class Meta:
        unknown = INCLUDE

    type = _raw("string", f"{', '.join(RECORDED)} (scorekeeper or referee); "
                          f"the rulings {', '.join(RULINGS)} (referee "
                          "only; a scorekeeper may void its own last entry: an undo); "
                          "abandon (a match with no deal standing; a referee, or the token "
                          "that created the match)")
    seat = _raw("integer", "play, draw, pass, reveal")
    tile = _raw("string", "play, draw: a tile like \"6-5\"")
    end = _raw(["integer", "string"], "play: the pip of the open end it joins, or left/right")
    hands = _raw(["array", "null"], "deal: one list of tiles (or null when unseen) per seat")
    tiles = _raw("array", "reveal: the tiles still held")
    pips = _raw("integer", "reveal: only the pip count")
    side = _raw("integer", "penalty, forfeit")
    points = _raw("integer", "penalty")
    reason = _raw("string", f"{', '.join(RULINGS)}, abandon; optional on time")
    target = _raw("integer", "void: the sequence number struck; stands, amend: the dispute "
                             "ruled on; penalty, annul, forfeit: the dispute they rule on, if any")
    event = _raw("object", "amend: the event that line is to be read as")
    text = _raw("string", "note")
    seq = _raw("integer", "optional; must be the event's sequence number")
    disputed = _raw("boolean", "store the event even if the referee refuses it, as an open dispute")


class RecordedEventSchema(Schema):
    seq = fields.Integer(required=True)
    event = fields.Dict(required=True)
    recorded_at = fields.String(allow_none=True, metadata={"format": "date-time"})
    recorded_by = fields.String(allow_none=True)
    token_id = fields.Integer(allow_none=True, metadata={
        "description": "referees only: the token that recorded it (null: the CLI)"})


class AppendedSchema(Schema):
    seq = fields.Integer(required=True)
    event = fields.Dict(required=True)
    violation = fields.Nested(ViolationSchema, allow_none=True, required=True, metadata={
        "description": "set when a disputed event was stored despite a violation"})
    position = fields.Nested(PositionSchema, required=True)
    screen = fields.Nested(MatchSchema, required=True, metadata={
        "description": "the match screen after the event, as GET /matches/{id} answers it to "
                       "this token at that seq (a retry answered after later events: the "
                       "table as it stood right after its own event)"})


class IdempotencyHeadersSchema(Schema):
    idempotency_key = fields.String(data_key="Idempotency-Key",
                                    validate=validate.Length(min=1, max=200),
                                    metadata={"description": "makes a retry safe"})


class AppendHeadersSchema(IdempotencyHeadersSchema):
    if_match = fields.String(data_key="If-Match", metadata={
        "description": "required: '\"N\"', N the last sequence number seen (the ETag)"})


# ---------------------------------------------------------------- report

class ScoredSchema(Schema):
    """A play whose count scored (or bust), in the points family."""

    seq = fields.Integer(required=True)
    seat = fields.Integer(required=True)
    count = fields.Integer(required=True, metadata={"description": "the open ends' sum"})
    points = fields.Integer(required=True, metadata={"description": "what the count is worth"})
    bust = fields.Boolean(metadata={"description": "present (true) when not scored: past the target"})


class RoundSchema(Schema):
    round = fields.Integer(required=True)
    opener = fields.Integer(allow_none=True)
    outcome = fields.String(required=True)
    winner = fields.Integer(allow_none=True)
    points = fields.Integer()
    pips = fields.List(fields.Integer(allow_none=True), allow_none=True)
    blocked_by = fields.Integer(allow_none=True)
    scores = fields.List(fields.Integer(), metadata={
        "description": "the points each side scored in the round (penalties aside)"})
    scored = fields.List(fields.Nested(ScoredSchema), metadata={
        "description": "with scoring: ends, each play whose count scored or bust, in order"})


class ReportSchema(Schema):
    """domino-report/1."""

    format = fields.String(required=True)
    rules = fields.Dict(required=True)
    valid = fields.Boolean(required=True)
    violations = fields.List(fields.Nested(ViolationSchema), required=True)
    rounds = fields.List(fields.Nested(RoundSchema), required=True)
    totals = fields.List(fields.Integer(), required=True)
    finished = fields.Boolean(required=True)
    winner = fields.Integer(allow_none=True, required=True)
    suspicions = fields.List(fields.Nested(ViolationSchema), required=True, metadata={
        "description": "what the record allows but does not prove (certainty possible)"})
    disputes = fields.List(fields.Nested(DisputeSchema), required=True, metadata={
        "description": "every violation of the record, with its ruling"})


# Bodies that are not JSON, documented by hand (flask-smorest documents schemas only).
LOG_MEDIA_TYPE = "application/x-ndjson"
LOG_BODY = {"type": "string", "description": "a domino-log/1: UTF-8 JSON Lines, header first"}


# ---------------------------------------------------------------- disputes

DISPUTE_STATUS = validate.OneOf(DISPUTE_FILTERS)


class DisputeStatusArgsSchema(Schema):
    status = fields.String(load_default="all", validate=DISPUTE_STATUS)


class DisputeListArgsSchema(PageArgsSchema):
    status = fields.String(load_default="open", validate=DISPUTE_STATUS)


class SheetArgsSchema(Schema):
    format = fields.String(load_default="json", validate=validate.OneOf(("json", "html")))


class DryRunArgsSchema(Schema):
    dry_run = fields.Boolean(load_default=False, metadata={
        "description": "answer what it would do, and store nothing"})


class SheetSchema(Schema):
    match = fields.Nested(MatchSummarySchema, required=True)
    dispute = fields.Nested(ViolationSchema, required=True)
    event = fields.Raw(required=True, metadata={"description": "the disputed event as recorded"})
    moment = fields.Dict(required=True, metadata={
        "description": "before the event: seq, round, line, ends, open_ends (each side and "
                       "pip, the spinner's arms too), count (null unless the open ends are "
                       "counted), turn, turn_name"})
    evidence = fields.List(fields.Dict(), required=True, metadata={
        "description": "each fact with its event as recorded: {seq, fact, event}"})
    ruling = fields.Nested(RulingSchema, allow_none=True, required=True)
    ruling_event = fields.Raw(allow_none=True, metadata={"description": "the ruling as recorded"})
    ruling_events = fields.List(fields.Dict(), metadata={
        "description": "every ruling event naming the dispute, {seq, event} (a standard "
                       "penalty is one per opposing side)"})
    club = fields.Dict(metadata={"description": "the match's club: {slug, name}"})
    sides = fields.List(fields.String(), metadata={"description": "each side's name"})
    score = fields.Dict(required=True, metadata={
        "description": "totals before the ruling (now, while open) and after it"})


class PreviewSchema(Schema):
    stored = fields.Boolean(required=True, metadata={"description": "always false"})
    events = fields.List(fields.Dict(), required=True, metadata={
        "description": "each event previewed, with its seq and violation (null when legal)"})
    report = fields.Nested(ReportSchema, required=True, metadata={
        "description": "the report as it would be"})
    changes = fields.Dict(required=True, metadata={
        "description": "rounds, totals, winner, finished (before and after) and the violations "
                       "that would appear or vanish"})


class StandardPenaltySchema(Schema):
    events = fields.List(fields.Dict(), required=True, metadata={
        "description": "the penalties recorded: {seq, event}"})
