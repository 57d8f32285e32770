/* domino-referee: how the club pages, the desk and the scoreboard talk to the server, once.

   - The token: kept in this tab's sessionStorage (the sign-in page keeps it), sent only as a
     bearer header, never in an address, a cookie or a form post. The scorekeeper's phone keeps
     its own in localStorage (score/session.js): a phone stays signed in, a desk's tab does not.
   - call(): an API call with it, in the page's language; show(): a page fetched with it, shown
     in place of this one; say(): the status line of the page, beside the control last used
     (each page module calls watchControls() as it runs); every(): a timer repeating while the
     page is shown, stopped when show() writes another in its place.
   An ES module, as every page script is. */
import {_, language} from "./i18n.js";
import {placeNear, reveal, statusLine, watchControls} from "./near.js";

export {watchControls};

export const KEY = "domino-referee.token";

export function storage() {
  try { return window.sessionStorage; } catch (error) { return null; }
}

export function token() {
  const kept = storage();
  return (kept && kept.getItem(KEY)) || null;
}

export function keepToken(value) {
  const kept = storage();
  if (kept) kept.setItem(KEY, value);
}

export function forgetToken() {
  const kept = storage();
  if (kept) kept.removeItem(KEY);
}

// The request's headers: the token as a bearer header, the page's language, and `extra`.
export function headers(extra) {
  const all = {"Accept": "application/json", "Accept-Language": language()};
  const kept = token();
  if (kept) all["Authorization"] = "Bearer " + kept;
  return Object.assign(all, extra || {});
}

// An API call: resolves {status, ok, body} (body: the JSON, or the text); when the server could
// not be reached, says so on the status line and rejects.
export function call(method, path, body, extra) {
  const init = {method: method, cache: "no-store", credentials: "same-origin", headers: headers(extra)};
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  return fetch(path, init).then((response) => {
    const type = response.headers.get("Content-Type") || "";
    const read = type.includes("json") ? response.json().catch(() => null) : response.text();
    return read.then((data) => ({status: response.status, ok: response.ok, body: data}));
  }, (error) => {
    say(_("The server could not be reached: try again."), "error");
    throw error;
  });
}

// An API call whose answer's JSON is wanted: resolves it; a refusal rejects with an Error of
// the server's words (and its status and body), as does no answer.
export function ask(method, path, body) {
  return call(method, path, body).then((answer) => {
    if (answer.ok) return answer.body;
    const error = new Error(problem(answer));
    error.status = answer.status;
    error.data = answer.body;
    throw error;
  }, () => { throw new Error(_("The server could not be reached: try again.")); });
}

// A field the server refused, as the page names it: its control's label (the field's name in
// the request is a code), else the name.
function fieldName(path) {
  for (const name of [path.join("."), path[path.length - 1]]) {
    const control = document.querySelector("[name='" + CSS.escape(name) + "']");
    const label = control && control.labels && control.labels[0];
    if (label) return label.textContent.replace(/\s+/g, " ").trim();
  }
  return path.join(".");
}

// Each refused field and what was wrong with it (the server says it in the page's language).
function refusedFields(fields, path) {
  if (Array.isArray(fields)) return [fieldName(path) + ": " + fields.join(" ")];
  if (fields && typeof fields === "object") {
    return [].concat(...Object.keys(fields).map((name) => refusedFields(fields[name], path.concat([name]))));
  }
  return [fieldName(path) + ": " + String(fields)];
}

// What the server said of a refused call: a problem's detail, or the fields it refused.
export function problem(answer) {
  const b = (answer && typeof answer.body === "object" && answer.body) || {};
  const fields = b.errors && b.errors.json;
  if (fields && typeof fields === "object") return refusedFields(fields, []).join("; ");
  return b.detail || b.message || b.title || _("The server answered %(status)s.", {status: answer.status});
}

// The page's status line (a live region: #desk-status, or the one named): text, kind "ok",
// "warn" or "error"; an error is said at once (role alert).
// The line is said beside the control last used (near.js), so that a refusal shows where the
// button was pressed.
export function say(text, kind, where) {
  const box = statusLine(where || "desk-status");
  if (!box) return;
  placeNear(box);
  box.textContent = text;
  box.setAttribute("data-kind", kind || "ok");
  box.setAttribute("role", kind === "error" ? "alert" : "status");
  reveal(box);
}

// Something to say once the page is shown again (after a reload, or a page shown in place).
const SAID = "domino-referee.desk-said";

export function sayLater(text) {
  const kept = storage();
  if (kept && text) kept.setItem(SAID, text);
}

export function sayKept() {
  const kept = storage();
  const text = kept && kept.getItem(SAID);
  if (!text) return;
  kept.removeItem(SAID);
  say(text);
}

// A page's HTML shown in place of this one (the token goes as a header, which a plain
// navigation cannot send). A module runs once per address, so each page module is asked for at
// an address of its own showing: the page written in runs its scripts as a page loaded anew
// does, and the document's old listeners go with the old page (document.open()).
// The old page's repeating timers (every()) are stopped first: document.open() takes its
// listeners away, the document's and the window's, but not the window's timers, so each page
// shown in place of the desk's home would tick its clocks and read its matches again beside
// the last one's, on a page that may no longer have them.
let shown = 0;
const timers = new Set();

// fn run every `ms` milliseconds while this page is shown (window.setInterval's id).
export function every(fn, ms) {
  const id = window.setInterval(fn, ms);
  timers.add(id);
  return id;
}

export function show(html) {
  shown += 1;
  timers.forEach((id) => window.clearInterval(id));
  timers.clear();
  const fresh = html.replace(/(<script type="module" src="[^"?]+)"/g, `$1?shown=${shown}"`);
  document.open();
  document.write(fresh);
  document.close();
}

// The page's controls enabled once its module has wired them (wired.js, the desk's last
// module): until then they are in a disabled, inert fieldset (desk/frame.html), where a control
// or a link takes no tap and no focus; one to have it as the page opens is named by
// focusWhenWired.
let opening = null;

export function focusWhenWired(control) {
  opening = control;
}

export function wired() {
  document.querySelectorAll("fieldset[data-wiring]").forEach((box) => {
    box.disabled = false;
    box.inert = false;
  });
  if (opening) opening.focus();
  opening = null;
}

// The page at `url` (default: this one), fetched with the token and shown in place.
export function reload(url, text) {
  sayLater(text);
  return fetch(url || window.location.href, {headers: headers({"Accept": "text/html"}),
                                              cache: "no-store", credentials: "same-origin"})
    .then((response) => response.text())
    .then(show, () => say(_("The server could not be reached: try again."), "error"));
}
