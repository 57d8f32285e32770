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

from .cups import cup_tie_words


def uid(club: str, season: str, fixture: int) -> str:
    """A fixture's UID: the same in every feed that lists it (the season's and each team's),
    whatever address the feed was read at."""
    return f"fixture-{fixture}.{season}.{club}@domino-referee"


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
        if "cup" not in fixture:
            event.add("summary", summary)
            event.add("description", words.gettext("%(division)s, week %(round)s",
                                                   division=divisions[fixture["division"]],
                                                   round=fixture["round"]))
        else:  # a cup's tie: named as its cup's page names it (a single elimination's final)
            event.add("summary", f"{summary} · {fixture['cup_name']}")
            event.add("description", cup_tie_words(fixture))
        venue = data["venues"].get(fixture["home"])
        if venue:
            event.add("location", venue)
        event.add("transp", "TRANSPARENT")
        calendar.add_component(event)
    return calendar.to_ical()
