"""A club of long Spanish names, the kind a 360-pixel phone must show whole: words_site.py's
club and matches (a parejas match played out, disputes ruled and open, a live timed match, a
withdrawn one, a tournament) with players such as "María José Fernández-Gutiérrez" and a
long club name, the tournament's first round played and its second paired (standings with
numbers, a scoreboard of its tables). The fixture of test_pages_360_browser.py."""

from __future__ import annotations

from tournament_helpers import play_round
from words_site import CLUB, TOURNAMENT, WordsSite, build_words_site

from referee.service import OPERATOR

NAME = "Peña Dominó Fernández de Villanueva del Arzobispo"
PLAYERS = ["María José Fernández-Gutiérrez", "Juan Carlos Rodríguez-Villanueva",
           "Inmaculada Concepción Santamaría", "Francisco Javier Domínguez-Echeverría",
           "Ángeles Valenzuela-Maldonado", "Bartolomé Hernández-Sotomayor",
           "Encarnación Villalobos-Peñaranda", "Maximiliano Castellanos-Bustamante"]
ENTRANTS = [["Nicolás Ibáñez-Caballero", "Rosalía Altamirano-Quintero"],
            ["Leopoldo Cifuentes-Arellano", "Purificación Menéndez-Ortega"],
            ["Wenceslao Fuenmayor-Izquierdo", "Guadalupe Barrionuevo-Sandoval"],
            ["Eustaquio Montenegro-Saavedra", "Remedios Aguirrezábal-Urquiza"]]


def build_wide_site(database_url: str) -> WordsSite:
    site = build_words_site(database_url, players=PLAYERS, entrants=ENTRANTS, name=NAME)
    svc = site.service
    play_round(svc, CLUB, TOURNAMENT, 1, seed=7)
    svc.tournaments.pair(CLUB, TOURNAMENT)
    svc.tournaments.start_tables(CLUB, TOURNAMENT, 2)
    assert svc.tournaments.round_tables(CLUB, TOURNAMENT, 2, who=OPERATOR)
    return site
