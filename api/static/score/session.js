/* Signing in: the token kept in this browser's localStorage, sent only as a bearer header of
   the page's fetch() calls (never in an address, a cookie or a form post); who holds it. */
import {el} from "./dom.js";
import {_} from "./i18n.js";

export const PREFIX = "domino-referee.score.";
const TOKEN = PREFIX + "token";
export const store = window.localStorage;

export const token = () => store.getItem(TOKEN);
export const keepToken = (typed) => store.setItem(TOKEN, typed);
export const forgetToken = () => store.removeItem(TOKEN);

// An API call with the token: resolves {status, body, headers} (body: the JSON, or null);
// rejects only when no answer came (the network).
export async function api(method, path, options = {}) {
  const headers = Object.assign({"Accept": "application/json"}, options.headers || {});
  if (token()) headers["Authorization"] = "Bearer " + token();
  const init = {method: method, headers: headers, cache: "no-store"};
  if (options.json !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(options.json);
  }
  const response = await fetch(path, init);
  const type = response.headers.get("Content-Type") || "";
  const body = type.includes("json") ? await response.json() : null;
  if (response.status === 401) forgetToken();  // refused: revoked, or never known
  return {status: response.status, body: body, headers: response.headers};
}

// A problem's words (problem+json), for the message line.
export function problemText(answer) {
  const b = answer.body || {};
  return b.detail || b.title || _("the server answered %(status)s", {status: answer.status});
}

// The token's club, role and label; null when it is refused (and then forgotten).
export async function whoAmI() {
  const answer = await api("GET", "/score/me");
  return answer.status === 200 ? answer.body : null;
}

export function showWho(me) {
  document.getElementById("who").textContent = me ? _(
    "Signed in to %(club)s as %(label)s (%(role)s).",
    {club: me.club, label: me.label || me.role, role: me.role}) : "";
  document.getElementById("sign-out").hidden = !me;
}

export function signInLink() {
  return el("span", {}, [_("Sign in first."), " ",
                         el("a", {href: "/score", text: _("Go to the sign-in page")})]);
}

document.getElementById("sign-out").addEventListener("click", () => {
  forgetToken();
  window.location.href = "/score";
});
