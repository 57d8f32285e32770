"""A ruling's preview on the disputes desk (api/static/desk_disputes.js) answered after the form
was changed: on a slow server the referee may change the ruling or its reason while the preview
is out. That preview is of what the form said before, and "Record the ruling" would record it:
it is not shown, the button stays off, and the status says to preview again. The browser's
router holds the preview until the form has changed, so the order is the test's, not a race's."""

from __future__ import annotations

from typing import Any, Iterator

import pytest
from api_helpers import make_api, served
from desk_disputes_site import DISPUTED, passed_holding_a_five
from test_desk_disputes_browser import WAIT, signed_in
from test_pages_browser import pytestmark  # noqa: F401 (pytestmark marks the browser tests)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, str]]:
    api = make_api(f"sqlite:///{tmp_path_factory.mktemp('desk') / 'domino.db'}", ACCESS_LOG="0")
    with served(api.app) as base:
        yield api, base
    api.service.close()


def test_a_preview_answered_after_the_form_changed_is_not_offered(
        server: tuple[Any, str], browser: Any) -> None:
    api, base = server
    match_id = passed_holding_a_five(api, table="late")
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    try:
        page = signed_in(context, base, api.tokens["casino", "referee"], errors)
        dispute = page.locator(f"[data-dispute='{match_id}:{DISPUTED}']")
        status = dispute.locator("[data-status]")
        held: list[Any] = []
        preview = f"**/{match_id}/{DISPUTED}/preview"
        page.route(preview, lambda route: held.append(route))

        dispute.locator("select[name=ruling]").select_option("stands")
        dispute.locator("input[name=reason]").fill("The pass stands: nothing was seen")
        dispute.locator("button[data-action=preview]").click()
        for _ in range(WAIT // 50):  # the router's handler runs while playwright is called
            if held:
                break
            page.wait_for_timeout(50)
        assert held, "the desk asked for the preview"

        dispute.locator("select[name=ruling]").select_option("void")  # changed while out
        held[0].continue_()
        page.wait_for_function("s => s.textContent !== '' && !s.textContent.startsWith('Previewing')",
                               arg=status.element_handle(), timeout=WAIT)
        page.unroute(preview)
        assert status.text_content() == ("The ruling was changed while it was being previewed: "
                                         "preview it again.")
        assert dispute.locator("button[data-action=rule]").is_disabled()
        assert dispute.locator("[data-preview]").inner_html() == ""

        # previewed again, the form as it is now: offered
        dispute.locator("button[data-action=preview]").click()
        dispute.locator("button[data-action=rule]:enabled").wait_for(timeout=WAIT)
        assert status.text_content() == "Preview ready: check it, then record the ruling."
        assert errors == []
    finally:
        context.close()
