/* How the page says an event and a round's state, in words (each sentence here once). */
import {_} from "./i18n.js";

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
