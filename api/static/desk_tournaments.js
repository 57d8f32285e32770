/* domino-referee tournament desk: the director's actions, each a call of the REST API with
 * the token kept in this tab (sessionStorage, client.js) as a bearer header.
 *
 * - New tournament (form[data-form=tournament-new]): POST .../tournaments, then its desk page.
 * - Enter (textarea[name=players], one name a line; "Ana & Beto" a partnership): each name is
 *   first checked (POST .../desk/tournaments/{t}/names, which writes nothing). A name that is a
 *   player, or new and close to nobody, is entered at once; a new name close to a player's is
 *   offered ([data-suggest]): enter that player, or say it is a new player
 *   (button[data-action=confirm-new]). Nothing close is ever taken silently.
 * - Withdraw, pair, re-pair, start the tables, set and lift constraints: one call each, then
 *   the page is fetched again (with the token) and shown in place, with what happened.
 * The server decides who may: a refusal's detail is shown as it comes (problem+json).
 * An ES module: its words from i18n.js, in the page's language (the page shown in place brings
 * its own); the token, the calls and the page shown in place from client.js.
 */
import {ask, focusWhenWired, reload as showAgain, say, sayKept, sayLater, storage, watchControls} from "./client.js";
import {_, listOf} from "./i18n.js";

watchControls();  // the status line said beside the control last used

var PENDING = "domino-referee.desk-pending";  // names still to confirm, across a reload
var each = function (list, fn) { Array.prototype.forEach.call(list, fn); };

// The page again, with the token, shown in place; what happened is said once it is shown.
function reload(text) { return showAgain(window.location.href, text); }

function refused(error) { say(error.message, "error"); }

function busy(button, on) { if (button) { button.disabled = on; } }

function repairNote(answer) {
  return answer && answer.repair
    ? " " + _("Round %(number)s is paired already: re-pair it for this to apply there.",
              { number: answer.repair })
    : "";
}

// ------------------------------------------------------------------ a new tournament

function initCreate(desk) {
  var form = document.querySelector("form[data-form=tournament-new]");
  if (!form) { return; }
  var rules = form.querySelector("select[name=rules]");
  var target = form.querySelector("input[name=target]");
  function placeholder() {
    var option = rules.options[rules.selectedIndex];
    target.placeholder = option ? option.getAttribute("data-target") : "";
  }
  rules.addEventListener("change", placeholder);
  placeholder();
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var value = function (name) { return form.querySelector("[name=" + name + "]").value.trim(); };
    var spec = { preset: value("rules") };
    if (value("target")) { spec.target = parseInt(value("target"), 10); }
    if (value("time_limit")) { spec.time_limit = parseInt(value("time_limit"), 10); }
    var body = { name: value("name"), slug: value("slug"), format: value("format"),
                 rules: spec, rounds: parseInt(value("rounds"), 10) };
    var button = form.querySelector("button[data-action=tournament-create]");
    busy(button, true);
    say(_("Creating…"));
    ask("POST", desk.getAttribute("data-api"), body).then(function (made) {
      sayLater(_("Tournament %(name)s created.", { name: made.name }));
      window.location.assign(desk.getAttribute("data-desk") + "/" + encodeURIComponent(made.slug));
    }).catch(function (error) { busy(button, false); refused(error); });
  });
}

// ------------------------------------------------------------------ entering players

function lines(text, rotating) {
  var out = [];
  var seen = {};
  each(text.split(/\r?\n/), function (line) {
    var names = rotating ? [line.trim()] : line.split(/\s*(?:&|\/|,)\s*/);
    names = names.map(function (n) { return n.trim(); }).filter(Boolean);
    var key = names.join(" & ").toLowerCase();
    if (names.length && !seen[key]) { seen[key] = true; out.push(names); }
  });
  return out;
}

