/* domino-referee club desk (/clubs/{club}/desk, docs/desk.md): each action is a call of the
 * REST API with the token kept in this tab (client.js: this tab's sessionStorage), as a bearer
 * header only. No rule and no access decision here: the server answers each call, and the
 * page shows its answer (a problem's detail when it refuses). After a change the sections are
 * read again from the server (the page fetched with the token, its sections put in place).
 * An ES module: its words from i18n.js, in the page's language; the token, the calls and the
 * status line from client.js.
 */
import {call, every, problem, say, watchControls} from "./client.js";
import {_, ngettext} from "./i18n.js";

watchControls();  // the status line said beside the control last used

// Read the page again with the token and put its lists (by id: players-list, tokens-list,
// matches-list) in place of these; the forms, and a token shown once, stay as they are.
// A list is put in place only from a read asked after the one it shows: the answer to an
// earlier read that comes late (the 25 s tick's, asked before an action whose own read was
// answered first) would put back the list as it was before the action.
var reads = 0;  // the reads asked so far, each numbered
var shownRead = {};  // list id -> the number of the read it was put in place from

function refresh(ids) {
  var read = ++reads;
  return call("GET", window.location.pathname, undefined, { "Accept": "text/html" })
    .then(function (answer) {
      if (answer.status !== 200) { return; }
      var fresh = new DOMParser().parseFromString(answer.body, "text/html");
      ids.forEach(function (id) {
        if ((shownRead[id] || 0) > read) { return; }
        var now = document.getElementById(id);
        var then = fresh.getElementById(id);
        if (now && then) {
          now.replaceWith(document.importNode(then, true));
          shownRead[id] = read;
        }
      });
      // The new tables laid out as the page's own (cards on a phone: pages.js), their
      // clocks at once rather than at the next second.
      document.dispatchEvent(new CustomEvent("domino:content"));
      tickClocks();
    });
}

// The desk's page (desk/base.html, the one page that loads this module, always has it).
var desk = document.getElementById("desk");
var club = desk.getAttribute("data-club");
var clubPath = "/api/v1/clubs/" + encodeURIComponent(club);

// ------------------------------------------------------------------ settings

// One PATCH with every setting of the form: the server changes them all or, refusing one,
// none (its problem says which).
function saveSettings(form) {
  var target = form.elements["default_target"].value.trim();
  var body = { name: form.elements["name"].value.trim(),
               public: form.elements["public"].checked,
               language: form.elements["language"].value || null,
               default_rules: form.elements["default_rules"].value || null,
               // a number as typed: the server refuses what is not a whole number in range
               default_target: target ? Number(target) : null,
               tie_breakers: chosenBreakers(form),
               timezone: form.elements["timezone"].value.trim() || null };
  say(_("Saving…"));
  call("PATCH", clubPath, body).then(function (answer) {
    if (answer.status === 200) {
      drawBreakers(form, answer.body.tie_breakers);
      form.elements["name"].value = answer.body.name;
      var brand = document.querySelector(".brand a");
      if (brand) { brand.textContent = answer.body.name; }
      document.title = document.title.replace(/ · .*$/, " · " + answer.body.name);
      say(_("The settings are saved."));
    } else {
      say(problem(answer), "error");
    }
  });
}

// ------------------------------------------------------------------ tie-breakers

// The tie-breakers chosen, in order: a list of their names in words (each li's data-code is
// what the server is sent), reordered, removed and added with buttons; never a code to type.
function chosenBreakers(form) {
  return Array.prototype.map.call(form.querySelectorAll("[data-chosen] li"), function (item) {
    return item.getAttribute("data-code");
  });
}

function breakerWord(form, code) {
  var option = form.querySelector("select[name=tie_breaker_add] option[value='" + code + "']");
  return option ? option.textContent : code;
}

function breakerButton(action, label, text, disabled) {
  var button = document.createElement("button");
  button.type = "button";
  button.className = "secondary";
  button.setAttribute("data-action", action);
  button.setAttribute("aria-label", label);
  button.textContent = text;
  button.disabled = disabled;
  return button;
}

