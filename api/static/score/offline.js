/* The page with no network (docs/pages.md, "With no network"). Loaded by both pages: it
   registers the service worker (sw.js, served at /score/sw.js for the scope /score) that keeps
   the page shells and their assets, and keeps the match's last screen in localStorage, by
   match and token, so that a match's page opened with the Wi-Fi down shows the table as it
   was last seen here; taps wait in the outbox (outbox.js) until the server answers. A screen
   kept is shown only to the token that was shown it: another token signed in on this phone
   finds none (its key differs), and signing out forgets them all. */
import {say} from "./dom.js";
import {_} from "./i18n.js";
import {PREFIX, store, token} from "./session.js";

const SCREENS = PREFIX + "screen.";

if ("serviceWorker" in navigator && window.isSecureContext) {
  navigator.serviceWorker.register("/score/sw.js", {scope: "/score", type: "classic"})
    .catch(() => { /* no worker (a private window, say): the page works online as before */ });
  // A worker that took over while this page was loading did not claim it (a page is claimed
  // only once loaded): asked now, so that this page is kept for a visit with no network.
  navigator.serviceWorker.ready.then((registration) => {
    if (!navigator.serviceWorker.controller && registration.active) {
      registration.active.postMessage("claim");
    }
  });
}

// FNV-1a over the token, in hex: a screen's key names its token without holding it.
function tokenKey() {
  const text = token() || "";
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}

const keyOf = (matchId) => SCREENS + matchId + "." + tokenKey();

// The screen drawn now, kept for the next time the page opens with no network.
export function keepScreen(matchId, screen) {
  if (!token()) return;
  try {
    store.setItem(keyOf(matchId), JSON.stringify(screen));
  } catch (error) { /* storage full: the page works as before, online */ }
}

// With no answer from the server: the last screen kept for this match and token, drawn by
// draw(screen); true when there was one (the page goes on as if it had read it), else null.
export function lastSeen(matchId, draw) {
  const kept = token() ? store.getItem(keyOf(matchId)) : null;
  if (!kept) return null;
  let screen;
  try { screen = JSON.parse(kept); } catch (error) { return null; }
  draw(screen);
  say(_("No network: the table as this phone last saw it (event %(seq)s). Taps are kept here and sent when the connection is back.",
        {seq: screen.seq}), "warn");
  return true;
}

// Signing out forgets every screen kept here (whichever token they were shown to).
const signOut = document.getElementById("sign-out");
if (signOut) {
  signOut.addEventListener("click", () => {
    for (let i = store.length - 1; i >= 0; i--) {
      const key = store.key(i);
      if (key && key.startsWith(SCREENS)) store.removeItem(key);
    }
  });
}