function initEnter(desk) {
  var form = document.querySelector("form[data-form=enter]");
  if (!form) { return; }
  var rotating = desk.getAttribute("data-format") === "rotating";
  var box = document.getElementById("suggestions");
  var entrants = desk.getAttribute("data-api") + "/entrants";
  var entered = 0;
  var pending = [];   // lines waiting for a confirmation: {names, close, isNew}

  function enterLine(names, confirmed) {
    return ask("POST", entrants, { players: names, "new": !!confirmed }).then(function (answer) {
      entered += 1;
      return answer;
    });
  }

  // The page again with those entered; names still to confirm are offered on it.
  function finish() {
    var kept = storage();
    if (pending.length && kept) {
      kept.setItem(PENDING, JSON.stringify({ at: entrants, items: pending }));
    }
    reload(pending.length ? _("Entered: %(count)s. Confirm the names below.", { count: entered })
                          : _("Entered: %(count)s.", { count: entered }));
  }

  function offer(item) {
    // One [data-suggest] per name to confirm: the close players, or a new player.
    item.names.forEach(function (typed, index) {
      if (!item.close[index] || !item.close[index].length) { return; }
      var block = document.createElement("div");
      block.setAttribute("data-suggest", typed);
      block.setAttribute("role", "group");
      var text = document.createElement("p");
      text.textContent = _("%(name)s is not a player of the club, but close to: %(close)s. Did you mean one of them?",
                           { name: typed, close: listOf(item.close[index]) });
      block.setAttribute("aria-label", text.textContent);
      block.appendChild(text);
      var actions = document.createElement("div");
      actions.className = "actions";
      item.close[index].forEach(function (name) {
        var yes = document.createElement("button");
        yes.type = "button";
        yes.setAttribute("data-action", "confirm");
        yes.setAttribute("data-name", name);
        yes.textContent = _("Yes: %(name)s", { name: name });
        yes.addEventListener("click", function () { settle(item, index, name, false, block); });
        actions.appendChild(yes);
      });
      var fresh = document.createElement("button");
      fresh.type = "button";
      fresh.className = "secondary";
      fresh.setAttribute("data-action", "confirm-new");
      fresh.textContent = _("No: %(name)s is a new player", { name: typed });
      fresh.addEventListener("click", function () { settle(item, index, typed, true, block); });
      actions.appendChild(fresh);
      block.appendChild(actions);
      box.appendChild(block);
    });
  }

  function settle(item, index, name, isNew, block) {
    item.names[index] = name;
    item.close[index] = [];
    item.isNew = item.isNew || isNew;
    block.remove();
    if (item.close.some(function (c) { return c && c.length; })) { return; }
    enterLine(item.names, item.isNew).then(function () {
      pending.splice(pending.indexOf(item), 1);
      finish();
    }).catch(function (error) {
      pending.splice(pending.indexOf(item), 1);
      refused(error);
    });
    var first = box.querySelector("button");
    if (first) { first.focus(); }
  }

  var kept = storage();
  var left = kept && kept.getItem(PENDING);
  if (left) {
    kept.removeItem(PENDING);
    try { left = JSON.parse(left); } catch (e) { left = null; }
    if (left && left.at === entrants && left.items && left.items.length) {
      pending = left.items;
      pending.forEach(offer);
      var first = box.querySelector("button");
      if (first) { focusWhenWired(first); }
    }
  }

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var area = form.querySelector("textarea[name=players]");
    var wanted = lines(area.value, rotating);
    if (!wanted.length) { say(_("Type the names to enter, one a line."), "error"); return; }
    var flat = [].concat.apply([], wanted);
    var button = form.querySelector("button[data-action=enter]");
    busy(button, true);
    say(_("Checking the names…"));
    entered = 0;
    box.textContent = "";
    ask("POST", desk.getAttribute("data-names"), { names: flat }).then(function (rows) {
      var at = 0;
      var items = wanted.map(function (names) {
        var found = rows.slice(at, at + names.length);
        at += names.length;
        return { names: found.map(function (r) { return r.player || r.typed; }),
                 close: found.map(function (r) { return r.close; }), isNew: false,
                 already: found.every(function (r) { return r.entrant !== null; }) };
      });
      // in the order pasted: the plain ones entered one after another, the rest offered
      var chain = Promise.resolve();
      items.forEach(function (item) {
        if (item.already) { return; }
        if (item.close.some(function (c) { return c.length; })) { pending.push(item); return; }
        chain = chain.then(function () { return enterLine(item.names, false); });
      });
      return chain.then(function () {
        area.value = "";
        busy(button, false);
        finish();
      });
    }).catch(function (error) { busy(button, false); refused(error); });
  });
}