// The list drawn again for `codes`; focus: the code whose row (or the add field) gets it.
function drawBreakers(form, codes, focus) {
  var list = form.querySelector("[data-chosen]");
  list.replaceChildren();
  codes.forEach(function (code, index) {
    var name = breakerWord(form, code);
    var item = document.createElement("li");
    item.setAttribute("data-code", code);
    var word = document.createElement("span");
    word.className = "breaker";
    word.textContent = name;
    var moves = document.createElement("span");
    moves.className = "moves";
    moves.append(
      breakerButton("breaker-up", _("Move %(name)s up", { name: name }), "↑", index === 0),
      breakerButton("breaker-down", _("Move %(name)s down", { name: name }), "↓", index === codes.length - 1),
      breakerButton("breaker-remove", _("Remove %(name)s", { name: name }), _("Remove"), codes.length === 1));
    item.append(word, " ", moves);
    list.appendChild(item);
  });
  var add = form.querySelector("select[name=tie_breaker_add]");
  Array.prototype.forEach.call(add.options, function (option) {
    option.disabled = codes.indexOf(option.value) >= 0;
  });
  var free = Array.prototype.filter.call(add.options, function (option) { return !option.disabled; });
  add.value = free.length ? free[0].value : "";
  add.disabled = form.querySelector("button[data-action=breaker-add]").disabled = !free.length;
  if (focus) {
    var row = list.querySelector("li[data-code='" + focus.code + "'] button[data-action=" + focus.action + "]");
    var target = row && !row.disabled ? row : list.querySelector("li[data-code='" + focus.code + "'] button:not([disabled])");
    (target || add).focus();
  }
}

function moveBreaker(button) {
  var form = button.closest("form");
  var codes = chosenBreakers(form);
  var action = button.getAttribute("data-action");
  if (action === "breaker-default") {
    drawBreakers(form, form.querySelector("[data-tie-breakers]").getAttribute("data-default").split(","));
    return;
  }
  if (action === "breaker-add") {
    var code = form.elements["tie_breaker_add"].value;
    if (code && codes.indexOf(code) < 0) { codes.push(code); }
    drawBreakers(form, codes, { code: code, action: "breaker-up" });
    return;
  }
  var item = button.closest("li");
  var at = codes.indexOf(item.getAttribute("data-code"));
  var moved = codes[at];
  if (action === "breaker-remove") { codes.splice(at, 1); }
  else {
    var to = action === "breaker-up" ? at - 1 : at + 1;
    codes.splice(at, 1);
    codes.splice(to, 0, moved);
  }
  drawBreakers(form, codes, action === "breaker-remove" ? null : { code: moved, action: action });
  if (action === "breaker-remove") { form.elements["tie_breaker_add"].focus(); }
}

// ------------------------------------------------------------------ players

var pendingName = null;

function suggestBox() { return document.querySelector("[data-suggest]"); }

function addPlayer(name, confirmed) {
  var body = { name: name };
  if (confirmed) { body["new"] = true; }
  say(_("Adding %(name)s…", { name: name }));
  call("POST", clubPath + "/players", body).then(function (answer) {
    var box = suggestBox();
    if (answer.status === 201) {
      box.hidden = true;
      pendingName = null;
      var form = document.querySelector("form[data-form=player-add]");
      form.elements["name"].value = "";
      say(_("%(name)s is a player of the club now.", { name: answer.body.name }));
      refresh(["players-list"]).then(function () { form.elements["name"].focus(); });
    } else if (answer.status === 422 && answer.body && answer.body.suggestions) {
      // A name close to a player's: the server's "did you mean", then confirm or cancel.
      pendingName = name;
      box.querySelector("[data-suggest-text]").textContent = problem(answer) + ".";
      box.hidden = false;
      say(_("Check the name first."), "warn");
      box.querySelector("button[data-action=confirm-new]").focus();
    } else {
      say(problem(answer), "error");
    }
  });
}

