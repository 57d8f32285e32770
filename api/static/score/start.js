/* /score: sign in with the token; the club's matches in play (a tournament's tables among
   them); a new match (a preset, its target and time limit, the club's defaults preselected, the players in order of play, the
   event, date and table), started through the outbox so that a start retried over a bad
   connection makes one match. A name close to a known player's is asked about (the referee's
   422 names the close players): one of them, or a new player; never taken silently. */
import {el, say, showMessage} from "./dom.js";
import {_} from "./i18n.js";
import "./offline.js";  // the page kept for a phone with no network
import {Outbox} from "./outbox.js";
import {PREFIX, api, keepToken, problemText, showWho, token, whoAmI} from "./session.js";
import {tableWords} from "./words.js";

const signIn = document.getElementById("sign-in");
const club = document.getElementById("club");

// The club's matches in play as last read: a table typed that one of them is at is said beside
// the field (two matches at "mesa 2" are one table's mistake, or two tables with one name).
let live = [];

const label = (text) => (text || "").normalize("NFC").trim().replace(/\s+/g, " ").toLocaleLowerCase();

function showTableInUse() {
  const typed = label(document.getElementById("table").value);
  const box = document.getElementById("table-in-use");
  const there = typed ? live.filter((m) => m.table && label(m.table) === typed) : [];
  box.hidden = !there.length;
  box.textContent = there.length ? _("Match %(id)s is in play at the table “%(table)s”: is this another table? Give it its own name, or open that match above.",
                                     {id: there[0].id, table: there[0].table}) : "";
}

async function loadLive(slug) {
  const answer = await api("GET", "/api/v1/clubs/" + encodeURIComponent(slug) +
                                  "/matches?status=in_progress&limit=50");
  if (answer.status !== 200) { say(problemText(answer), "error"); return; }
  // Each match a link of three lines: the match and its table, who plays, then the event,
  // the round and the score (each kept whole on a line: a score never breaks at its dash).
  document.getElementById("live").replaceChildren(...answer.body.map((m) => {
    const title = [_("Match %(id)s", {id: m.id})];
    if (m.table) title.push(tableWords(m.table));
    const facts = m.event ? [m.event] : [];
    facts.push(m.round ? _("round %(round)s", {round: m.round}) : _("not dealt"), m.totals.join("–"));
    const parts = [];
    facts.forEach((fact, i) => {
      if (i) parts.push(" · ");
      parts.push(el("span", {"class": "nowrap", text: fact}));
    });
    return el("li", {}, [el("a", {href: "/score/matches/" + m.id, "class": "match-link"}, [
      el("span", {"class": "match-title", text: title.join(" · ")}),
      el("span", {"class": "match-players", text: m.players.join(", ")}),
      el("span", {"class": "match-facts"}, parts)])]);
  }));
  document.getElementById("no-live").hidden = answer.body.length > 0;
  live = answer.body;
  showTableInUse();
}

async function loadPlayers(slug) {
  const answer = await api("GET", "/api/v1/clubs/" + encodeURIComponent(slug) + "/players?limit=500");
  if (answer.status !== 200) return;
  document.getElementById("club-players").replaceChildren(
    ...answer.body.map((p) => el("option", {value: p.name})));
}

const seats = () => [...document.querySelectorAll(".seat")].filter((seat) => !seat.hidden);
const typed = (seat) => seat.querySelector("input").value.trim();

// The seats the preset's seat counts allow: shown up to the most, required up to the fewest;
// the target's placeholder and the help on who sits where are the preset's own.
function showPreset(preset) {
  const option = preset.options[preset.selectedIndex];
  const counts = option.getAttribute("data-seats").split(",").map(Number);
  for (const seat of document.querySelectorAll(".seat")) {
    const n = Number(seat.getAttribute("data-seat"));
    seat.hidden = n >= Math.max(...counts);
    seat.querySelector("input").required = n < Math.min(...counts);
  }
  document.getElementById("target").placeholder = option.getAttribute("data-target");
  const seating = option.getAttribute("data-seating");
  for (const help of document.querySelectorAll("#seats-help [data-seating]")) {
    help.hidden = help.getAttribute("data-seating") !== seating;
  }
}

// Who sits where, as the form stands: by position (1 first) and name.
function showSeated() {
  const named = seats().map((seat) => [Number(seat.getAttribute("data-seat")) + 1, typed(seat)])
    .filter(([, name]) => name);
  // each said apart: the extractor reads no _() inside another's arguments
  const seated = named.map(([position, name]) => _("%(position)s. %(name)s", {position: position, name: name}));
  const comma = _(", ");
  document.getElementById("seated").textContent = named.length
    ? _("Seated: %(seats)s", {seats: seated.join(comma)}) : "";
}

// The names the referee found close to a player's (the 422's suggestions: typed -> names), each
// asked: one of those players, or a new player. answered(): every name has its answer.
function askNames(suggestions, confirmed, answered) {
  const box = document.getElementById("did-you-mean");
  const list = document.getElementById("did-you-mean-list");
  const asked = Object.keys(suggestions);
  const question = (name) => {
    // the referee names it as it keeps names (NFC, one space): the seat typed so
    const plain = (v) => v.normalize("NFC").replace(/\s+/g, " ");
    const seat = seats().find((s) => plain(typed(s)) === plain(name));
    const choices = suggestions[name].map((known) => el("button", {
      type: "button", "class": "tap secondary", "data-known": known}, [known]));
    const fresh = el("button", {type: "button", "class": "tap secondary", "data-new": name},
                     [_("%(name)s is a new player", {name: name})]);
    const row = el("div", {"class": "question", "data-typed": name}, [
      el("p", {}, [seat ? _("Player %(position)s: “%(name)s” is not a player of the club. Did you mean:",
                            {position: Number(seat.getAttribute("data-seat")) + 1, name: name})
                        : _("“%(name)s” is not a player of the club. Did you mean:", {name: name})]),
      el("div", {"class": "buttons"}, [...choices, fresh])]);
    row.addEventListener("click", (event) => {
      const button = event.target.closest("button");
      if (!button) return;
      if (button.hasAttribute("data-known")) {
        if (seat) seat.querySelector("input").value = button.getAttribute("data-known");
      } else {
        confirmed.add(name);
      }
      row.remove();
      showSeated();
      if (!list.children.length) { box.hidden = true; answered(); }
    });
    return row;
  };
  list.replaceChildren(...asked.map(question));
  box.hidden = false;
  box.scrollIntoView({block: "nearest"});
}

