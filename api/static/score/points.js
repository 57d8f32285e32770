/* The points family on the phone (docs/pages.md, "Points during play"): rules that count the
   open ends after every play (scoring: ends). The count now and the last play's score in words,
   each side's progress to the target as a cribbage-board strip, the layout drawn as a cross (the
   line's two ends, and the spinner's up and down arms once open), each open end a button: tap
   it, then the tile placed there (screen.places), and the round's scoring plays. Every number
   is the screen's, every sentence the screen's (screen.said.scored) or the catalogs'. */
import {el, eventButton, group, tileNode} from "./dom.js";
import {_, ngettext, pgettext} from "./i18n.js";

export function counted(s) {
  return s.rules.scoring === "ends";
}

// The open end tapped, kept while the screen is the same one (a poll redraws it).
let chosen = {seq: null, side: null};

export function chosenSide(s) {
  if (chosen.seq !== s.seq) return null;
  return s.open_ends.some((e) => e.side === chosen.side) ? chosen.side : null;
}

export function choose(s, side) {
  chosen = {seq: s.seq, side: side};
}

function armName(side) {
  return {left: pgettext("open end", "left end"), right: pgettext("open end", "right end"),
          up: pgettext("open end", "up arm"), down: pgettext("open end", "down arm")}[side];
}

// ------------------------------------------------------------------ the score

// Each side's progress to the target: a strip of the target's holes (every fifth marked), the
// peg where its total stands.
export function progress(s) {
  const target = s.rules.target;
  return el("section", {"class": "board", id: "board", "aria-labelledby": "board-h"}, [
    el("h2", {id: "board-h", text: _("Score (to %(target)s)", {target: target})}),
    el("ul", {"class": "strips"}, s.sides.map((side, i) => {
      const total = s.totals[i];
      const share = Math.max(0, Math.min(1, total / target));
      const toGo = Math.max(0, target - total);
      return el("li", {"class": "strip", "data-side": String(i)}, [
        el("div", {"class": "strip-head"}, [
          el("span", {"class": "strip-name", text: side}),
          el("strong", {"class": "strip-total", text: _("%(points)s of %(target)s", {points: total, target: target})})]),
        el("div", {"class": "holes", role: "img", "aria-label": _("%(side)s: %(points)s of %(target)s", {
          side: side, points: total, target: target})}, [
          el("span", {"class": "peg", "data-share": share.toFixed(3)})]),
        el("span", {"class": "strip-to-go help", text: toGo
          ? ngettext("%(num)s to go", "%(num)s to go", toGo) : _("at the target")})]);
    }))]);
}

// The pegs placed, and a mark every fifth point of the target (a style attribute is not
// allowed by the page's policy: set as properties).
export function placePegs(box, s) {
  for (const peg of box.querySelectorAll(".peg[data-share]")) {
    peg.style.left = (Number(peg.getAttribute("data-share")) * 100) + "%";
  }
  for (const holes of box.querySelectorAll(".holes")) {
    holes.style.backgroundSize = (500 / s.rules.target) + "% 100%";
  }
}

// The count now, and what the last play scored when it was the last event.
export function countLine(s) {
  if (!s.open_ends.length || s.count === null) return null;
  const last = s.rounds.length ? s.rounds[s.rounds.length - 1] : null;
  const plays = last && last.scored ? last.scored : [];
  const told = s.said.scored && s.said.scored.length ? s.said.scored[s.said.scored.length - 1] : null;
  const node = el("p", {"class": "count", id: "count", "data-count": String(s.count)}, [
    _("Count: "), el("strong", {text: String(s.count)})]);
  const latest = plays.length ? plays[plays.length - 1] : null;
  if (latest && latest.seq === s.seq && told) {
    node.appendChild(document.createTextNode(" · "));
    node.appendChild(el("strong", {"class": latest.bust ? "bust" : "scored", id: "last-score",
                                   text: _("%(name)s: %(said)s", {name: s.players[latest.seat], said: told[told.length - 1]})}));
  }
  return node;
}

// The round's scoring plays, one line each, folded.
export function scoredList(s) {
  if (!s.rounds.length || !s.said.scored) return null;
  const index = s.rounds.length - 1;
  const plays = s.rounds[index].scored || [];
  const told = s.said.scored[index] || [];
  if (!plays.length) return null;
  return el("details", {"class": "scored", id: "scored"}, [
    el("summary", {text: ngettext("%(n)s scoring play this round", "%(n)s scoring plays this round", plays.length)}),
    el("ol", {}, plays.map((p, i) => el("li", {"data-seq": String(p.seq), "class": p.bust ? "bust" : null,
                                               text: _("%(name)s: %(said)s", {name: s.players[p.seat], said: told[i]})})))]);
}

