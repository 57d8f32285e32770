/* domino-referee live scoreboard: plain JavaScript, no build step, no library.
 *
 * The page comes with every table as a card (#board) and the cursor of what it shows
 * (data-cursor). This script reads the club's stream of server-sent events with fetch(), not
 * EventSource, so that a private club's token can go as a bearer header (the token the club
 * pages keep in this tab's sessionStorage; never in a URL). Each "row" event is one table's row:
 * its card is filled in again (or added, in table order) unless the card already shows a later
 * seq. The stream's "id:" is the cursor; a reconnection sends it as Last-Event-ID and is sent
 * only what changed since. The indicator (#live-state) says live, reconnecting or signed out;
 * no bytes for 40 s (the server sends a comment every 15 s) counts as a lost connection.
 * An ES module: its words from i18n.js, in the page's language; the token from client.js.
 */
import {headers as authHeaders} from "./client.js";
import {_, ngettext, pgettext, timeOfDay} from "./i18n.js";

var SILENCE_MS = 40000;
var STATUS_TEXT = { live: _("Live"), finished: _("Finished"), disputed: _("Disputed") };
// The words for the kinds of undealt tiles the server names in a row's "undealt" (api/
// scoreboard.py SaidScoreboard chooses it): this script says it, never chooses it.
var UNDEALT = {
  sleeping_tiles: function (count) { return _("sleeping tiles %(count)s", { count: count }); },
  boneyard: function (count) { return _("boneyard %(count)s", { count: count }); }
};

var board = document.getElementById("board");
var template = document.getElementById("board-card");
var stateEl = document.getElementById("live-state");
var empty = document.getElementById("board-empty");
// The time of a table's last event in the club's time zone (data-timezone; UTC, said so,
// when the club has set none), as the page drew it. Set before the cards drawn by the server
// are read below: undefined there, their times were the reader's clock's, and unsaid.
var ZONE = board.getAttribute("data-timezone") || "UTC";

Array.prototype.forEach.call(board.querySelectorAll("time[data-field=time]"), function (element) {
  setTime(element, element.getAttribute("datetime"));
});

var url = board.getAttribute("data-stream");
var cursor = board.getAttribute("data-cursor") || "";
var retryMs = 2000;
var controller = null;
var watchdog = null;
var timer = null;

function setState(state, text) {
  stateEl.setAttribute("data-state", state);
  stateEl.textContent = text;
}

// ------------------------------------------------------------------ drawing a table

function tableKey(row) {
  var text = row.table === null || row.table === undefined ? "" : String(row.table).trim();
  if (/^\d+$/.test(text)) { return [0, parseInt(text, 10), "", row.match]; }
  return [text ? 1 : 2, 0, text.toLowerCase(), row.match];
}

function before(a, b) {
  for (var i = 0; i < a.length; i++) {
    if (a[i] < b[i]) { return true; }
    if (a[i] > b[i]) { return false; }
  }
  return false;
}

function field(card, name) { return card.querySelector("[data-field=" + name + "]"); }

function detail(row) {
  var live = row.status === "live";
  var over = live && row.phase !== "in_progress";
  var parts = [!row.round ? _("Not dealt yet")
    : over ? _("Round %(round)s over", { round: row.round }) : _("Round %(round)s", { round: row.round })];
  if (row.status === "disputed") {
    parts.push(ngettext("%(num)s open dispute", "%(num)s open disputes", row.disputes));
  }
  if (row.winner_name) {  // a partnership's verb agrees with two
    parts.push(row.rules.partnerships ? pgettext("partnership", "won by %(name)s", { name: row.winner_name })
                                      : _("won by %(name)s", { name: row.winner_name }));
  } else if (row.turn_name && live) {
    parts.push(_("%(name)s to play", { name: row.turn_name }));
  } else if (row.may_lead_names && row.may_lead_names.length && live) {
    var either = _(" or ");  // apart: the extractor reads no _() inside another's arguments
    parts.push(_("%(names)s to lead", { names: row.may_lead_names.join(either) }));
  }
  return parts.join(" · ");
}

