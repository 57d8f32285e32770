/* The table as the match screen (GET /api/v1/matches/{id}) shows it: the round and its state,
   whose turn by name, the line of play, the score by side, the tiles in each hand, the open
   ends, the boneyard, the last event and the open disputes. Every fact is the screen's. */
import {el, tileNode} from "./dom.js";
import {_, ngettext} from "./i18n.js";
import {phaseText} from "./words.js";

function facts(pairs) {
  return el("dl", {"class": "facts"}, pairs.map(([term, value]) =>
    el("div", {}, [el("dt", {text: term}), el("dd", {text: value})])));
}

function turn(s) {
  if (s.turn !== null) {
    return el("p", {"class": "turn", id: "turn"}, [
      _("To play: "), el("strong", {text: s.turn_name}), " " + _("(seat %(seat)s)", {seat: s.turn})]);
  }
  if (s.may_lead_names.length) {
    return el("p", {"class": "turn", id: "turn"}, [
      _("To lead: "), el("strong", {text: s.may_lead_names.join(_(" or "))})]);
  }
  return null;
}

function line(s) {
  const box = el("div", {"class": "line", id: "line", role: "list",
                         "aria-label": _("The line of play, left to right")});
  for (const t of s.line) {
    const item = tileNode(t);
    item.setAttribute("role", "listitem");
    item.removeAttribute("aria-label");
    item.appendChild(el("span", {"class": "visually-hidden", text: t.replace("-", "–")}));
    box.appendChild(item);
  }
  if (!s.line.length) box.appendChild(el("p", {"class": "muted", text: _("No tile on the line.")}));
  return box;
}

function rows(caption, id, names, values, rowClass) {
  return el("table", {"class": id, id: id}, [
    el("caption", {text: caption}),
    el("tbody", {}, names.map((name, i) => el("tr", {"class": rowClass ? rowClass(i) : null}, [
      el("th", {scope: "row", text: name}), el("td", {text: String(values[i])})])))]);
}

function disputes(s) {
  const list = el("ul", {"class": "disputes", id: "disputes"}, s.disputes.map((d) =>
    el("li", {"data-dispute": String(d.seq)}, [
      el("strong", {text: _("Event %(seq)s, %(code)s: ", {seq: d.seq, code: d.code.replace(/_/g, " ")})}),
      d.message])));
  return el("section", {"class": "open-disputes", "aria-labelledby": "disputes-h"}, [
    el("h2", {id: "disputes-h", text: ngettext("Open dispute (%(n)s)", "Open disputes (%(n)s)",
                                               s.disputes.length)}), list]);
}

export function drawTable(box, s) {
  box.setAttribute("data-seq", String(s.seq));
  box.setAttribute("aria-busy", "false");
  document.getElementById("title").textContent = s.table
    ? _("Match %(id)s · table %(table)s", {id: s.id, table: s.table}) : _("Match %(id)s", {id: s.id});
  const nodes = [el("p", {"class": "phase", id: "phase", text: phaseText(s)}), turn(s), line(s),
    el("div", {"class": "tables"}, [
      rows(_("Score (to %(target)s)", {target: s.rules.target}), "totals", s.sides, s.totals),
      rows(_("Tiles in hand"), "counts", s.players, s.counts, (i) => s.turn === i ? "on-turn" : null)]),
    facts([[_("Open ends"), s.ends ? s.ends.join(_(" and ")) : _("none")],
           [_("Boneyard"), String(s.boneyard)],
           [_("Event"), String(s.seq)]])];
  if (s.disputes.length) nodes.push(disputes(s));
  box.replaceChildren(...nodes.filter(Boolean));
}
