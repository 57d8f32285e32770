"""The rules core's sentences, kept as what they are made of so the edge can say them in the
caller's language. Standard library only, no I/O, no catalog: the core stays pure.

A :class:`Said` is a ``str`` (its English text, what the core has always written, so the
reports, the logs' errors and every test read it unchanged) that also remembers its template
(a gettext msgid with ``%(name)s`` placeholders), the values it was filled with and, for a
plural, the other form and the count. ``words.say`` translates it: the template through the
catalog, then each value that is itself a Said, the same way. Values that are names and tiles
are plain text and stay as written.

``python -m words.build`` extracts the templates (keywords ``said`` and ``said_n``): write each
template literally in the call, never built from pieces.
"""

from __future__ import annotations

from typing import Any, Mapping


class Said(str):
    """An English sentence of the core that remembers its template and values."""

    template: str
    values: dict[str, Any]
    # (not a plural unless said_n made it: read from the class, not stored in each sentence)
    plural: str | None = None
    n: int | None = None


# Each sentence's fields are its instance dict, given whole: a third of a sentence's making
# fewer instructions than setting them one by one (closed recordings' suspicions say a few
# sentences each, and were most of what validating one costs beyond its open twin).
def said(template: str, /, **values: Any) -> Said:
    """``template % values`` that remembers both (see the module's text)."""
    text = Said(template % values if values else template)
    text.__dict__ = {"template": template, "values": values}
    return text


def said_n(singular: str, plural: str, n: int, /, **values: Any) -> Said:
    """The English form for ``n`` (``%(num)s`` in the text unless ``values`` names it)."""
    values.setdefault("num", n)
    text = Said((singular if n == 1 else plural) % values)
    text.__dict__ = {"template": singular, "values": values, "plural": plural, "n": n}
    return text


def packed(value: Any) -> Any:
    """A sentence as JSON that keeps what it is made of (a stored pairing's reasons):
    ``{"said": template, "values": {...}, "text": english}`` (with ``plural`` and ``n`` for a
    plural), nested for the values that are sentences; anything else as it is."""
    if not isinstance(value, Said):
        return value
    out: dict[str, Any] = {"said": value.template, "text": str(value),
                           "values": {k: packed(v) for k, v in value.values.items()}}
    if value.plural is not None:
        out["plural"], out["n"] = value.plural, value.n
    return out


def unpacked(value: Any, renamed: Mapping[str, str] | None = None) -> Any:
    """The sentence :func:`packed` wrote, a Said again; a plain string (a round stored before
    sentences were kept) as it is. ``renamed``: templates reworded since (old -> new, the same
    values), said in their new words."""
    if not isinstance(value, dict) or "said" not in value:
        return value
    renamed = renamed or {}
    values = {k: unpacked(v, renamed) for k, v in value.get("values", {}).items()}
    template = renamed.get(value["said"], value["said"])
    if value.get("plural") is not None:
        return said_n(template, renamed.get(value["plural"], value["plural"]), value["n"], **values)
    return said(template, **values)


__all__ = ["Said", "packed", "said", "said_n", "unpacked"]