function rowOf(node) { return node.closest("tr[data-player-id]"); }

var current = null;  // the player row a dialog is about

function openRename(row) {
  current = row;
  var dialog = document.getElementById("rename-dialog");
  var form = dialog.querySelector("form");
  form.reset();
  dialog.querySelector("[data-dialog-text]").textContent =
    _("%(name)s keeps their matches; the standings show the new name.", { name: row.getAttribute("data-name") });
  form.elements["name"].value = row.getAttribute("data-name");
  dialog.showModal();
  form.elements["name"].select();
}

function rename(form) {
  var id = current.getAttribute("data-player-id");
  var body = { name: form.elements["name"].value.trim(), reason: form.elements["reason"].value.trim() };
  call("POST", clubPath + "/players/" + id + "/rename", body).then(function (answer) {
    if (answer.status === 200) {
      document.getElementById("rename-dialog").close();
      say(_("Renamed: %(name)s.", { name: answer.body.name }));
      refresh(["players-list"]);
    } else {
      say(problem(answer), "error");
    }
  });
}

function openMerge(row) {
  current = row;
  var dialog = document.getElementById("merge-dialog");
  var form = dialog.querySelector("form");
  form.reset();
  var select = form.elements["into"];
  select.replaceChildren();
  document.querySelectorAll("tr[data-player-id]").forEach(function (other) {
    if (other === row) { return; }
    var option = document.createElement("option");
    option.value = other.getAttribute("data-player-id");
    option.textContent = other.getAttribute("data-name");
    select.appendChild(option);
  });
  // What moves: the player's matches, read from the server (how many it sits in).
  call("GET", clubPath + "/players/" + row.getAttribute("data-player-id")).then(function (answer) {
    form.setAttribute("data-matches", answer.status === 200 ? answer.body.matches : "");
    explainMerge(form);
  });
  explainMerge(form);
  dialog.showModal();
  select.focus();
}

function explainMerge(form) {
  var select = form.elements["into"];
  var into = select.options[select.selectedIndex];
  var text = form.querySelector("[data-merge-confirmation]");
  if (!into) { text.textContent = _("There is no other player to merge into."); return; }
  var from = current.getAttribute("data-name");
  var count = form.getAttribute("data-matches");
  var moves = count === null || count === "" ? _("Every match of %(from)s", { from: from })
    : ngettext("%(num)s match of %(from)s", "%(num)s matches of %(from)s",
                                  Number(count), { from: from });
  text.textContent = _("%(moves)s will count for %(into)s, and the name %(from)s will find %(into)s from then on. Both histories keep the merge; it is not undone here.",
                       { moves: moves, into: into.textContent, from: from });
}

function merge(form) {
  var id = current.getAttribute("data-player-id");
  var body = { into: Number(form.elements["into"].value), reason: form.elements["reason"].value.trim() };
  call("POST", clubPath + "/players/" + id + "/merge", body).then(function (answer) {
    if (answer.status === 200) {
      document.getElementById("merge-dialog").close();
      say(_("Merged into %(name)s.", { name: answer.body.name }));
      refresh(["players-list"]);
    } else {
      say(problem(answer), "error");
    }
  });
}

// ------------------------------------------------------------------ tokens

function issueToken(form) {
  var body = { role: form.elements["role"].value, label: form.elements["label"].value.trim() || null };
  say(_("Issuing the token…"));
  call("POST", clubPath + "/signin-codes", body).then(function (answer) {
    if (answer.status !== 201) { say(problem(answer), "error"); return; }
    var issued = document.querySelector("[data-issued]");
    issued.querySelector("[data-token]").textContent = answer.body.token;
    // The QR code of /score#code=... (or of this desk's, for a referee's or a secretary's
    // token: answer.body.opens): the code goes to the server in a body, never an address.
    Array.prototype.forEach.call(issued.querySelectorAll("[data-qr-opens]"), function (caption) {
      caption.hidden = caption.getAttribute("data-qr-opens") !== answer.body.opens;
    });
    return call("POST", "/clubs/" + encodeURIComponent(club) + "/desk/qr", { code: answer.body.code })
      .then(function (qr) {
        var img = issued.querySelector("[data-qr]");
        if (qr.status === 200) {
          img.src = "data:image/svg+xml;base64," + window.btoa(qr.body);
          img.hidden = false;
        } else {
          img.hidden = true;
        }
        issued.hidden = false;
        form.reset();
        say(_("Token issued: it is shown below this once."));
        return refresh(["tokens-list"]);
      });
  });
}

