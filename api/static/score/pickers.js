/* The moves the screen says there are, as buttons: the plays of the seat on turn (legal.plays
   when its hand is known, unseen_plays when it is closed), the leads a closed deal allows, a
   draw (unseen, or of a tile shown to the table) and a pass. A lead of the one tile the rules
   name is asked as "Who has the 6-6?", the players as answers. Draw and pass show whenever a seat
   is on turn (secondary when not legal): the table may do what the rules do not allow, and the
   record should say so. And a refused tap's "record as disputed". */
import {el, eventButton, group, tileNode} from "./dom.js";
import {_} from "./i18n.js";
import {counted, placePicker} from "./points.js";

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
  // the points family once the lead lies: a tap on an open end of the layout, then the tile
  const placing = counted(s) && s.open_ends.length > 0;
  const picker = placing ? placePicker(s) : null;
  if (picker) nodes.push(picker);
  if (plays.length && !placing) nodes.push(group(_("%(name)s plays", {name: name}), playButtons(plays, seat), "plays"));
  if (s.unseen_plays.length && !placing) {
    nodes.push(group(_("%(name)s plays a tile not seen yet", {name: name}),
                     playButtons(s.unseen_plays, seat), "unseen-plays"));
  }
  // the server's screen says whether a draw is offered (a boneyard holding a tile)
  const mayDraw = s.offers_draw;
  const moves = [];
  if (mayDraw) {
    moves.push(eventButton({type: "draw", seat: seat}, _("Draws (unseen)"),
                           {"class": "tap" + (legal.draw ? "" : " secondary")}));
  }
  // a pass of the points family is a knock
  const knock = counted(s);
  moves.push(eventButton({type: "pass", seat: seat}, knock ? _("%(name)s knocks", {name: name})
                                                          : _("%(name)s passes", {name: name}),
                         {"class": "tap" + (legal.pass ? "" : " secondary")}));
  const plain = placing ? !(s.places || []).length : !plays.length && !s.unseen_plays.length;
  const title = !plain ? _("Or") : knock ? (mayDraw ? _("%(name)s draws or knocks", {name: name}) : _("%(name)s knocks", {name: name}))
                                         : _("%(name)s draws or passes", {name: name});
  nodes.push(group(title, moves, "moves"));
  if (mayDraw && s.unseen.length) {
    nodes.push(folded("draw-seen", _("%(name)s draws a tile shown to the table", {name: name}),
      s.unseen.map((t) => eventButton({type: "draw", seat: seat, tile: t}, [tileNode(t)],
                                      {"class": "tap small", "aria-label": _("Draws %(tile)s", {tile: t})}))));
  }
}

// Before a lead several seats may make with tiles the record has not seen (a closed deal's
// next round: any tile), one panel: who leads (a button a seat), then the tile (one grid of
// the tiles, each a tap); not a folded list of 28 tiles a seat. The seat chosen is kept while
// the screen is the same one (a poll redraws it).
let leader = {seq: null, seat: null};

function chooseLeader(panel, s, bySeat, seat) {
  leader = {seq: s.seq, seat: seat};
  for (const button of panel.querySelectorAll("[data-leader]")) {
    button.setAttribute("aria-pressed", String(Number(button.getAttribute("data-leader")) === seat));
  }
  const held = new Set(seat === null ? [] : bySeat.get(seat));
  for (const button of panel.querySelectorAll("[data-lead-tile]")) {
    const tile = button.getAttribute("data-lead-tile");
    button.disabled = !held.has(tile);
    if (held.has(tile)) {
      button.setAttribute("data-event", JSON.stringify({type: "play", seat: seat, tile: tile}));
      button.setAttribute("aria-label", _("%(name)s leads %(tile)s", {name: s.players[seat], tile: tile}));
    } else {
      button.removeAttribute("data-event");
      button.setAttribute("aria-label", tile);
    }
  }
  panel.querySelector("[data-lead-hint]").hidden = seat !== null;
}

function leadPanel(s, bySeat) {
  const tiles = [...new Set(s.leads.map((l) => l.tile))];
  const title = _("Who leads, and with which tile?");
  const panel = el("section", {"class": "group", id: "leads", "aria-label": title}, [
    el("h2", {text: title}),
    el("div", {"class": "buttons", role: "group", "aria-label": _("Who leads")},
       [...bySeat.keys()].map((seat) => el("button", {
         type: "button", "class": "tap secondary", "data-leader": seat, "aria-pressed": "false"},
       [s.players[seat]]))),
    el("p", {"class": "help", "data-lead-hint": ""}, [_("Tap who leads, then the tile.")]),
    el("div", {"class": "buttons lead-tiles"}, tiles.map((tile) => el("button", {
      type: "button", "class": "tap play", "data-lead-tile": tile, disabled: true}, [tileNode(tile)])))]);
  panel.addEventListener("click", (event) => {
    const button = event.target.closest("[data-leader]");
    if (button) chooseLeader(panel, s, bySeat, Number(button.getAttribute("data-leader")));
  });
  chooseLeader(panel, s, bySeat, leader.seq === s.seq && bySeat.has(leader.seat) ? leader.seat : null);
  return panel;
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
  if (bySeat.size > 1 && [...bySeat.values()].some((held) => held.length > 8)) {
    nodes.push(leadPanel(s, bySeat));
    return;
  }
  for (const [seat, held] of bySeat) {  // hands seen: each seat's few tiles
    const buttons = held.map((t) => eventButton({type: "play", seat: seat, tile: t}, [tileNode(t)], {
      "class": "tap play", "aria-label": _("%(name)s leads %(tile)s", {name: s.players[seat], tile: t})}));
    nodes.push(group(_("%(name)s leads", {name: s.players[seat]}), buttons));
  }
}

// The refused tap again, marked disputed, for a referee to rule on; or dismissed. The
// referee's reason is said here too, beside the buttons.
function refusal(refused, why) {
  return el("section", {"class": "group refused", id: "refused", "aria-label": _("Refused")}, [
    el("p", {}, [el("strong", {text: _("Refused.")}), " ", ...(why ? [why.trim().replace(/([^.!?])$/, "$1."), " "] : []),
                 _("Record it anyway, marked disputed, for a referee to rule on?")]),
    el("div", {"class": "buttons"}, [
      eventButton(Object.assign({}, refused, {disputed: true}), _("Record as disputed"),
                  {"class": "tap warn", id: "record-disputed"}),
      el("button", {type: "button", "class": "tap secondary", id: "dismiss"}, [_("Dismiss")])])]);
}

// The pickers' nodes for screen s (refused: the last event the referee refused, or null;
// why: the referee's reason).
export function pickers(s, refused, why) {
  const nodes = refused ? [refusal(refused, why)] : [];
  if (s.phase === "in_progress" && !s.finished) {
    if (s.legal.seat !== null) turnMoves(s, nodes);
    if (s.leads.length) leads(s, nodes);
  }
  return nodes;
}
