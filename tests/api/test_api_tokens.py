"""A club's tokens over HTTP: listed (with the token that issued each) and revoked by its
admins, with what they issued (cascade), and a revoked token refused (401) at once by every
worker."""

from __future__ import annotations

import pytest
from api_helpers import CLUBS, ROLES, Api, assert_problem, make_api
from flask import Flask

from api import create_app
from api.context import EXTENSION

FIELDS = {"id", "label", "role", "created_at", "last_used_at", "revoked_at", "issued_by"}


def token_id(api: Api, role: str, club: str = "casino") -> int:
    return api.service.tokens.authenticate(api.tokens[club, role]).token_id


def tokens_path(club: str = "casino", token: int | None = None) -> str:
    return f"/api/v1/clubs/{club}/tokens" + ("" if token is None else f"/{token}")


def test_list_tokens(api: Api) -> None:
    response = api.client.get(tokens_path(), headers=api.auth("admin"))
    assert response.status_code == 200, response.json
    listed = response.json
    assert [(t["role"], t["label"]) for t in listed] == [(r, f"casino {r}") for r in ROLES]
    assert all(set(t) == FIELDS for t in listed)
    assert not any(secret in response.get_data(as_text=True) for secret in api.tokens.values())
    assert response.headers["X-Total-Count"] == "4"
    admin = listed[0]
    assert admin["last_used_at"] is not None and admin["revoked_at"] is None  # this request
    page = api.client.get(tokens_path() + "?limit=2&offset=1", headers=api.auth("admin"))
    assert [t["role"] for t in page.json] == ["referee", "scorekeeper"]
    assert page.headers["X-Total-Count"] == "4" and 'rel="next"' in page.headers["Link"]
    assert_problem(api.client.get(tokens_path() + "?limit=0", headers=api.auth("admin")), 422)


def test_a_created_token_is_listed(api: Api) -> None:
    created = api.client.post(tokens_path(), json={"role": "viewer", "label": "lobby screen"},
                              headers=api.auth("admin"))
    assert created.status_code == 201 and created.json["token"].startswith("dr_")
    listed = api.client.get(tokens_path(), headers=api.auth("admin")).json
    assert listed[-1]["label"] == "lobby screen" and listed[-1]["role"] == "viewer"
    assert listed[-1]["last_used_at"] is None
    form = api.client.post(tokens_path(), data={"role": "viewer"}, headers=api.auth("admin"))
    assert_problem(form, 415)
    assert len(api.client.get(tokens_path(), headers=api.auth("admin")).json) == len(listed)


@pytest.mark.parametrize("method", ["GET", "DELETE"])
@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("club", CLUBS)
def test_only_the_clubs_admins(api: Api, method: str, role: str, club: str) -> None:
    path = tokens_path("casino", token_id(api, "viewer") if method == "DELETE" else None)
    response = api.client.open(path, method=method, headers=api.auth(role, club))
    if club == "casino" and role == "admin":
        assert response.status_code == 200, response.json
    else:
        assert_problem(response, 403, "forbidden")
    assert_problem(api.client.open(path, method=method), 401, "unauthorized")


def test_revoke_token(api: Api) -> None:
    victim = token_id(api, "scorekeeper")
    response = api.client.delete(tokens_path(token=victim), headers=api.auth("admin"))
    assert response.status_code == 200, response.json
    record = response.json
    assert set(record) == FIELDS | {"revoked_with"} and record["id"] == victim
    assert record["role"] == "scorekeeper" and record["revoked_with"] == []
    assert record["revoked_at"] is not None
    again = api.client.delete(tokens_path(token=victim), headers=api.auth("admin"))
    assert again.status_code == 200 and again.json == record  # revoking twice changes nothing
    listed = {t["id"]: t for t in api.client.get(tokens_path(), headers=api.auth("admin")).json}
    assert listed[victim]["revoked_at"] == record["revoked_at"]
    assert sum(t["revoked_at"] is not None for t in listed.values()) == 1


def test_a_revoked_token_is_refused_at_once_by_this_worker(api: Api) -> None:
    match = f"/api/v1/matches/{api.matches['casino']}"
    assert api.client.get(match, headers=api.auth("viewer")).status_code == 200
    api.client.delete(tokens_path(token=token_id(api, "viewer")), headers=api.auth("admin"))
    assert_problem(api.client.get(match, headers=api.auth("viewer")), 401, "unauthorized")
    assert api.client.get(match, headers=api.auth("referee")).status_code == 200  # the others


