"""The API docs page (/api/docs) in a real browser: Swagger UI 5 draws every operation of the
document under the page's Content-Security-Policy, with no refused script, style or image
(the fixture fails on any console error), and "Authorize" keeps no token in localStorage.
Screenshots at 360 and 1280 px go to tests/pages/artifacts/."""

from __future__ import annotations

from typing import Any, Iterator

import pytest
from api_helpers import Api, make_api, served
from test_pages_browser import pytestmark, screenshots, sync_api  # noqa: F401 (pytestmark marks the browser tests)

WAIT_MS = 15_000


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Api, str]]:
    api = make_api(f"sqlite:///{tmp_path_factory.mktemp('docs') / 'domino.db'}", ACCESS_LOG="0")
    with served(api.app) as base:
        yield api, base
    api.service.close()


def test_swagger_ui_draws_the_document_under_its_policy(server: tuple[Api, str], page: Any) -> None:
    api, base = server
    response = page.goto(base + "/api/docs")
    assert response.status == 200
    policy = response.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "unsafe-eval" not in policy
    assert "frame-ancestors 'none'" in policy
    page.wait_for_selector(".opblock", timeout=WAIT_MS)
    spec = api.client.get("/api/openapi.json").json
    methods = {"get", "put", "post", "delete", "patch", "head", "options"}
    operations = sum(len(methods & set(item)) for item in spec["paths"].values())
    assert page.locator(".opblock").count() == operations
    version = page.evaluate("() => JSON.stringify(window.versions || {})")
    assert '"5.' in version, version  # Swagger UI 5, not the 4.15 of swagger-ui-bundle
    page.click("button.authorize")
    page.fill(".auth-container input", api.tokens["casino", "viewer"])
    page.click(".auth-btn-wrapper button.authorize")
    stored = page.evaluate("() => JSON.stringify(Object.assign({}, window.localStorage))")
    assert api.tokens["casino", "viewer"] not in stored
    page.click("button.btn-done")
    screenshots(page, "api-docs")