function clock(iso) {
  var when = new Date(iso);
  if (isNaN(when.getTime())) { return ""; }
  try {
    var text = timeOfDay(when, { hour: "2-digit", minute: "2-digit", timeZone: ZONE });
    return ZONE === "UTC" ? text + " UTC" : text;
  } catch (e) { return iso.slice(11, 16) + " UTC"; }
}

function setTime(element, iso) {
  if (!element || !iso) { return; }
  element.setAttribute("datetime", iso);
  element.textContent = clock(iso);
}

function fill(card, row) {
  var id = "table-" + row.match;
  card.id = id;
  card.setAttribute("data-match", row.match);
  card.setAttribute("data-seq", row.seq);
  card.setAttribute("data-status", row.status);
  if (row.table === null || row.table === undefined) { card.removeAttribute("data-table"); }
  else { card.setAttribute("data-table", row.table); }
  card.firstElementChild.setAttribute("aria-labelledby", id + "-label");
  var label = field(card, "label");
  label.id = id + "-label";
  label.textContent = row.table === null || row.table === undefined
    ? _("Match %(id)s", { id: row.match }) : _("Table %(table)s", { table: row.table });
  field(card, "status").textContent = STATUS_TEXT[row.status] || row.status;
  var sides = field(card, "sides");
  while (sides.firstChild) { sides.removeChild(sides.firstChild); }
  row.sides.forEach(function (name, index) {
    var item = document.createElement("li");
    if (row.winner === index) { item.className = "winner"; }
    var side = document.createElement("span");
    side.className = "board-side";
    side.textContent = name;
    var total = document.createElement("span");
    total.className = "board-total";
    total.textContent = String(row.totals[index]);
    item.appendChild(side);
    item.appendChild(document.createTextNode(" "));
    item.appendChild(total);
    sides.appendChild(item);
  });
  var name = [];
  if (row.event) { name.push(row.event); }
  if (row.tournament_round) { name.push(_("Tournament round %(number)s", { number: row.tournament_round })); }
  field(card, "name").textContent = name.join(" · ");
  setTime(field(card, "time"), row.updated_at);
  field(card, "detail").textContent = detail(row);
  field(card, "counts").textContent = row.counts && row.counts.length && row.round
    ? _("Tiles in hand: %(counts)s", { counts: row.counts.join(" · ") })
      // the server says which word the undealt tiles take, if any (row.undealt, from
      // words.events.sleeping: Fives and Threes' sleep); this only renders it
      + (row.undealt ? "; " + UNDEALT[row.undealt](row.boneyard) : "")
    : "";
}

function place(card, row) {
  var key = tableKey(row);
  var next = null;
  Array.prototype.some.call(board.children, function (other) {
    if (other === card) { return false; }
    var theirs = other._row || rowOf(other);
    if (before(key, tableKey(theirs))) { next = other; return true; }
    return false;
  });
  if (card.nextSibling !== next || card.parentNode !== board) { board.insertBefore(card, next); }
}

function rowOf(card) {
  // a card the server drew: its table (data-table, none for a match without one) and match
  // id are all placing needs
  var table = card.getAttribute("data-table");
  return { match: parseInt(card.getAttribute("data-match"), 10), table: table === null ? null : table };
}

function show(row, flash, listed) {
  var card = document.getElementById("table-" + row.match);
  if (row.status === "abandoned") {  // withdrawn: it leaves the board
    if (card) { board.removeChild(card); }
    empty.hidden = board.children.length > 0;
    return;
  }
  // A table the board does not show is added while it is live, or when a snapshot lists it
  // (a ruling on an old finished match is no news for tonight's board).
  if (!card && !listed && row.status !== "live") { return; }
  var shown = card ? parseInt(card.getAttribute("data-seq"), 10) : -1;
  if (shown > row.seq) { return; }  // older news than the card's
  if (shown === row.seq) { flash = false; }  // sent again (a resume's margin): nothing new
  if (!card) { card = template.content.firstElementChild.cloneNode(true); }
  fill(card, row);
  card._row = row;
  place(card, row);
  if (flash) {
    card.classList.remove("changed");
    void card.offsetWidth;  // restart the highlight
    card.classList.add("changed");
  }
  empty.hidden = board.children.length > 0;
}

