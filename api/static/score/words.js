/* How the page says an event and a round's state, in words (each sentence here once). */
import {_, ngettext} from "./i18n.js";

// An event as the message line and the undo button name it; players: the screen's names.
export function describe(event, players) {
  const name = typeof event.seat === "number" ? players[event.seat] : "";
  const p = {name: name, tile: event.tile, end: event.end, target: event.target};
  switch (event.type) {
    case "play":
      return event.end !== undefined ? _("%(name)s plays %(tile)s on %(end)s", p)
                                     : _("%(name)s plays %(tile)s", p);
    case "draw":
      return event.tile ? _("%(name)s draws %(tile)s", p) : _("%(name)s draws", p);
    case "pass": return _("%(name)s passes", p);
    case "reveal":
      return event.tiles ? _("%(name)s shows %(tiles)s", {name: name, tiles: event.tiles.join(" ")})
                         : _("%(name)s shows %(pips)s pips", {name: name, pips: event.pips});
    case "deal": return _("the deal");
    case "void": return _("undo of event %(target)s", p);
    case "note": return _("the note");
    case "time": return _("time called");
    default: return event.type;
  }
}

const PHASES = {
  before_first_deal: () => _("Not dealt yet"),
  in_progress: () => _("In play"),
  domino: () => _("Domino"),
  blocked: () => _("Blocked"),
  annulled: () => _("Annulled"),
  awaiting_reveal: () => _("Waiting on reveals"),
};

// The screen's phase, as the line above the table says it.
export function phaseText(screen) {
  if (screen.finished) {
    return screen.winner_name ? _("Match over: %(winner)s won", {winner: screen.winner_name})
                              : _("Match over");
  }
  const phase = PHASES[screen.phase] ? PHASES[screen.phase]() : screen.phase;
  return screen.round ? _("Round %(round)s: %(phase)s", {round: screen.round, phase: phase}) : phase;
}

// The score by side, as the table reads it: "Ana & Carla 34, Beto & Dani 12".
export function scoreText(screen) {
  return screen.sides.map((side, i) => _("%(side)s %(points)s", {side: side, points: screen.totals[i]}))
    .join(_(", "));
}

// A round's result as the screen gives it (screen.rounds[i]), in one sentence: who won it, how,
// and how many points; null for a round still in play.
export function roundResult(r) {
  const p = {round: r.round, winner: r.winner_name, blocker: r.blocked_by_name};
  switch (r.outcome) {
    case "domino":
      return ngettext("Round %(round)s: %(winner)s won by domino, %(n)s point.",
                      "Round %(round)s: %(winner)s won by domino, %(n)s points.", r.points, p);
    case "blocked":
      if (r.winner_name === null) {
        return r.blocked_by_name ? _("Round %(round)s was blocked by %(blocker)s: a tie, no points.", p)
                                 : _("Round %(round)s was blocked: a tie, no points.", p);
      }
      return r.blocked_by_name
        ? ngettext("Round %(round)s was blocked by %(blocker)s: %(winner)s won on pips, %(n)s point.",
                   "Round %(round)s was blocked by %(blocker)s: %(winner)s won on pips, %(n)s points.",
                   r.points, p)
        : ngettext("Round %(round)s was blocked: %(winner)s won on pips, %(n)s point.",
                   "Round %(round)s was blocked: %(winner)s won on pips, %(n)s points.", r.points, p);
    case "awaiting_reveal": return _("Round %(round)s is over: the reveals say who won it.", p);
    case "annulled": return _("Round %(round)s was annulled: it scores nothing.", p);
    default: return null;
  }
}

// The clock of a timed match: the time since started (ISO date-time), "1:05:09" or "12:04".
export function elapsed(started, now) {
  const seconds = Math.max(0, Math.floor((now - Date.parse(started)) / 1000));
  const two = (n) => String(n).padStart(2, "0");
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return h ? h + ":" + two(m) + ":" + two(s) : m + ":" + two(s);
}
