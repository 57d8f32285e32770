/* /score/matches/{id}: the match, recorded by taps (docs/pages.md, "The scorekeeper's page").
   A tap is one request: the append (If-Match: the seq shown, through the outbox) answers the
   screen after it, which is drawn whole. The page reads GET /api/v1/matches/{id} only to
   open, to poll for another phone's events, and to recover (a 412, a retry answered late). */
import {abandonControls} from "./abandon.js";
import {el, say} from "./dom.js";
import {_} from "./i18n.js";
import {keypads} from "./keypads.js";
import {offline, showOnline} from "./net.js";
import {keepScreen, lastSeen} from "./offline.js";
import {Outbox} from "./outbox.js";
import {pickers} from "./pickers.js";
import {choose} from "./points.js";
import {PREFIX, api, problemText, showWho, signInLink, store, token, whoAmI} from "./session.js";
import {drawTable} from "./table.js";
import {describe} from "./words.js";

const POLL = PREFIX + "poll";  // ms between polls of the screen (0: none); the tests set it
window.scoreTimings = [];  // ms from each tap to the screen after it drawn (the browser test)

const matchId = document.body.getAttribute("data-match");
const path = "/api/v1/matches/" + matchId;
const stateBox = document.getElementById("state");
const actions = document.getElementById("actions");
let screen = null;
let etag = null;
let refused = null;  // the last event the referee refused, offered as disputed
let refusedWhy = null;  // and the referee's reason, said beside the offer
let tappedAt = null;  // performance.now() of the tap out, null for one resumed after a reload

// A screen kept on this phone by an earlier version has no words of its own yet.
const NO_WORDS = {phase: "", rounds: [], undo: null, disputes: []};

function draw(next, tag) {
  if (!next.said) next.said = Object.assign({}, NO_WORDS, {disputes: next.disputes.map(() => _("Disputed"))});
  const ended = screen !== null && !screen.finished && next.finished;  // this tap ended it
  screen = next;
  etag = tag || '"' + next.seq + '"';
  drawTable(stateBox, screen);
  drawActions();
  keepScreen(matchId, next);
  // the match's end (after the last reveal, as a rule) is what the table wants to see
  if (ended) document.getElementById("phase").scrollIntoView({block: "start"});
}

function drawActions() {
  actions.replaceChildren(...pickers(screen, refused, refusedWhy), ...keypads(screen), ...abandonControls(screen));
  busy(outbox.busy);
}

// Every control of the screen disabled while a tap is out: a double tap records one event.
function busy(on) {
  actions.setAttribute("aria-busy", on ? "true" : "false");
  for (const b of actions.querySelectorAll("button[data-event]")) {
    if (on) {
      if (!b.hasAttribute("data-was-disabled")) b.setAttribute("data-was-disabled", b.disabled ? "1" : "0");
      b.disabled = true;
    } else if (b.hasAttribute("data-was-disabled")) {
      b.disabled = b.getAttribute("data-was-disabled") === "1";
      b.removeAttribute("data-was-disabled");
    }
  }
}

// The screen read again; quiet: with If-None-Match (a 304 when nothing changed). True when
// the screen shown is the match's, false when the answer was a problem (shown), null when no
// answer came.
async function load(quiet) {
  let answer;
  try {
    answer = await api("GET", path, {headers: quiet && etag ? {"If-None-Match": etag} : {}});
  } catch (error) {
    if (!outbox.busy) offline();
    return null;
  }
  if (!outbox.busy) showOnline();
  if (answer.status === 304) return true;
  if (answer.status !== 200) { say(problemText(answer), "error"); return false; }
  // An answer overtaken by a later one (a poll's, slower than the next poll or a tap's
  // answer, while another phone records) is older than the screen shown: not drawn back.
  if (screen !== null && answer.body.seq < screen.seq) return true;
  draw(answer.body, answer.headers.get("ETag"));
  return true;
}

function timed() {
  if (tappedAt !== null) window.scoreTimings.push(performance.now() - tappedAt);
  tappedAt = null;
}

