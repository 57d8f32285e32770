/* The moves the screen says there are, as buttons: the plays of the seat on turn (legal.plays
   when its hand is known, unseen_plays when it is closed), the leads a closed deal allows, a
   draw (unseen, or of a tile shown to the table) and a pass. A lead of the one tile the rules
   name is asked as "Who has the 6-6?", the players as answers. Draw and pass show whenever a seat
   is on turn (secondary when not legal): the table may do what the rules do not allow, and the
   record should say so. And a refused tap's "record as disputed". */
import {el, eventButton, group, tileNode} from "./dom.js";
import {_} from "./i18n.js";

// A play as its button sends it: "end" only when the tile fits both ends (it is offered once
// per end), as the log wants it.
function playButtons(plays, seat) {
  const offered = {};
  for (const p of plays) offered[p.tile] = (offered[p.tile] || 0) + 1;
  return plays.map((p) => {
    const event = {type: "play", seat: seat, tile: p.tile};
    if (offered[p.tile] > 1 && p.end !== null) event.end = p.end;
    const label = p.end === null ? _("Play %(tile)s", {tile: p.tile})
                                 : _("Play %(tile)s on %(end)s", {tile: p.tile, end: p.end});
    const where = p.end === null ? "" : " " + _("on %(end)s", {end: p.end});
    return eventButton(event, [tileNode(p.tile), el("span", {"class": "where", text: where})],
                       {"class": "tap play", "aria-label": label});
  });
}

function folded(id, title, buttons) {
  return el("details", {"class": "group", id: id}, [
    el("summary", {text: title}), el("div", {"class": "buttons"}, buttons)]);
}

function turnMoves(s, nodes) {
  const legal = s.legal;
  const seat = legal.seat;
  const name = s.players[seat];
  const plays = legal.plays || [];
  if (plays.length) nodes.push(group(_("%(name)s plays", {name: name}), playButtons(plays, seat), "plays"));
  if (s.unseen_plays.length) {
    nodes.push(group(_("%(name)s plays a tile not seen yet", {name: name}),
                     playButtons(s.unseen_plays, seat), "unseen-plays"));
  }
  const mayDraw = legal.draw || s.boneyard > 0;
  const moves = [];
  if (mayDraw) {
    moves.push(eventButton({type: "draw", seat: seat}, _("Draws (unseen)"),
                           {"class": "tap" + (legal.draw ? "" : " secondary")}));
  }
  moves.push(eventButton({type: "pass", seat: seat}, _("%(name)s passes", {name: name}),
                         {"class": "tap" + (legal.pass ? "" : " secondary")}));
  const plain = !plays.length && !s.unseen_plays.length;
  nodes.push(group(plain ? _("%(name)s draws or passes", {name: name}) : _("Or"), moves, "moves"));
  if (mayDraw && s.unseen.length) {
    nodes.push(folded("draw-seen", _("%(name)s draws a tile shown to the table", {name: name}),
      s.unseen.map((t) => eventButton({type: "draw", seat: seat, tile: t}, [tileNode(t)],
                                      {"class": "tap small", "aria-label": _("Draws %(tile)s", {tile: t})}))));
  }
}

function leads(s, nodes) {
  const bySeat = new Map();
  for (const l of s.leads) bySeat.set(l.seat, [...(bySeat.get(l.seat) || []), l.tile]);
  const tiles = new Set(s.leads.map((l) => l.tile));
  if (tiles.size === 1) {  // the rules name the tile (a closed deal's 6-6): who holds it leads
    const [tile] = tiles;
    nodes.push(group(_("Who has the %(tile)s?", {tile: tile}), [...bySeat.keys()].map((seat) =>
      eventButton({type: "play", seat: seat, tile: tile}, s.players[seat], {
        "class": "tap", "aria-label": _("%(name)s leads %(tile)s", {name: s.players[seat], tile: tile})})),
      "who-leads"));
    return;
  }
  for (const [seat, held] of bySeat) {
    const buttons = held.map((t) => eventButton({type: "play", seat: seat, tile: t}, [tileNode(t)], {
      "class": "tap play", "aria-label": _("%(name)s leads %(tile)s", {name: s.players[seat], tile: t})}));
    const title = _("%(name)s leads", {name: s.players[seat]});
    nodes.push(held.length > 8 ? folded(null, title, buttons) : group(title, buttons));
  }
}

// The refused tap again, marked disputed, for a referee to rule on; or dismissed.
function refusal(refused) {
  return el("section", {"class": "group refused", id: "refused", "aria-label": _("Refused")}, [
    el("p", {}, [el("strong", {text: _("Refused.")}), " ",
                 _("Record it anyway, marked disputed, for a referee to rule on?")]),
    el("div", {"class": "buttons"}, [
      eventButton(Object.assign({}, refused, {disputed: true}), _("Record as disputed"),
                  {"class": "tap warn", id: "record-disputed"}),
      el("button", {type: "button", "class": "tap secondary", id: "dismiss"}, [_("Dismiss")])])]);
}

// The pickers' nodes for screen s (refused: the last event the referee refused, or null).
export function pickers(s, refused) {
  const nodes = refused ? [refusal(refused)] : [];
  if (s.phase === "in_progress" && !s.finished) {
    if (s.legal.seat !== null) turnMoves(s, nodes);
    if (s.leads.length) leads(s, nodes);
  }
  return nodes;
}
