"""A league's fixtures as an iCalendar feed (RFC 5545) that calendar apps subscribe to: one
event a fixture, all day on its date (a fixture has a day, not an hour: docs/leagues.md), with
a UID that never changes, so an app replaces the fixture it holds when it is postponed; its
SEQUENCE counts the postponements. The calendar names the club's time zone. A team cup's tie
played as a fixture of the season is one too, its cup and tie in its summary and description
(its UID a fixture's like any other: a cup's fixture is numbered as the season's are)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import words


def uid(club: str, season: str, fixture: int) -> str:
    """A fixture's UID: the same in every feed that lists it (the season's and each team's),
    whatever address the feed was read at."""
    return f"fixture-{fixture}.{season}.{club}@domino-referee"


def tie_words(tie: str, cup: dict[str, Any]) -> str:
    """A cup's tie as its page's list names it (the bracket template's ``tie_name``, whose
    words are the page's), from its id (``W2-1``, ``L1-2``, ``F1``) and its cup's format and
    rounds."""
    from flask import get_template_attribute

    if tie.startswith("F"):
        t = {"id": tie, "bracket": "final", "round": int(tie[1:]), "number": 1}
    else:
        rnd, number = tie[1:].split("-")
        t = {"id": tie, "bracket": "losers" if tie.startswith("L") else "winners",
             "round": int(rnd), "number": int(number)}
    named = get_template_attribute("pages/_bracket.html", "tie_name")
    return str(named(t, {"format": cup["format"], "ties": [{"round": cup["rounds"]}]})).strip()


def feed(data: dict[str, Any], *, host: str) -> bytes:
    """The feed of ``svc.leagues.calendar``'s answer: each fixture's teams (and its result once
    complete) as its summary, its division and week as its description, the home team's venue
    as its location."""
    # Imported here: the pages load without it until a feed is asked for.
    from icalendar import Calendar, Event

    club, season, names = data["club"], data["season"], data["teams"]
    divisions = {d["slug"]: d["name"] for d in data["divisions"]}
    calendar = Calendar()
    calendar.add("prodid", f"-//domino-referee//{host}//league fixtures//EN")
    calendar.add("version", "2.0")
    title = season["name"] if data["team"] is None else (
        f"{names[data['team']]} · {season['name']}")
    calendar.add("x-wr-calname", f"{title} · {club['name']}")
    if club.get("timezone"):
        calendar.add("x-wr-timezone", club["timezone"])
    stamp = dt.datetime.now(dt.timezone.utc).replace(microsecond=0)
    for fixture in data["fixtures"]:
        day = dt.date.fromisoformat(fixture["date"])
        home, away = names[fixture["home"]], names[fixture["away"]]
        event = Event()
        event.add("uid", uid(club["slug"], season["slug"], fixture["id"]))
        event.add("dtstamp", stamp)
        event.add("dtstart", day)
        event.add("dtend", day + dt.timedelta(days=1))
        event.add("sequence", fixture["postponed"])
        won = fixture["legs_won"]
        summary = (f"{home} {won['home']}–{won['away']} {away}" if fixture["complete"]
                   else f"{home} – {away}")
        cup = fixture.get("cup")
        if cup is None:
            event.add("summary", summary)
            event.add("description", words.gettext("%(division)s, week %(round)s",
                                                   division=divisions[fixture["division"]],
                                                   round=fixture["round"]))
        else:  # a cup's tie: named as its cup's page names it (a single elimination's final)
            event.add("summary", f"{summary} · {cup['name']}")
            event.add("description", words.gettext("%(cup)s, %(tie)s", cup=cup["name"],
                                                   tie=tie_words(fixture["tie"], cup)))
        venue = data["venues"].get(fixture["home"])
        if venue:
            event.add("location", venue)
        event.add("transp", "TRANSPARENT")
        calendar.add_component(event)
    return calendar.to_ical()
