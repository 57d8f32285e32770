"""The printable acta's page when there is no signed acta to print (docs/pages.md, "Errors"):
a finished match whose club has no signing key on the server, and a match still in play.
Each is a page saying so in words (409, its own heading and first sentence, in the reader's
language), never a bare "Bad request"; the twin answers the same status as problem+json."""

from __future__ import annotations

from api_helpers import Api


def finished(api: Api, club: str) -> int:
    """The club's fixture match, recorded to its end (its first event is in already)."""
    match_id = api.matches[club]
    for seq, event in enumerate(api.events[1:], start=1):
        api.service.recording.record_event(match_id, event, expected_seq=seq)
    assert api.service.reading.get_match(match_id)["status"] == "finished"
    return match_id


def page(api: Api, path: str, club: str, **headers: str) -> tuple[int, str]:
    answer = api.client.get(path, headers={**api.auth("viewer", club), "Accept": "text/html",
                                           **headers})
    return answer.status_code, answer.get_data(as_text=True)


def test_a_club_without_its_key_gets_a_page_saying_the_acta_is_not_signed_yet(api: Api) -> None:
    match_id = finished(api, "other")  # "other" has no signing key here (casino has)
    status, html = page(api, f"/clubs/other/matches/{match_id}/acta", "other")
    assert status == 409
    assert "<h1>Not signed yet</h1>" in html and "Bad request" not in html
    assert "The acta of this match, its signed score sheet, is not signed yet." in html
    assert "signing key is not available on the server" in html
    assert "may be another club" not in html  # not a token's problem
    status, html = page(api, f"/clubs/other/matches/{match_id}/acta", "other",
                        **{"Accept-Language": "es"})
    assert status == 409 and "<h1>Aún sin firmar</h1>" in html
    twin = api.client.get(f"/api/v1/pages/clubs/other/matches/{match_id}/acta",
                          headers=api.auth("viewer", "other"))
    assert twin.status_code == 409 and twin.json["type"].endswith("acta-pending")


def test_a_match_in_play_has_no_acta_yet(api: Api) -> None:
    match_id = api.matches["casino"]  # one deal in
    status, html = page(api, f"/clubs/casino/matches/{match_id}/acta", "casino")
    assert status == 409 and "<h1>Not finished yet</h1>" in html
    assert "comes once the match is finished" in html and "Bad request" not in html


def test_the_acta_prints_once_the_key_is_there(api: Api) -> None:
    match_id = finished(api, "casino")
    status, html = page(api, f"/clubs/casino/matches/{match_id}/acta", "casino")
    assert status == 200 and "Not signed yet" not in html
