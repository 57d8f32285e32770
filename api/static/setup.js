/* domino-referee: the first club's page (/setup#code=..., the link domino serve prints on a
 * database with no club). Plain JavaScript, no build step, no library.
 *
 * The code is taken out of the address bar at once and kept in this tab's sessionStorage until
 * it is used (a reload still finds it); it goes to the server only in request bodies, never in
 * an address. The page asks whether the code still works (POST /api/v1/setup/check), then
 * makes the club (POST /api/v1/setup) and shows the secretary's token once, keeping it in this
 * tab as a club page's sign-in does, so that the club desk opens signed in.
 * An ES module: its words from i18n.js, in the page's language; the tab's token (the club
 * pages' and the desk's) from client.js.
 */
import {keepToken, say, storage, watchControls} from "./client.js";
import {_} from "./i18n.js";

watchControls();  // the status line said beside the control last used

var CODE = /(?:^#|&)code=([^&]+)/;
var CODE_KEY = "domino-referee.setup-code";

var STATUS = "setup-status";

function takeCode() {
  var kept = storage();
  var found = CODE.exec(window.location.hash);
  if (found) {
    window.history.replaceState(null, "", window.location.pathname + window.location.search);
    var code;
    try { code = decodeURIComponent(found[1]); } catch (e) { code = found[1]; }
    if (kept) { kept.setItem(CODE_KEY, code); }
    return code;
  }
  return kept ? kept.getItem(CODE_KEY) : null;
}

function post(path, body) {
  return fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json", "Accept": "application/json" },
    body: JSON.stringify(body),
    cache: "no-store",
    credentials: "same-origin"
  }).then(function (response) {
    return response.json().catch(function () { return {}; }).then(function (answer) {
      return { status: response.status, body: answer };
    });
  });
}

function refused(answer) {
  return answer.body.detail || String(answer.status);
}

function forget() {
  var kept = storage();
  if (kept) { kept.removeItem(CODE_KEY); }
}

function made(answer) {
  forget();
  keepToken(answer.body.token);
  var section = document.querySelector("[data-made]");
  section.querySelector("[data-token]").textContent = answer.body.token;
  section.querySelector("[data-link=desk]").setAttribute("href", answer.body.desk);
  section.querySelector("[data-no-key]").hidden = Boolean(answer.body.signing_key);
  document.querySelector("form[data-form=setup]").hidden = true;
  section.hidden = false;
  say(_("The club %(name)s is made.", { name: answer.body.club.name }), "ok", STATUS);
  section.querySelector("h2").focus();
}

function init() {
  var form = document.querySelector("form[data-form=setup]");
  var code = takeCode();
  if (!code) {
    say(_("This page makes the first club with the link the server printed when it started: open that link."), "ok", STATUS);
    return;
  }
  say(_("Checking the link…"), "ok", STATUS);
  post("/api/v1/setup/check", { code: code }).then(function (answer) {
    if (answer.status !== 200) {
      if (answer.status === 401) { forget(); }
      say(_("This link makes no club: %(reason)s.", { reason: refused(answer) }), "error", STATUS);
      return;
    }
    say("", "ok", STATUS);
    form.hidden = false;
    form.elements.name.focus();
  }).catch(function () {
    say(_("The server could not be reached: try again."), "error", STATUS);
  });
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var button = form.querySelector("button[data-action=setup]");
    button.disabled = true;
    say(_("Making the club…"), "ok", STATUS);
    post("/api/v1/setup", { code: code, name: form.elements.name.value,
                            language: form.elements.language.value,
                            default_rules: form.elements.default_rules.value || null })
      .then(function (answer) {
        button.disabled = false;
        if (answer.status === 201) { made(answer); return; }
        if (answer.status === 401) { forget(); form.hidden = true; }
        say(_("The club was not made: %(reason)s.", { reason: refused(answer) }), "error", STATUS);
      }).catch(function () {
        button.disabled = false;
        say(_("The server could not be reached: try again."), "error", STATUS);
      });
  });
}

init();  // a module runs once the document is parsed
