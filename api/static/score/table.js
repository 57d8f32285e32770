/* The table as the match screen (GET /api/v1/matches/{id}) shows it: the round and its state,
   whose turn by name, the line of play, the score by side, the tiles in each hand, the open
   ends, the boneyard, the last event and the open disputes. Every fact is the screen's, and so
   are its sentences (screen.said: the phase, each round's result, each dispute's foul). */
import {el, tileNode} from "./dom.js";
import {_, listOf, ngettext, pgettext} from "./i18n.js";
import {countLine, counted, layoutCross, placePegs, progress, scoredList} from "./points.js";
import {elapsed, scoreText, tableWords} from "./words.js";

function facts(pairs) {
  return el("dl", {"class": "facts"}, pairs.map(([term, value]) =>
    el("div", {}, [el("dt", {text: term}), el("dd", {text: value})])));
}

function turn(s) {
  if (s.turn !== null) {
    return el("p", {"class": "turn", id: "turn"}, [
      _("To play: "), el("strong", {text: s.turn_name})]);
  }
  if (s.may_lead_names.length) {
    return el("p", {"class": "turn", id: "turn"}, [
      _("To lead: "), el("strong", {text: s.may_lead_names.join(_(" or "))})]);
  }
  return null;
}

// The line of play, a list of its tiles; before the first tile no list (an empty role=list
// is one a screen reader cannot read: axe's aria-required-children), the words saying so.
function line(s) {
  if (!s.line.length) {
    return el("div", {"class": "line", id: "line"}, [
      el("p", {"class": "muted", text: _("No tile on the line.")})]);
  }
  const box = el("div", {"class": "line", id: "line", role: "list",
                         "aria-label": _("The line of play, left to right")});
  for (const t of s.line) {
    const item = tileNode(t);
    item.setAttribute("role", "listitem");
    item.removeAttribute("aria-label");
    if (t === s.spinner) item.classList.add("spinner");
    item.appendChild(el("span", {"class": "visually-hidden", text: t.replace("-", "–")}));
    box.appendChild(item);
  }
  return box;
}

// The tiles on the spinner's up and down arms, from the spinner outward (none on either yet:
// nothing said).
function armLines(s) {
  if (!s.arms || (!s.arms.up.length && !s.arms.down.length)) return null;
  return el("div", {"class": "arm-lines", id: "arm-lines"}, [["up", _("Up arm: ")], ["down", _("Down arm: ")]]
    .filter(([side]) => s.arms[side].length)
    .map(([side, label]) => el("p", {"class": "arm-line", "data-arm-line": side}, [
      el("span", {"class": "muted", text: label}), ...s.arms[side].map((t) => tileNode(t))])));
}

function rows(caption, id, names, values, rowClass) {
  return el("table", {"class": id, id: id}, [
    el("caption", {text: caption}),
    el("tbody", {}, names.map((name, i) => el("tr", {"class": rowClass ? rowClass(i) : null}, [
      el("th", {scope: "row", text: name}), el("td", {text: String(values[i])})])))]);
}

function disputes(s) {
  const list = el("ul", {"class": "disputes", id: "disputes"}, s.disputes.map((d, i) =>
    el("li", {"data-dispute": String(d.seq)}, [
      el("strong", {text: _("Event %(seq)s, %(foul)s: ", {seq: d.seq, foul: s.said.disputes[i]})}),
      d.message])));
  return el("section", {"class": "open-disputes", "aria-labelledby": "disputes-h"}, [
    el("h2", {id: "disputes-h", text: ngettext("Open dispute (%(n)s)", "Open disputes (%(n)s)",
                                               s.disputes.length)}),
    el("p", {"class": "help", id: "disputes-help", text: ngettext(
      "It waits for a referee's ruling; play goes on as the table played.",
      "They wait for a referee's ruling; play goes on as the table played.", s.disputes.length)}),
    list]);
}

