"""What a view costs a request beyond its work: the problem responses a view documents
(``Blueprint.errors``, api/openapi.py) are in the OpenAPI document and wrap nothing around the
view, where each code was a wrapper run on every request (bench/api_bench.py). The append reads
an ordinary request itself, webargs' reading (the documented one) only the others."""

from __future__ import annotations

from pathlib import Path

from api import create_app
from api.events import _append_read_by_webargs


def test_documented_errors_are_documented_and_wrap_nothing(tmp_path: Path) -> None:
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'x.db'}", "ACCESS_LOG": "0"})
    layers = []
    view = app.view_functions["events.append_event"]
    while view is not None:
        layers.append(view.__code__.co_qualname)
        view = getattr(view, "__wrapped__", None)
    # the token's check, then the view reading an ordinary append itself: nothing of webargs
    assert layers[-1] == "append_event" and len(layers) == 2, layers
    layers, view = [], _append_read_by_webargs
    while view is not None:
        layers.append(view.__code__.co_qualname)
        view = getattr(view, "__wrapped__", None)
    # the one alt_response left is the view's own (its ?dry_run=true 200), not an error's
    assert sum("alt_response" in layer for layer in layers) == 1, layers
    assert layers[-1] == "_append_read_by_webargs"
    document = app.test_client().get("/api/openapi.json").get_json()
    responses = document["paths"]["/api/v1/matches/{match_id}/events"]["post"]["responses"]
    assert {"200", "201", "400", "401", "403", "404", "412", "413", "415", "422", "428"} \
        <= set(responses)
    assert responses["412"] == {"$ref": "#/components/responses/PRECONDITION_FAILED"}
