/* The scorekeeper's page with no network (docs/pages.md, "With no network"): this service
   worker keeps the page shells (/score, each /score/matches/ID opened here) and their assets
   (the scripts, the style sheet, the icon), so that once visited they open with the Wi-Fi
   down. It keeps nothing else: never an answer of the API nor /score/me (a token's data),
   which go to the network as if it were not here. The match's last screen is the page's own
   (offline.js keeps it, by match and token), and a tap waits in the page's outbox.

   Shells and assets are fetched from the network first (so a new version of the page is
   taken as soon as it is there), the copy kept is the answer when no answer comes. The
   server fills in SHELL when it serves this file (api/score.py): the assets to keep from
   the start and a version made of their contents; a new version is a new cache, and the
   old ones are dropped when it takes over. */

const SHELL = {"version": "", "assets": []};  // filled in by api/score.py
const CACHE = "domino-score-" + SHELL.version;
const PREFIX = "domino-score-";

// The requests this worker answers: the two shells, and the page's own static files.
function kept(url) {
  if (url.origin !== self.location.origin) return false;
  const path = url.pathname;
  return path === "/score" || /^\/score\/matches\/\d+$/.test(path) ||
         SHELL.assets.includes(path);
}

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(["/score", ...SHELL.assets]))
                    .then(() => self.skipWaiting()));
});

// Taking over: the pages open now claimed, and their shells kept too (a page opened before
// this worker ran was not fetched through it).
async function takeOver() {
  await self.clients.claim();
  const cache = await caches.open(CACHE);
  for (const client of await self.clients.matchAll({type: "window"})) {
    const url = new URL(client.url);
    if (kept(url) && !SHELL.assets.includes(url.pathname)) {
      try { await cache.add(url.pathname); } catch (error) { /* offline: next visit */ }
    }
  }
}

// Old versions dropped as this one takes over.
self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
    }
    await takeOver();
  })());
});

// A page that was still loading as this worker took over (a tap to a match while the worker
// was being installed) is not claimed then: once loaded it asks (offline.js), and is.
self.addEventListener("message", (event) => {
  if (event.data === "claim") event.waitUntil(takeOver());
});

async function answer(request) {
  const cache = await caches.open(CACHE);
  const key = new URL(request.url).pathname;  // a shell's query or fragment is not its own
  try {
    const response = await fetch(request);
    if (response.ok && response.type === "basic") await cache.put(key, response.clone());
    return response;
  } catch (error) {  // no answer: the copy kept, if any
    const copy = await cache.match(key);
    if (copy) return copy;
    throw error;
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (!kept(url)) return;  // the API, /score/me, anything else: the network alone
  event.respondWith(answer(request));
});