function revoke(row) {
  var label = row.querySelector("th").textContent.trim();
  if (!window.confirm(_("Revoke the token %(label)s? Whoever holds it is signed out at once.", { label: label }))) { return; }
  call("DELETE", clubPath + "/tokens/" + row.getAttribute("data-token-id")).then(function (answer) {
    if (answer.status === 200) {
      say(_("The token %(label)s is revoked.", { label: label }));
      refresh(["tokens-list"]);
    } else {
      say(problem(answer), "error");
    }
  });
}

// ------------------------------------------------------------------ matches

var withdrawing = null;  // the match row the withdraw dialog is about

function openAbandon(row) {
  withdrawing = row;
  var dialog = document.getElementById("abandon-dialog");
  dialog.querySelector("form").reset();
  dialog.querySelector("[data-dialog-text]").textContent =
    _("Match %(id)s ends with no result and counts nowhere.", { id: row.getAttribute("data-match-id") });
  dialog.showModal();
  dialog.querySelector("input[name=reason]").focus();
}

function abandon(form) {
  var row = withdrawing;
  var id = row.getAttribute("data-match-id");
  var seq = row.getAttribute("data-last-seq");
  // If-Match: the record as the desk showed it (a match dealt meanwhile is not withdrawn
  // blindly); the Idempotency-Key makes a retried click one event.
  var headers = { "If-Match": "\"" + seq + "\"", "Idempotency-Key": "desk-abandon-" + id + "-" + seq };
  var body = { type: "abandon", reason: form.elements["reason"].value.trim() };
  call("POST", "/api/v1/matches/" + id + "/events", body, headers).then(function (answer) {
    if (answer.status === 201 || answer.status === 200) {
      document.getElementById("abandon-dialog").close();
      say(_("Match %(id)s is withdrawn.", { id: id }));
      refresh(["matches-list"]);
    } else {
      say(problem(answer), "error");
    }
  });
}

// ------------------------------------------------------------------ a timed match's clock

// The elapsed time of a clock started at ISO date-time `started`: "1:05:09" or "12:04" (the
// phone's format, score/words.js elapsed()).
function elapsedText(started, now) {
  var seconds = Math.max(0, Math.floor((now - Date.parse(started)) / 1000));
  var two = function (n) { return String(n).padStart(2, "0"); };
  var h = Math.floor(seconds / 3600), m = Math.floor((seconds % 3600) / 60), s = seconds % 60;
  return h ? h + ":" + two(m) + ":" + two(s) : m + ":" + two(s);
}

// Each clock on the page, now: its elapsed time, and whether the limit is passed (said while
// time is not called yet; once called, the row says so and the clock runs on). The start, the
// limit and the call are the server's (the row's data-*); only the seconds are the browser's.
function tickClocks() {
  var now = Date.now();
  document.querySelectorAll("[data-clock][data-started]").forEach(function (clock) {
    var started = clock.getAttribute("data-started");
    clock.querySelector("[data-elapsed]").textContent = elapsedText(started, now);
    var passed = now - Date.parse(started) >= Number(clock.getAttribute("data-limit")) * 60000;
    var open = passed && !clock.hasAttribute("data-time-called");
    clock.toggleAttribute("data-passed", open);
    clock.querySelector("[data-over]").hidden = !open;
  });
}

