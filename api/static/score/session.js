/* Signing in: the token kept in this browser's localStorage, sent only as a bearer header of
   the page's fetch() calls (never in an address, a cookie or a form post); who holds it. */
import {el, say} from "./dom.js";
import {_, language} from "./i18n.js";

export const PREFIX = "domino-referee.score.";
const TOKEN = PREFIX + "token";
export const store = window.localStorage;

export const token = () => store.getItem(TOKEN);
export const keepToken = (typed) => store.setItem(TOKEN, typed);
export const forgetToken = () => store.removeItem(TOKEN);

// An API call with the token, in the page's language (the screen's words, a problem's
// detail): resolves {status, body, headers} (body: the JSON, or null); rejects only when no
// answer came (the network).
export async function api(method, path, options = {}) {
  const headers = Object.assign({"Accept": "application/json", "Accept-Language": language()},
                                options.headers || {});
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
  document.getElementById("who").textContent = me ? me.said : "";
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

// A one-time sign-in code in the address's fragment (/score#code=..., a club desk's QR code):
// taken out of the address bar at once, exchanged once for the token (sent in a POST body,
// never in an address), and the token kept as a typed one is. Awaited at the module's top, so
// the page's script starts signed in. A used or expired code signs nobody in and says so.
const CODE = /(?:^#|&)code=([^&]+)/;

async function exchangeCode() {
  const found = CODE.exec(window.location.hash);
  if (!found) return;
  window.history.replaceState(null, "", window.location.pathname + window.location.search);
  let answer;
  try {
    const response = await fetch("/api/v1/signin-codes/exchange", {
      method: "POST", cache: "no-store",
      headers: {"Accept": "application/json", "Content-Type": "application/json"},
      body: JSON.stringify({code: decodeURIComponent(found[1])}),
    });
    const type = response.headers.get("Content-Type") || "";
    answer = {status: response.status, body: type.includes("json") ? await response.json() : null};
  } catch (error) {
    say(_("No answer from the server: the QR code was not used. Check the Wi-Fi and scan it again."), "error");
    return;
  }
  if (answer.status === 200) { keepToken(answer.body.token); return; }
  say(_("The QR code did not sign you in: %(reason)s.", {reason: problemText(answer)}), "error");
}

await exchangeCode();
