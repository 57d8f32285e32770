"""The event store: every query the product makes lives here (SQLAlchemy Core).

Functions take an open :class:`sqlalchemy.Connection` inside a transaction (see
:func:`referee.store.db.writing` and :func:`referee.store.db.reading`), so that the service
decides what one transaction spans. Events are only ever inserted; a match's projection row is
rewritten in the same transaction as each append. The store builds on the rules core and on
nothing above it; the schema's DDL lives in ``migrations/``.
"""

from . import db
from .clubs import (
    club_row, club_token_row, ensure_players, insert_club, insert_player, insert_token,
    list_players, list_tokens, player_row, revoke_token, token_row, touch_token,
)
from .codec import as_utc, canonical_json, dump_json, iso, load_json, utcnow
from .errors import AlreadyExists, MatchFull, StaleSeq, StoreError
from .events import (
    NewEvent, append, check_room, event_by_seq, event_bytes, event_data, event_rows,
    insert_events, last_recorded_at, secret_rows,
)
from .matches import (
    Projection, disputed_match_ids, insert_match, last_seq, list_matches, match_by_client_key,
    match_ids, match_row, update_projection,
)
from .standings import standings

__all__ = [
    "db", "club_row", "ensure_players", "insert_club", "insert_player", "insert_token",
    "list_players", "player_row", "token_row", "club_token_row", "list_tokens", "revoke_token",
    "touch_token", "as_utc", "canonical_json", "dump_json", "iso",
    "load_json", "utcnow", "AlreadyExists", "MatchFull", "StaleSeq", "StoreError", "NewEvent",
    "append", "check_room", "event_bytes",
    "event_by_seq", "event_data", "event_rows", "insert_events", "last_recorded_at", "secret_rows",
    "Projection", "disputed_match_ids", "insert_match", "last_seq", "list_matches", "match_ids",
    "match_row", "match_by_client_key",
    "update_projection", "standings",
]