// ------------------------------------------------------------------ the layout

function miniTile(name) {
  const node = tileNode(name);
  node.classList.add("mini");
  return node;
}

// The tiles of each arm from the centre outward: with a spinner its four arms, else the
// line's two halves (the lead in the middle).
function armsOf(s) {
  const line = s.line;
  const at = s.spinner ? line.indexOf(s.spinner) : -1;
  if (at < 0) {
    return {centre: line.length === 1 ? line[0] : null, left: line.length > 1 ? [line[0]] : [],
            right: line.length > 1 ? [line[line.length - 1]] : [], up: [], down: []};
  }
  return {centre: s.spinner, left: line.slice(0, at).reverse(), right: line.slice(at + 1),
          up: s.arms ? s.arms.up : [], down: s.arms ? s.arms.down : []};
}

// An open end's button: its outer tiles (one on the line's ends, two on an arm; "+N" for
// those nearer the centre) and
// the pip a tile must match there.
function endButton(s, end, tiles, picked) {
  const shown = tiles.slice(end.side === "up" || end.side === "down" ? -2 : -1);
  const hidden = tiles.length - shown.length;
  const pip = el("span", {"class": "pip" + (end.kind === "empty_arm" ? " empty" : ""), text: String(end.pip)});
  const parts = [];
  if (hidden > 0) parts.push(el("span", {"class": "more", text: "+" + hidden}));
  // outward: the outer tile furthest from the centre, the pip beyond it
  for (const t of shown) parts.push(miniTile(t));
  const inward = end.side === "left" || end.side === "up";
  const children = inward ? [pip, ...parts.reverse()] : [...parts, pip];
  const label = end.kind === "empty_arm"
    ? _("%(end)s: %(pip)s, no tile yet", {end: armName(end.side), pip: end.pip})
    : end.kind === "double" ? _("%(end)s: the double %(pip)s", {end: armName(end.side), pip: end.pip})
      : _("%(end)s: %(pip)s", {end: armName(end.side), pip: end.pip});
  return el("button", {type: "button", "class": "arm arm-" + end.side + (end.kind === "double" ? " across" : ""),
                       "data-arm": end.side, "aria-pressed": String(picked === end.side), "aria-label": label,
                       disabled: !(s.places || []).some((p) => p.side === end.side)},
            children);
}

export function layoutCross(s) {
  if (!s.open_ends.length) return null;
  const arms = armsOf(s);
  const picked = chosenSide(s);
  const cells = s.open_ends.map((end) => endButton(s, end, arms[end.side], picked));
  const centre = arms.centre ? tileNode(arms.centre) : el("span", {"class": "dots", text: "…"});
  const title = s.spinner ? _("The layout: the spinner and its arms") : _("The layout: its two ends");
  return el("section", {"class": "cross" + (s.arms ? " spun" : ""), id: "layout", "aria-label": title}, [
    el("div", {"class": "centre", "aria-label": s.spinner ? _("Spinner %(tile)s", {tile: s.spinner}) : null}, [centre]),
    ...cells]);
}

// ------------------------------------------------------------------ the taps

// The tiles for the end tapped (screen.places), each with the count it makes; before a tap, the
// hint. Null when nothing may be placed.
export function placePicker(s) {
  const places = s.places || [];
  if (!places.length) return null;
  const side = chosenSide(s);
  const seat = s.legal.seat;
  const name = s.players[seat];
  if (side === null) {
    return el("section", {"class": "group", id: "places", "aria-label": _("%(name)s plays", {name: name})}, [
      el("h2", {text: _("%(name)s plays", {name: name})}),
      el("p", {"class": "help", id: "places-hint", text: _("Tap an open end of the layout, then the tile.")})]);
  }
  const end = s.open_ends.find((e) => e.side === side);
  const buttons = places.filter((p) => p.side === side).map((p) => {
    const event = {type: "play", seat: seat, tile: p.tile};
    if (p.end !== null) event.end = p.end;
    return eventButton(event, [tileNode(p.tile), el("span", {"class": "where", text: "= " + p.count})], {
      "class": "tap play", "data-count": String(p.count),
      "aria-label": _("%(tile)s on the %(end)s: count %(count)s", {tile: p.tile, end: armName(side), count: p.count})});
  });
  return group(_("%(name)s plays on the %(end)s (%(pip)s)", {name: name, end: armName(side), pip: end.pip}),
               buttons, "places");
}