// The club's target is its default preset's: another preset plays to its own (mano a mano to
// 50, not the club's 100), and the club's comes back with its preset; unless the scorekeeper
// typed a target, which stays whatever the preset.
let clubTarget = null;
function targetFollows(preset) {
  const target = document.getElementById("target");
  if (target.dataset.typed || !clubTarget) return;
  target.value = preset.value === clubTarget.preset ? clubTarget.target : "";
}

// The club's defaults for a new match (its admin's settings: GET /clubs/{club}'s default_rules
// and default_target), preselected unless the scorekeeper has already changed the form.
async function preselect(slug, preset) {
  const answer = await api("GET", "/api/v1/clubs/" + encodeURIComponent(slug));
  if (answer.status !== 200 || document.getElementById("new-match").dataset.touched) return;
  const rules = answer.body.default_rules;
  if (rules && [...preset.options].some((option) => option.value === rules)) {
    preset.value = rules;
    showPreset(preset);
    showSeated();
  }
  if (answer.body.default_target) {
    clubTarget = {preset: preset.value, target: String(answer.body.default_target)};
    document.getElementById("target").value = clubTarget.target;
  }
}

function newMatch(slug) {
  const form = document.getElementById("new-match");
  const preset = document.getElementById("preset");
  preset.addEventListener("change", () => { showPreset(preset); targetFollows(preset); showSeated(); });
  document.getElementById("target").addEventListener("input", (event) => {
    event.target.dataset.typed = "1";
  });
  form.addEventListener("input", () => { form.dataset.touched = "1"; }, {once: true});
  document.getElementById("table").addEventListener("input", showTableInUse);
  showPreset(preset);
  preselect(slug, preset).catch(() => {});  // offline: the form keeps its first preset
  // Names confirmed new for the names as typed now: any change to a seat forgets them, so a
  // close name typed later is asked about too, never taken silently.
  const confirmed = new Set();
  for (const seat of document.querySelectorAll(".seat input")) {
    seat.addEventListener("input", () => {
      confirmed.clear();
      document.getElementById("did-you-mean").hidden = true;
      showSeated();
    });
  }
  showSeated();
  const outbox = new Outbox(PREFIX + "create." + slug, {
    answered(answer) {
      if (answer.status === 201) { window.location.href = "/score/matches/" + answer.body.id; return; }
      const suggestions = answer.status === 422 && answer.body && answer.body.suggestions;
      if (suggestions) {
        say(_("Check the names before the match starts."), "warn");
        askNames(suggestions, confirmed, () => form.requestSubmit());
        return;
      }
      say(problemText(answer), "error");
      showMessage();  // the form is further down a phone
    },
    unanswered() { say(_("No answer from the server: the match will be started when the connection is back."), "warn"); },
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const players = seats().map(typed).filter(Boolean);
    const target = document.getElementById("target").value.trim();
    const limit = document.getElementById("time-limit").value.trim();
    let rules = preset.value;
    if (target || limit) {
      rules = {preset: preset.value};
      if (target) rules.target = Number(target);
      if (limit) rules.time_limit = Number(limit);
    }
    const body = {rules: rules, players: players};
    // "new" only when every name the referee asked about was answered "a new player"
    if (confirmed.size && players.some((p) => confirmed.has(p))) body["new"] = true;
    for (const name of ["event", "date", "table"]) {
      const value = document.getElementById(name).value.trim();
      if (value) body[name] = value;
    }
    if (outbox.busy) return;  // one start at a time
    say(_("Starting the match…"));
    outbox.put({method: "POST", path: "/api/v1/clubs/" + encodeURIComponent(slug) + "/matches", body: body});
  });
  if (outbox.resume()) say(_("Starting the match…"));  // a start with no answer before a reload
}

function signedIn(me) {
  showWho(me);
  signIn.hidden = true;
  club.hidden = false;
  loadLive(me.club);
  loadPlayers(me.club);
  newMatch(me.club);
}

signIn.addEventListener("submit", async (event) => {
  event.preventDefault();
  const typed = document.getElementById("token").value.trim();
  if (!typed) return;
  keepToken(typed);
  say(_("Signing in…"));
  let me;
  try {
    me = await whoAmI();
  } catch (error) {
    say(_("No answer from the server: check the Wi-Fi and try again."), "error");
    return;
  }
  if (!me) { say(_("That token is not known here: check it and try again."), "error"); return; }
  say("");
  document.getElementById("token").value = "";
  signedIn(me);
});

async function open() {
  if (!token()) { signIn.hidden = false; return; }
  try {
    const me = await whoAmI();
    if (me) { signedIn(me); return; }
    signIn.hidden = false;
    say(_("Sign in again: the kept token was refused."), "error");
  } catch (error) {
    say(_("No answer from the server: check the Wi-Fi, then reload."), "error");
  }
}

open();
