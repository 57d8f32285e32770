"""Every desk page authorises one way (docs/desk.md, "Signing in"), over HTTP: without a token
the sign-in page (401, ``WWW-Authenticate``), whether the club is public or not; with a
referee's token the page; a desk page never carries the public pages' share box ("anyone can
open it, no token needed"). Before, a public club's disputes desk answered 403 "without a token
only a public club can be read" and no sign-in, and every desk page of a public club offered
itself to be shared."""

from __future__ import annotations

from typing import Any

import pytest
from api_helpers import Api
from desk_disputes_site import passed_holding_a_five

EIGHT = ["Ana", "Beto", "Carla", "Dani", "Eva", "Fede", "Gabi", "Hugo"]
SHARED = "no token is needed"  # the share box's help: a public page, anyone may open it


def desk_pages(club: str) -> list[str]:
    """Every page of the desk (not its JSON endpoints)."""
    one = f"/clubs/{club}/desk/tournaments/noche"
    return [f"/clubs/{club}/desk", f"/clubs/{club}/desk/disputes",
            f"/clubs/{club}/desk/tournaments", one, one + "/rounds/1/pairings",
            one + "/rounds/1/cards"]


def club_night(api: Api, public: bool) -> None:
    """casino with a dispute open and a tournament paired; public or not."""
    api.service.clubs.set_public("casino", public)
    passed_holding_a_five(api)
    api.service.tournaments.create("casino", "noche", "Noche", rules={"preset": "parejas"},
                                   format="rotating", rounds=3, entrants=EIGHT)
    api.service.tournaments.pair("casino", "noche")


def text(answer: Any) -> str:
    return answer.get_data(as_text=True)


@pytest.mark.parametrize("public", [True, False], ids=["public", "private"])
def test_every_desk_page_signs_in_the_same_way(api: Api, public: bool) -> None:
    club_night(api, public)
    for path in desk_pages("casino"):
        answer = api.client.get(path, headers={"Accept": "text/html"})
        assert answer.status_code == 401, (path, answer.status_code)
        assert answer.headers["WWW-Authenticate"].startswith("Bearer")
        page = text(answer)
        assert 'name="token"' in page and 'data-action="sign-in"' in page, path
        assert "Noche" not in page and "Lucía" not in page and SHARED not in page, path
        assert answer.headers["Cache-Control"] == "private, no-store"

        signed = api.client.get(path, headers=api.auth("referee"))
        assert signed.status_code == 200, (path, signed.status_code)
        assert 'data-action="sign-in"' not in text(signed)
        assert SHARED not in text(signed) and 'id="share-url"' not in text(signed), path
        assert signed.headers["Cache-Control"] == "private, no-store"


def test_the_public_reader_is_never_a_desk_caller(api: Api) -> None:
    """The service's one decision (access.desk_caller): no token, or the public reader a
    public club's pages are read as, is the sign-in at every desk use case."""
    from referee.service import Unauthorized
    from referee.service.access import public_reader
    from referee.service.desk import Desk

    club_night(api, public=True)
    svc = api.service
    for who in (None, public_reader("casino")):
        for ask in (lambda: Desk(svc).home("casino", who=who),
                    lambda: svc.disputes.desk("casino", who=who),
                    lambda: svc.tournaments.desk("casino", who=who),
                    lambda: svc.tournaments.desk_tournament("casino", "noche", who=who)):
            with pytest.raises(Unauthorized):
                ask()


def test_the_club_pages_still_share_a_public_club(api: Api) -> None:
    """What the desk leaves out stays on the club's own public pages."""
    api.service.clubs.set_public("casino", True)
    assert SHARED in text(api.client.get("/clubs/casino"))


# The token a club is made with is labelled with the service's code for it, in English (it
# showed on a Spanish desk as "Dentro como first admin, secretario."): the desk says it in the
# page's language; a label someone typed stays as typed.
FIRST_TOKEN = {"en": ("Signed in as first admin, secretary.", "casino admin"),
               "es": ("Dentro como primer secretario, secretario.", "casino admin"),
               "it": ("Accesso come primo segretario, segretario.", "casino admin")}


@pytest.mark.parametrize("lang", sorted(FIRST_TOKEN))
def test_the_first_token_is_labelled_in_the_page_language(api: Api, lang: str) -> None:
    made = api.service.clubs.create_club("ceiba", "Peña La Ceiba", admin_token=True)
    api.service.tokens.create_token("ceiba", "admin", label="casino admin")  # typed by someone
    signed_in, typed = FIRST_TOKEN[lang]
    home = api.client.get("/clubs/ceiba/desk", headers={"Authorization": f"Bearer {made['admin_token']}",
                                                        "Accept-Language": lang})
    said = text(home)
    assert signed_in in said, said
    assert typed in said  # the tokens' list: the one typed, as typed
    if lang != "en":
        assert "first admin" not in said