async function answered(answer, item) {
  const event = item.body;
  if (answer.status === 201) {
    const replayed = answer.headers.get("Idempotent-Replayed") === "true";
    const body = answer.body;
    const params = {event: describe(event, screen.players, screen.sides, screen.rules), seq: body.seq};
    if (body.violation) say(replayed ? _("Recorded as disputed: %(event)s (event %(seq)s), saved before the connection dropped. Play goes on; the dispute waits for a referee.", params)
                                     : _("Recorded as disputed: %(event)s (event %(seq)s). Play goes on; the dispute waits for a referee.", params), "warn");
    else say(replayed ? _("Recorded: %(event)s (event %(seq)s), saved before the connection dropped.", params)
                      : _("Recorded: %(event)s (event %(seq)s).", params), "ok");
    draw(body.screen, answer.headers.get("ETag"));
    timed();
    if (replayed) await load(true);  // answered late: another phone may have recorded since
    return;
  }
  if (answer.status === 412) {
    say(_("Another device recorded first (the match is at event %(seq)s). The table is shown again: look, then tap again if it still stands.",
          {seq: (answer.body || {}).current_seq}), "error");
    if ((await load(false)) !== true) drawActions();
    timed();
    return;
  }
  if (answer.status === 422 && answer.body && answer.body.violation) {
    // offered as disputed, unless it was (a repeat: the table did it once, recorded once)
    refused = event.disputed ? null : event;
    refusedWhy = answer.body.violation.message;
    say(_("The referee refused %(event)s: %(reason)s", {
      event: describe(event, screen.players, screen.sides, screen.rules), reason: refusedWhy}), "error");
  } else {
    say(_("Not recorded: %(problem)s", {problem: problemText(answer)}), "error");
  }
  drawActions();
  // the refusal and its reason beside the buttons, in sight where the tap was (a phone shows
  // the message line at the top of a long page)
  const offer = document.getElementById("refused");
  if (offer) offer.scrollIntoView({block: "nearest"});
  timed();
}

const outbox = new Outbox(PREFIX + "pending." + matchId, {
  answered: answered,
  unanswered: (item) => say(_("Not saved yet: %(event)s. It is kept on this phone and sent again when the connection is back.",
                              {event: describe(item.body, screen.players, screen.sides, screen.rules)}), "warn"),
});

function tap(event) {
  if (outbox.busy) return;  // one tap at a time
  refused = null;
  tappedAt = performance.now();
  say(_("Saving: %(event)s…", {event: describe(event, screen.players, screen.sides, screen.rules)}));
  busy(true);
  outbox.put({method: "POST", path: path + "/events", body: event,
              headers: {"If-Match": '"' + screen.seq + '"'}});
}

// A tap on an open end of the layout (points.js): its tiles offered below, in sight.
stateBox.addEventListener("click", (e) => {
  const arm = e.target.closest("button[data-arm]");
  if (!arm || arm.disabled || !screen) return;
  choose(screen, arm.getAttribute("data-arm"));
  drawTable(stateBox, screen);
  drawActions();
  const again = stateBox.querySelector(`button[data-arm="${arm.getAttribute("data-arm")}"]`);
  if (again) again.focus({preventScroll: true});  // the keyboard's place kept across the redraw
  const picker = document.getElementById("places");
  if (picker) picker.scrollIntoView({block: "nearest"});
});

actions.addEventListener("click", (e) => {
  const button = e.target.closest("button");
  if (!button || button.disabled) return;
  if (button.id === "dismiss") { refused = null; say(""); drawActions(); return; }
  const json = button.getAttribute("data-event");
  if (json) tap(JSON.parse(json));
});

// Not while something is being typed here (a hand, pips, a note): a redraw would lose it.
function typing() {
  const active = document.activeElement;
  return active && active.tagName === "INPUT" && actions.contains(active) && active.value !== "";
}

async function open() {
  if (!token()) {
    say(signInLink(), "error");
    stateBox.setAttribute("aria-busy", "false");
    document.getElementById("loading").textContent = _("Not signed in.");
    return;
  }
  whoAmI().then(showWho, () => {});
  let read = await load(false);
  if (read === null) read = lastSeen(matchId, draw);  // no network: the screen last seen here
  while (read === null) {  // no answer: the Wi-Fi, or the server starting; try again
    await new Promise((resume) => setTimeout(resume, 2000));
    read = await load(false);
  }
  if (!read) return;
  const kept = outbox.resume();  // a tap that got no answer before the page was closed
  if (kept) {
    say(_("Saving: %(event)s…", {event: describe(kept.body, screen.players, screen.sides, screen.rules)}));
    busy(true);
  }
  const pollMs = store.getItem(POLL) === null ? 4000 : Number(store.getItem(POLL));
  if (pollMs > 0) {
    // One poll out at a time: on a network slower than the poll, the next waits for its
    // answer instead of piling requests up behind it.
    let polling = false;
    setInterval(async () => {
      if (polling || outbox.busy || typing() || document.visibilityState === "hidden") return;
      polling = true;
      try { await load(true); } finally { polling = false; }
    }, pollMs);
  }
}

open();
