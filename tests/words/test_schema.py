"""The API's field-by-field refusals in the reader's language (words.schema): every sentence
marshmallow's fields and validators write for the API's schemas is known and said in Spanish
and Italian with its numbers, never in English; a list of allowed values (codes) is not
repeated; a sentence it does not know is kept. Over HTTP, a refused club setting's 422 says
its field's refusal in the request's language."""

from __future__ import annotations

from typing import Any

import pytest
from api_helpers import Api, assert_problem
from marshmallow import Schema, ValidationError, fields, validate

import words
from words.schema import field_message, field_messages


class Every(Schema):
    """A field of each kind the API's schemas use, each with the checks they use."""

    range = fields.Integer(validate=validate.Range(1, 10000))
    least = fields.Integer(validate=validate.Range(min=1))
    most = fields.Integer(validate=validate.Range(max=9))
    above = fields.Integer(validate=validate.Range(min=0, min_inclusive=False))
    length = fields.String(validate=validate.Length(1, 200))
    short = fields.String(validate=validate.Length(min=3))
    long = fields.String(validate=validate.Length(max=3))
    exactly = fields.String(validate=validate.Length(equal=2))
    choice = fields.String(validate=validate.OneOf(["won", "points_for"]))
    pattern = fields.String(validate=validate.Regexp(r"^[a-z]+$"))
    whole = fields.Integer()
    number = fields.Float()
    text = fields.String()
    flag = fields.Boolean()
    day = fields.Date()
    items = fields.List(fields.String())
    mapping = fields.Dict()
    nested = fields.Nested(Schema.from_dict({"x": fields.Integer()}))
    needed = fields.Integer(required=True)
    not_null = fields.String(allow_none=False)


def sentences(messages: Any) -> list[str]:
    if isinstance(messages, str):
        return [messages]
    if isinstance(messages, dict):
        return [s for value in messages.values() for s in sentences(value)]
    return [s for value in messages for s in sentences(value)]


def refusals() -> list[str]:
    with pytest.raises(ValidationError) as refused:
        Every().load({"range": 0, "least": 0, "most": 10, "above": 0, "length": "", "short": "ab",
                      "long": "abcd", "exactly": "a", "choice": "x", "pattern": "A", "whole": "x",
                      "number": "x", "text": 3, "flag": "x", "day": "x", "items": "x",
                      "mapping": "x", "nested": 3, "not_null": None, "unknown": 1})
    return sentences(refused.value.messages)


@pytest.mark.parametrize("lang", ["es", "it"])
def test_every_refusal_of_the_schemas_is_said_in_the_language(lang: str) -> None:
    english = refusals()
    assert len(english) == 21  # every field refused, and the unknown one
    token = words.use(lang)
    try:
        said = {text: field_message(text) for text in english}
    finally:
        words.reset(token)
    assert [text for text, out in said.items() if out == text] == []  # none left in English
    assert said["Must be greater than or equal to 1 and less than or equal to 10000."] == \
        {"es": "debe estar entre 1 y 10000", "it": "deve essere tra 1 e 10000"}[lang]
    assert not [out for out in said.values() if "points_for" in out or "won" in out]
    assert field_message("a sentence of the service's own") == "a sentence of the service's own"
    assert field_messages({"json": {"rules": {"target": ["Not a valid integer."]}}}) == \
        {"json": {"rules": {"target": [field_message("Not a valid integer.")]}}}


def test_a_refused_setting_is_said_in_the_requests_language(api: Api) -> None:
    headers: dict[str, Any] = {**api.auth("admin"), "Accept-Language": "es"}
    body = assert_problem(api.client.patch("/api/v1/clubs/casino", json={"default_target": 99999},
                                           headers=headers), 422, "malformed-request")
    assert body["errors"]["json"]["default_target"] == ["debe estar entre 1 y 10000"]