def test_an_admin_may_revoke_its_own_token(api: Api) -> None:
    response = api.client.delete(tokens_path(token=token_id(api, "admin")), headers=api.auth("admin"))
    assert response.status_code == 200
    assert_problem(api.client.get(tokens_path(), headers=api.auth("admin")), 401)


def test_every_other_worker_refuses_it_at_once(database_url: str) -> None:
    """Workers keep nothing about a token: one that has just used it refuses it next."""
    first = make_api(database_url)
    workers = [worker(first) for _ in range(3)]
    try:
        clients = [app.test_client() for app in workers]
        match = f"/api/v1/matches/{first.matches['casino']}"
        viewer = first.auth("viewer")
        for client in clients:
            assert client.get(match, headers=viewer).status_code == 200
        revoked = first.client.delete(tokens_path(token=token_id(first, "viewer")),
                                      headers=first.auth("admin"))
        assert revoked.status_code == 200
        for client in clients:
            assert_problem(client.get(match, headers=viewer), 401)
    finally:
        for app in workers:
            app.extensions[EXTENSION].close()
        first.service.close()


def worker(api: Api, **config: object) -> Flask:
    """Another worker (its own app) on the same database."""
    return create_app({"DATABASE_URL": api.app.config["DATABASE_URL"], **config})


def test_a_token_issued_by_a_token_names_it_and_goes_with_it(api: Api) -> None:
    """An admin token issues an admin, which issues a scorekeeper; revoking the first with
    cascade revokes all three; the CLI's and others' tokens stay."""
    def issue(by: str, role: str) -> str:
        made = api.client.post(tokens_path(), json={"role": role, "label": f"by {role}"},
                               headers={"Authorization": f"Bearer {by}"})
        assert made.status_code == 201, made.json
        return made.json["token"]

    root = api.tokens["casino", "admin"]
    child = issue(root, "admin")
    grandchild = issue(child, "scorekeeper")
    ids = [api.service.tokens.authenticate(t).token_id for t in (root, child, grandchild)]
    listed = {t["id"]: t for t in api.client.get(tokens_path(), headers=api.auth("admin")).json}
    assert [listed[i]["issued_by"] for i in ids] == [None, ids[0], ids[1]]
    plain = api.client.delete(tokens_path(token=ids[1]), headers=api.auth("admin"))
    assert plain.status_code == 200 and plain.json["revoked_with"] == []
    assert api.client.get(tokens_path(), headers={"Authorization": f"Bearer {grandchild}"}
                          ).status_code == 403  # still works: a scorekeeper, not an admin
    response = api.client.delete(tokens_path(token=ids[0]) + "?cascade=true", headers=api.auth("admin"))
    assert response.status_code == 200 and response.json["revoked_with"] == ids[1:]
    for token in (root, child, grandchild):
        assert_problem(api.client.get(f"/api/v1/matches/{api.matches['casino']}",
                                      headers={"Authorization": f"Bearer {token}"}), 401)
    assert api.client.get(f"/api/v1/matches/{api.matches['casino']}",
                          headers=api.auth("referee")).status_code == 200
    assert_problem(api.client.delete(tokens_path(token=ids[0]) + "?cascade=maybe",
                                     headers=api.auth("referee")), 422)


def test_another_clubs_token_or_none_is_404(api: Api) -> None:
    theirs = token_id(api, "viewer", club="other")
    for path in (tokens_path(token=theirs), tokens_path(token=99999), tokens_path(token=2**40),
                 tokens_path("nowhere", 1)):
        response = api.client.delete(path, headers=api.auth("admin"))
        if "nowhere" in path:
            assert_problem(response, 403)  # a club not its own, whether or not it exists
        else:
            assert_problem(response, 404, "not-found")
    assert api.client.get(f"/api/v1/matches/{api.matches['other']}",
                          headers=api.auth("viewer", "other")).status_code == 200
    assert api.client.delete(tokens_path(token=0), headers=api.auth("admin")).status_code == 404
    assert api.client.delete(tokens_path() + "/abc", headers=api.auth("admin")).status_code == 404