function snapshot(data) {
  var keep = {};
  data.rows.forEach(function (row) { keep[row.match] = true; show(row, false, true); });
  Array.prototype.slice.call(board.children).forEach(function (card) {
    if (!keep[card.getAttribute("data-match")]) { board.removeChild(card); }
  });
  empty.hidden = board.children.length > 0;
}

// ------------------------------------------------------------------ the stream

function dispatch(message) {
  if (message.id !== null) { cursor = message.id; }
  if (!message.data) { return; }
  var data;
  try { data = JSON.parse(message.data); } catch (e) { return; }
  if (message.event === "row") { show(data, true); }
  else if (message.event === "snapshot") { snapshot(data); }
}

function parse(block) {
  var message = { id: null, event: "message", data: "" };
  var lines = [];
  block.split(/\r\n|\r|\n/).forEach(function (line) {
    if (!line || line.charAt(0) === ":") { return; }  // a comment: the heartbeat
    var at = line.indexOf(":");
    var name = at < 0 ? line : line.slice(0, at);
    var value = at < 0 ? "" : line.slice(at + 1).replace(/^ /, "");
    if (name === "data") { lines.push(value); }
    else if (name === "event") { message.event = value; }
    else if (name === "id") { message.id = value; }
    else if (name === "retry" && /^\d+$/.test(value)) { retryMs = parseInt(value, 10); }
  });
  message.data = lines.join("\n");
  return message;
}

function later(ms) {
  if (timer) { return; }
  timer = window.setTimeout(function () { timer = null; connect(); }, ms);
}

function lost(text, ms) {
  window.clearTimeout(watchdog);
  if (controller) { controller.abort(); controller = null; }
  setState("reconnecting", text || _("Reconnecting…"));
  later(ms || retryMs);
}

function alive(current) {
  window.clearTimeout(watchdog);
  watchdog = window.setTimeout(function () {
    if (controller === current) { lost(_("Reconnecting (no word from the server)…")); }
  }, SILENCE_MS);
}

function connect() {
  var headers = authHeaders({ "Accept": "text/event-stream" });
  if (cursor) { headers["Last-Event-ID"] = cursor; }
  var current = new AbortController();
  controller = current;
  fetch(url, { headers: headers, cache: "no-store", credentials: "omit", signal: current.signal })
    .then(function (response) {
      if (controller !== current) { return null; }
      if (response.status === 401 || response.status === 403) {
        setState("signed-out", _("Not updating: sign in again (reload the page)"));
        controller = null;
        return null;
      }
      if (!response.ok || !response.body) {
        var wait = parseInt(response.headers.get("Retry-After") || "", 10);
        lost(_("Reconnecting…"), isNaN(wait) ? retryMs : wait * 1000);
        return null;
      }
      setState("live", _("Live"));
      alive(current);
      var reader = response.body.getReader();
      var decoder = new TextDecoder();
      var buffer = "";
      var pump = function () {
        return reader.read().then(function (chunk) {
          if (controller !== current) { return null; }
          if (chunk.done) { lost(_("Reconnecting…"), retryMs); return null; }
          alive(current);
          buffer += decoder.decode(chunk.value, { stream: true });
          var blocks = buffer.split(/\r\n\r\n|\n\n|\r\r/);
          buffer = blocks.pop();
          blocks.forEach(function (block) { dispatch(parse(block)); });
          return pump();
        });
      };
      return pump();
    })
    .catch(function () {
      if (controller === current) { lost(_("Reconnecting…"), retryMs); }
    });
}

// A phone that loses its network may keep a dead connection open for a long time: go by what
// the browser says, and come back at once when it is online again.
window.addEventListener("offline", function () { lost(_("Offline: reconnecting when the network is back…")); });
window.addEventListener("online", function () {
  if (!controller) { window.clearTimeout(timer); timer = null; connect(); }
});
connect();
