"""The event store: every query the product makes lives here (SQLAlchemy Core).

Functions take an open :class:`sqlalchemy.Connection` inside a transaction (see
:func:`referee.store.db.writing` and :func:`referee.store.db.reading`), so that the service
decides what one transaction spans. Events are only ever inserted; a match's projection row is
rewritten in the same transaction as each append. The store builds on the rules core and on
nothing above it; the schema's DDL lives in ``migrations/``.
"""

from . import db
from .clubs import (
    club_row,
    club_token_row,
    insert_club,
    insert_token,
    issued_by,
    list_tokens,
    revoke_tokens,
    revoked_among,
    set_club_settings,
    token_row,
    touch_token,
)
from .codec import as_utc, canonical_json, dump_json, iso, load_json, utcnow
from .errors import AlreadyExists, MatchFull, StaleSeq, StoreError
from .events import (
    Appended,
    NewEvent,
    append,
    chain_link,
    check_room,
    event_by_seq,
    event_bytes,
    event_data,
    event_rows,
    event_rows_of,
    insert_events,
    last_recorded_at,
    recorded_span,
    secret_rows,
    stored_head,
)
from .matches import (
    Projection,
    disputed_match_ids,
    insert_match,
    last_seq,
    list_matches,
    match_by_client_key,
    match_ids,
    match_row,
    open_dispute_counts,
    ruled_match_rows,
    update_projection,
)
from .players import (
    aliases_of,
    club_keys,
    ensure_players,
    insert_player,
    insert_player_event,
    list_players,
    lock_merges,
    lock_seating,
    match_ids_of,
    merge_player,
    player_by_id,
    player_by_key,
    player_event_rows,
    player_row,
    players_by_key,
    register,
    rename_player,
    resolve,
    shared_match_ids,
    shared_tournaments,
)

__all__ = [
    "db", "club_row", "ensure_players", "insert_club", "insert_player", "insert_token",
    "list_players", "player_row", "token_row", "club_token_row", "list_tokens", "revoke_tokens",
    "issued_by", "revoked_among", "set_club_settings", "touch_token", "as_utc", "canonical_json", "dump_json", "iso",
    "load_json", "utcnow", "AlreadyExists", "MatchFull", "StaleSeq", "StoreError", "NewEvent",
    "append", "check_room", "event_bytes", "Appended", "chain_link", "stored_head", "recorded_span",
    "event_by_seq", "event_data", "event_rows", "event_rows_of", "insert_events", "last_recorded_at", "secret_rows",
    "Projection", "disputed_match_ids", "open_dispute_counts", "ruled_match_rows", "insert_match", "last_seq", "list_matches", "match_ids",
    "match_row", "match_by_client_key",
    "update_projection",
]
__all__ += [  # players (.players), besides those named above
    "aliases_of", "club_keys", "insert_player_event", "lock_merges", "lock_seating",
    "match_ids_of", "merge_player",
    "player_by_id", "player_by_key", "player_event_rows", "players_by_key", "register",
    "rename_player", "resolve", "shared_match_ids", "shared_tournaments",
]
