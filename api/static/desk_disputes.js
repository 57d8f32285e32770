/* domino-referee: the disputes desk (api/templates/desk/disputes.html; docs/desk.md).
 *
 * Each open dispute ([data-dispute="MATCH:SEQ"]) has a ruling form. Preview (its submit, so
 * Enter in a field previews, never records) asks the desk for what the ruling would record
 * and do, nothing stored, and shows the server's words in [data-preview]. Only then may
 * "Record the ruling" be pressed: it appends those events through the events API with
 * If-Match (the last event this page was shown) and an Idempotency-Key made at the preview,
 * so a retry or a second press never records twice. Changing the form forgets the preview.
 * A stale page (another desk ruled first: 412) says so and reloads; so does a ruling
 * recorded. The token is the one the sign-in page keeps in this tab (client.js), sent only as
 * a bearer header. An ES module: its words from i18n.js.
 */
import {headers as callHeaders, sayKept, sayLater} from "./client.js";
import {_} from "./i18n.js";

function randomKey() {
  var bytes = new Uint8Array(16);
  window.crypto.getRandomValues(bytes);
  return Array.prototype.map.call(bytes, function (b) {
    return (b < 16 ? "0" : "") + b.toString(16);
  }).join("");
}

function headers(extra) {
  return callHeaders(Object.assign({ "Content-Type": "application/json" }, extra || {}));
}

// Say something once the page is shown again (after a reload, which signs in anew).
function reloadSaying(text) {
  sayLater(text);
  window.location.reload();
}

function messageOf(response) {
  return response.json().then(function (body) {
    return body.message || body.detail || body.title || String(response.status);
  }, function () { return _("The server answered %(status)s.", { status: response.status }); });
}

var STALE = function () {
  return _("Another desk ruled first: the disputes are shown again as they stand now.");
};

function initDispute(article) {
  var form = article.querySelector("form[data-form=ruling]");
  var ruling = form.querySelector("select[name=ruling]");
  var points = form.querySelector("input[name=points]");
  var reason = form.querySelector("input[name=reason]");
  var amend = form.querySelector("input[name=event]");
  var amendField = form.querySelector("[data-amend]");
  var box = article.querySelector("[data-preview]");
  var status = article.querySelector("[data-status]");
  var rule = article.querySelector("button[data-action=rule]");
  var previewButton = article.querySelector("button[data-action=preview]");
  var match = article.getAttribute("data-match");
  var seq = Number(article.getAttribute("data-seq"));
  var seen = Number(article.getAttribute("data-last-seq"));
  var pending = null; // the previewed ruling: its events and its idempotency key
  var busy = false;
  var changes = 0; // the form's changes so far: a preview asked before the last is of another form

  function say(text) { status.textContent = text; }

  function fit() {
    // Points matter to a penalty only; the corrected event to an amend only.
    points.disabled = ruling.value !== "penalty";
    amendField.hidden = ruling.value !== "amend";
    // What the chosen ruling does, by the sides' names, beside the menu (none for some).
    article.querySelectorAll("[data-ruling-help] [data-for]").forEach(function (line) {
      line.hidden = line.getAttribute("data-for") !== ruling.value;
    });
  }

  function forget() {
    if (busy) { return; }
    changes += 1;
    pending = null;
    rule.disabled = true;
    box.innerHTML = "";
  }

  function body() {
    var event = null;
    if (ruling.value === "amend") {
      try { event = JSON.parse(amend.value); } catch (e) { return null; }
    }
    var count = points.value === "" ? null : Number(points.value);
    return { ruling: ruling.value, reason: reason.value.trim(), seen: seen, event: event,
             points: ruling.value === "penalty" ? count : null };
  }

  function preview() {
    forget();
    if (!reason.value.trim()) {
      say(_("Give the ruling's reason: it goes on the record and the dispute sheet."));
      reason.focus();
      return;
    }
    var asked = body();
    if (asked === null) {
      say(_("The corrected event is not a log line (JSON), as in {\"type\": \"draw\", \"seat\": 1}."));
      amend.focus();
      return;
    }
    say(_("Previewing…"));
    previewButton.disabled = true;
    var asOf = changes;
    fetch(window.location.pathname.replace(/\/$/, "") + "/" + match + "/" + seq + "/preview", {
      method: "POST", headers: headers(), body: JSON.stringify(asked), cache: "no-store",
      credentials: "same-origin"
    }).then(function (response) {
      previewButton.disabled = false;
      if (response.status === 412) { reloadSaying(STALE()); return null; }
      if (!response.ok) { return messageOf(response).then(say); }
      return response.json().then(function (answer) {
        // The form changed while the server was answering (a slow answer): the preview is of
        // what the form said then, and recording it would record what it no longer says.
        if (asOf !== changes) {
          say(_("The ruling was changed while it was being previewed: preview it again."));
          return;
        }
        box.innerHTML = answer.html; // the server's words, escaped there
        if (answer.refused) {
          say(_("Preview ready: this ruling would be refused, so it cannot be recorded."));
          return;
        }
        pending = { events: answer.events, key: randomKey() };
        rule.disabled = false;
        say(_("Preview ready: check it, then record the ruling."));
      });
    }).catch(function () {
      previewButton.disabled = false;
      say(_("The server could not be reached: try again."));
    });
  }

  function append(index) {
    if (index >= pending.events.length) {
      reloadSaying(_("Recorded: the ruling on event %(seq)s of match %(match)s. Its dispute sheet is listed under “Ruled last”.",
                     { seq: seq, match: match }));
      return null;
    }
    return fetch("/api/v1/matches/" + match + "/events", {
      method: "POST", cache: "no-store", credentials: "same-origin",
      headers: headers({ "If-Match": "\"" + (seen + index) + "\"",
                         "Idempotency-Key": pending.key + "-" + index }),
      body: JSON.stringify(pending.events[index])
    }).then(function (response) {
      if (response.status === 412) { reloadSaying(STALE()); return null; }
      if (!response.ok) {
        busy = false;
        rule.disabled = false; // a retry sends the same keys: nothing is recorded twice
        return messageOf(response).then(say);
      }
      return append(index + 1);
    });
  }

  function record() {
    if (!pending || busy) { return; }
    busy = true;
    rule.disabled = true;
    say(_("Recording the ruling…"));
    append(0).catch(function () {
      busy = false;
      rule.disabled = false;
      say(_("The server could not be reached: try again (it will not be recorded twice)."));
    });
  }

  fit();
  ruling.addEventListener("change", function () { fit(); forget(); });
  form.addEventListener("input", forget);
  form.addEventListener("submit", function (event) { event.preventDefault(); preview(); });
  rule.addEventListener("click", record);
}

function init() {
  sayKept();
  Array.prototype.forEach.call(document.querySelectorAll("[data-dispute]"), initDispute);
}

init();  // a module runs once the document is parsed