// The round just ended, told to the table with the score now (null while a round is in play or
// before the first deal).
function result(s) {
  const last = s.rounds.length ? s.rounds[s.rounds.length - 1] : null;
  const sentence = last ? s.said.rounds[s.rounds.length - 1] : null;
  if (!sentence) return null;
  return el("p", {"class": "result", id: "result", "data-round": String(last.round),
                  "data-outcome": last.outcome}, [
    el("strong", {text: sentence}), " ", _("Score now: %(score)s.", {score: scoreText(s)})]);
}

// Every round that ended before, one sentence each, folded.
function history(s) {
  const told = s.said.rounds.slice(0, -1).filter(Boolean);
  if (!told.length) return null;
  return el("details", {"class": "rounds", id: "rounds"}, [
    el("summary", {text: ngettext("%(n)s round before", "%(n)s rounds before", told.length)}),
    el("ol", {}, told.map((text) => el("li", {text: text})))]);
}

// The clock of a match with a time limit: from its first event, stopped when the match ends.
function clock(s) {
  const limit = s.rules.time_limit;
  if (!limit || !s.started_at) return null;
  // a finished match's clock stopped at its last event
  const until = s.finished ? Date.parse(s.updated_at) : Date.now();
  const node = el("p", {"class": "clock", id: "clock", "data-started": s.started_at,
                        "data-stopped": s.finished}, [
    _("Time: "), el("strong", {"class": "elapsed", text: elapsed(s.started_at, until)}), " ",
    ngettext("(limit %(n)s minute)", "(limit %(n)s minutes)", limit)]);
  if (s.time_called !== null) {
    node.appendChild(document.createTextNode(" · " + _("time called: the round in play, or the next one dealt, is the last")));
  }
  return node;
}

// The clock's seconds, once a second, while a clock that runs is shown.
setInterval(() => {
  const node = document.getElementById("clock");
  if (node && !node.hasAttribute("data-stopped")) {
    node.querySelector(".elapsed").textContent = elapsed(node.getAttribute("data-started"), Date.now());
  }
}, 1000);

// The tiles not dealt, by the name the screen says (said.undealt: "Sleeping tiles" in Fives
// and Threes, chosen by the server's words.events.sleeping), or nothing where a game has none
// (parejas, Puerto Rico: said.undealt is null where the screen's shows_undealt is false).
function undealt(s) {
  if (!s.said.undealt) return null;
  return [s.said.undealt, String(s.boneyard)];
}

// The totals' caption as the match page has it: by player in singles, by partnership in pairs
// (Spanish and Italian have no word for a side that is either).
function totalsCaption(rules) {
  return rules.partnerships
    ? _("Totals by partnership, playing to %(target)s", {target: rules.target})
    : _("Totals by player, playing to %(target)s", {target: rules.target});
}

export function drawTable(box, s) {
  box.setAttribute("data-seq", String(s.seq));
  box.setAttribute("aria-busy", "false");
  document.getElementById("title").textContent = s.table
    ? _("Match %(id)s", {id: s.id}) + " · " + tableWords(s.table) : _("Match %(id)s", {id: s.id});
  // Between rounds the round's result says what the phase would ("Round 1: Blocked").
  const told = result(s);
  const phase = !told || s.finished ? el("p", {"class": "phase", id: "phase", text: s.said.phase}) : null;
  const points = counted(s);
  const ends = points && s.open_ends.length ? s.open_ends.map((e) => e.pip) : s.ends;
  const handCounts = rows(_("Tiles in hand"), "counts", s.players, s.counts, (i) => s.turn === i ? "on-turn" : null);
  const nodes = [phase, told, history(s), clock(s), turn(s),
    ...(points ? [progress(s), countLine(s), layoutCross(s), scoredList(s)] : []),
    line(s), points ? armLines(s) : null,
    el("div", {"class": "tables"}, points ? [handCounts] : [
      rows(totalsCaption(s.rules), "totals", s.sides, s.totals), handCounts]),
    facts([[_("Open ends"), ends ? listOf(ends) : pgettext("open ends", "none")],
           undealt(s), [_("Event"), String(s.seq)]].filter(Boolean))];
  if (s.disputes.length) nodes.push(disputes(s));
  box.replaceChildren(...nodes.filter(Boolean));
  if (points) placePegs(box, s);
}