// Time: the desk's endpoint records the match's `time` event (the recording use case decides:
// a second call, from another desk, is refused and said). Then the list is read again.
function callTime(button) {
  var row = button.closest("tr[data-match-id]");
  var id = row.getAttribute("data-match-id");
  button.disabled = true;
  say(_("Calling time in match %(id)s…", { id: id }));
  call("POST", "/clubs/" + encodeURIComponent(club) + "/desk/matches/" + id + "/time")
    .then(function (answer) {
      var refused = answer.status === 201 ? null : problem(answer);
      if (refused === null) {
        say(_("Time is called in match %(id)s: the round in play, or the next one dealt, is the last.", { id: id }));
      } else {
        say(refused, "error");
      }
      return refresh(["matches-list"]).then(function () { matchesRead(id, refused); });
    }, function () { button.disabled = false; });
}

// After the matches were read again: a refusal said in the match's row too, where the
// button was pressed (the status line may be out of sight).
function matchesRead(id, refused) {
  var cell = document.querySelector("tr[data-match-id='" + id + "'] td.clock");
  if (refused !== null && cell) {
    var note = document.createElement("p");
    note.className = "refused";
    note.setAttribute("data-refused", "");
    note.textContent = refused;
    cell.appendChild(note);
  }
}

tickClocks();
every(tickClocks, 1000);

// ------------------------------------------------------------------ the matches, kept fresh

// Every 25 s the matches list is read again (refresh), so a match started, finished or
// withdrawn at a table shows without a reload; not while the tab is hidden (none is read
// then; the list is read again as soon as it shows), nor while a dialog is open or a field
// of the matches section has the focus (nothing is replaced under someone's hands).
function keepMatchesFresh() {
  var EVERY = 25000;
  if (!document.getElementById("matches-list")) { return; }
  var last = Date.now();
  function busy() {
    var focus = document.activeElement;
    return document.querySelector("dialog[open]") !== null ||
      (focus && focus.closest && focus.closest("[data-section=matches]") &&
       focus.matches("input, select, textarea"));
  }
  function tick() {
    if (document.visibilityState !== "visible" || busy()) { return; }
    last = Date.now();
    refresh(["matches-list"]).catch(function () { /* said by call(); next tick tries again */ });
  }
  every(tick, EVERY);
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible" && Date.now() - last >= EVERY) { tick(); }
  });
}
keepMatchesFresh();

// ------------------------------------------------------------------ wiring

// Delegated: rows and tables put in place by refresh() need no new listeners.
document.addEventListener("submit", function (event) {
  var form = event.target;
  var kind = form.getAttribute("data-form");
  if (!kind) { return; }
  event.preventDefault();
  if (kind === "settings") { saveSettings(form); }
  else if (kind === "player-add") {
    var name = form.elements["name"].value.trim();
    if (name) { addPlayer(name, false); }
  }
  else if (kind === "rename") { rename(form); }
  else if (kind === "merge") { merge(form); }
  else if (kind === "token-issue") { issueToken(form); }
  else if (kind === "abandon") { abandon(form); }
});

document.addEventListener("change", function (event) {
  if (event.target.name === "into") { explainMerge(event.target.form); }
});

document.addEventListener("click", function (event) {
  var button = event.target.closest("button[data-action]");
  if (!button) { return; }
  var action = button.getAttribute("data-action");
  if (action === "confirm-new" && pendingName) { addPlayer(pendingName, true); }
  else if (action === "cancel-new") { suggestBox().hidden = true; pendingName = null; say(""); }
  else if (action === "rename") { openRename(rowOf(button)); }
  else if (action === "merge") { openMerge(rowOf(button)); }
  else if (action === "close-dialog") { button.closest("dialog").close(); }
  else if (action === "revoke") { revoke(button.closest("tr[data-token-id]")); }
  else if (action === "abandon") { openAbandon(button.closest("tr[data-match-id]")); }
  else if (action === "time") { callTime(button); }
  else if (action.indexOf("breaker-") === 0) { moveBreaker(button); }
});
