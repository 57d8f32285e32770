/* What is typed before it is tapped: a seat's reveal (its pips, or its tiles), an open deal's
   hands, a note; and the undo. Each field keeps its button's data-event current as it is typed
   in, so the button sends what the field says. */
import {el, eventButton} from "./dom.js";
import {_, ngettext} from "./i18n.js";

// "6-5 4-4", "65,44": each tile as "a-b"; what is no tile is left for the referee to refuse.
function tilesOf(text) {
  return text.split(/[\s,;]+/).filter(Boolean).map((t) => /^\d\d$/.test(t) ? t[0] + "-" + t[1] : t);
}

// input's changes keep button's event current: event(value) or null (the button disabled).
function follow(input, button, event) {
  input.addEventListener("input", () => {
    const next = event(input.value.trim());
    button.disabled = next === null;
    if (next !== null) button.setAttribute("data-event", JSON.stringify(next));
  });
}

function field(id, label, input, button) {
  return el("div", {"class": "field-row"}, [el("label", {"for": id, text: label}), input, button]);
}

function reveal(s, seat) {
  const name = s.players[seat];
  const pipsId = "reveal-pips-" + seat;
  const tilesId = "reveal-tiles-" + seat;
  const pips = el("input", {id: pipsId, type: "number", inputmode: "numeric", min: "0",
                            "data-reveal-pips": String(seat)});
  const showPips = eventButton({type: "reveal", seat: seat, pips: 0}, _("Show pips"),
                               {"class": "tap", "data-reveal": String(seat), disabled: true});
  follow(pips, showPips, (v) => /^\d+$/.test(v) ? {type: "reveal", seat: seat, pips: Number(v)} : null);
  const tiles = el("input", {id: tilesId, autocomplete: "off", spellcheck: "false",
                             "data-reveal-tiles": String(seat), placeholder: "6-5 4-4"});
  const showTiles = eventButton({type: "reveal", seat: seat, tiles: []}, _("Show tiles"), {
    "class": "tap secondary", "data-reveal-tiles-button": String(seat), disabled: true});
  follow(tiles, showTiles, (v) => tilesOf(v).length ? {type: "reveal", seat: seat, tiles: tilesOf(v)} : null);
  return el("div", {"class": "reveal", "data-seat": String(seat)}, [
    el("h3", {text: ngettext("%(name)s (%(n)s tile)", "%(name)s (%(n)s tiles)", s.counts[seat],
                             {name: name})}),
    field(pipsId, _("Pips %(name)s shows", {name: name}), pips, showPips),
    field(tilesId, _("Or the tiles"), tiles, showTiles)]);
}

function reveals(s) {
  return el("section", {"class": "group", id: "reveals", "aria-labelledby": "reveals-h"}, [
    el("h2", {id: "reveals-h", text: _("Reveals")}),
    el("p", {"class": "help", text: _("Each player still holding tiles shows them: type the pips, or the tiles.")}),
    ...s.owes_reveal.map((seat) => reveal(s, seat))]);
}

function deal(s) {
  const inputs = s.players.map((name, seat) => el("input", {
    id: "hand-" + seat, autocomplete: "off", spellcheck: "false", "data-hand": String(seat),
    placeholder: "6-6 6-5 …"}));
  const open = eventButton({type: "deal", hands: s.players.map(() => null)},
                           _("Deal with these hands"), {"class": "tap secondary", id: "deal-open"});
  const hands = () => inputs.map((i) => tilesOf(i.value).length ? tilesOf(i.value) : null);
  for (const input of inputs) follow(input, open, () => ({type: "deal", hands: hands()}));
  return el("section", {"class": "group", id: "deal", "aria-labelledby": "deal-h"}, [
    el("h2", {id: "deal-h", text: s.round ? _("Next round") : _("First round")}),
    s.owes_reveal.length && s.phase === "awaiting_reveal" ? el("p", {"class": "help", text: _(
      "Dealing now leaves the last round without its reveals: it scores nothing.")}) : "",
    // the points family: every play is public and scored at once, the hands need not be typed
    s.rules.scoring === "ends" ? el("p", {"class": "help", id: "deal-closed-help", text: _(
      "Plays are public in this game: deal closed, then tap each play as the table sees it.")}) : "",
    el("div", {"class": "buttons"}, [
      eventButton({type: "deal"}, _("Deal (hands not seen)"), {"class": "tap", id: "deal-closed"})]),
    el("details", {id: "deal-open-form"}, [
      el("summary", {text: _("Deal open: enter the hands")}),
      el("p", {"class": "help", text: _("Tiles as 6-5 or 65, split by spaces; leave a hand empty when it is not seen.")}),
      ...s.players.map((name, seat) => el("div", {"class": "field"}, [
        el("label", {"for": "hand-" + seat, text: _("%(name)s's hand", {name: name})}), inputs[seat]])),
      el("div", {"class": "buttons"}, [open])])]);
}

// The undo names what it takes back, in the screen's words. Its reason is stored as the
// system's English (words/events.py REASONS), said in each reader's language where it is shown.
function extras(s) {
  const undo = [];
  if (s.undo !== null && s.undo !== undefined) {
    const label = s.said.undo ? _("Undo: %(event)s (event %(seq)s)", {event: s.said.undo, seq: s.undo})
                              : _("Undo my last entry (event %(seq)s)", {seq: s.undo});
    undo.push(eventButton({type: "void", target: s.undo, reason: "undone by the scorekeeper"}, label,
                          {"class": "tap secondary", id: "undo"}));
  }
  const note = el("input", {id: "note-text", autocomplete: "off"});
  const add = eventButton({type: "note", text: ""}, _("Add the note"),
                          {"class": "tap secondary", id: "note", disabled: true});
  follow(note, add, (v) => v ? {type: "note", text: v} : null);
  return el("section", {"class": "group", id: "extras", "aria-label": _("Corrections and notes")}, [
    el("div", {"class": "buttons"}, undo), field("note-text", _("Note"), note, add)]);
}

// Rules with a time limit: the table calls time once, while the match is on.
function time(s) {
  return el("section", {"class": "group", id: "time-limit", "aria-labelledby": "time-h"}, [
    el("h2", {id: "time-h", text: _("Time limit")}),
    el("p", {"class": "help", text: ngettext(
      "When the %(n)s minute is up, tap Time: the round in play, or the next one dealt, is the last.",
      "When the %(n)s minutes are up, tap Time: the round in play, or the next one dealt, is the last.",
      s.rules.time_limit)}),
    el("div", {"class": "buttons"}, [
      eventButton({type: "time"}, _("Time"), {"class": "tap warn", id: "time"})])]);
}

// The keypads' nodes for screen s.
export function keypads(s) {
  const playing = s.phase === "in_progress" && !s.finished;
  const nodes = [];
  if (s.rules.time_limit && s.time_called === null && !s.finished) nodes.push(time(s));
  if (s.owes_reveal.length) nodes.push(reveals(s));
  if (!playing && !s.finished) nodes.push(deal(s));
  nodes.push(extras(s));
  return nodes;
}