// ------------------------------------------------------------------ rounds and entrants

function initActions(desk) {
  var base = desk.getAttribute("data-api");
  function on(action, fn) {
    each(document.querySelectorAll("button[data-action=" + action + "]"), function (button) {
      button.addEventListener("click", function () {
        busy(button, true);
        say(_("Working…"));
        fn(button).catch(function (error) { busy(button, false); refused(error); });
      });
    });
  }
  on("withdraw", function (button) {
    return ask("POST", base + "/entrants/" + button.getAttribute("data-entrant") + "/withdraw")
      .then(function (answer) {
        reload(_("%(name)s withdrawn.", { name: answer.name }) + repairNote(answer));
      });
  });
  on("pair", function () {
    return ask("POST", base + "/rounds").then(function (round) {
      reload(_("Round %(number)s paired; tables: %(count)s.",
               { number: round.number, count: round.tables.length }));
    });
  });
  on("re-pair", function (button) {
    return ask("POST", base + "/rounds/" + button.getAttribute("data-round") + "/repair")
      .then(function (round) { reload(_("Round %(number)s re-paired.", { number: round.number })); });
  });
  on("start-tables", function (button) {
    return ask("POST", base + "/rounds/" + button.getAttribute("data-round") + "/start")
      .then(function (round) {
        var ready = round.tables.filter(function (t) { return t.match !== null; }).length;
        reload(_("Round %(number)s: %(ready)s of %(count)s tables have their match.",
                 { number: round.number, ready: ready, count: round.tables.length }));
      });
  });
  on("lift", function (button) {
    return ask("DELETE", base + "/constraints/" + button.getAttribute("data-constraint"))
      .then(function (answer) { reload(_("Constraint lifted.") + repairNote(answer)); });
  });
}

function initConstraints(desk) {
  var form = document.querySelector("form[data-form=constraint]");
  if (!form) { return; }
  var kind = form.querySelector("select[name=kind]");
  function fields() {
    each(form.querySelectorAll("[data-for]"), function (field) {
      field.hidden = field.getAttribute("data-for").split(" ").indexOf(kind.value) < 0;
    });
  }
  kind.addEventListener("change", fields);
  fields();
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var value = function (name) { return form.querySelector("[name=" + name + "]").value.trim(); };
    var chosen = kind.value;
    var body = { kind: chosen === "partners" ? "forbidden" : chosen,
                 entrant: parseInt(value("entrant"), 10) };
    if (chosen === "partners") { body.scope = "partners"; }
    if (chosen === "forbidden" || chosen === "partners") { body.other = parseInt(value("other"), 10); }
    if (chosen === "fixed_table") { body.table = parseInt(value("table"), 10); }
    if (chosen === "bye") { body.round = parseInt(value("round"), 10); }
    if (value("note")) { body.note = value("note"); }
    var button = form.querySelector("button[data-action=constraint-add]");
    busy(button, true);
    ask("POST", desk.getAttribute("data-api") + "/constraints", body).then(function (made) {
      reload(_("Constraint set.") + repairNote(made));
    }).catch(function (error) { busy(button, false); refused(error); });
  });
}

function init() {
  var desk = document.getElementById("desk");
  if (!desk) { return; }
  sayKept();
  initCreate(desk);
  initEnter(desk);
  initActions(desk);
  initConstraints(desk);
}

init();  // a module runs once the document is parsed
