/* /score: sign in with the token; the club's matches in play; a new match (a preset, the
   players in seat order, the table), started through the outbox so that a start retried over
   a bad connection makes one match. */
import {el, say, showMessage} from "./dom.js";
import {_} from "./i18n.js";
import "./offline.js";  // the page kept for a phone with no network
import {Outbox} from "./outbox.js";
import {PREFIX, api, keepToken, problemText, showWho, token, whoAmI} from "./session.js";

const signIn = document.getElementById("sign-in");
const club = document.getElementById("club");

async function loadLive(slug) {
  const answer = await api("GET", "/api/v1/clubs/" + encodeURIComponent(slug) +
                                  "/matches?status=in_progress&limit=50");
  if (answer.status !== 200) { say(problemText(answer), "error"); return; }
  document.getElementById("live").replaceChildren(...answer.body.map((m) => {
    const facts = [m.players.join(", ")];
    if (m.table) facts.push(_("table %(table)s", {table: m.table}));
    facts.push(m.round ? _("round %(round)s", {round: m.round}) : _("not dealt"), m.totals.join("–"));
    return el("li", {}, [el("a", {href: "/score/matches/" + m.id, "class": "match-link"}, [
      _("Match %(id)s", {id: m.id}), el("span", {"class": "muted", text: " " + facts.join(" · ")})])]);
  }));
  document.getElementById("no-live").hidden = answer.body.length > 0;
}

async function loadPlayers(slug) {
  const answer = await api("GET", "/api/v1/clubs/" + encodeURIComponent(slug) + "/players?limit=500");
  if (answer.status !== 200) return;
  document.getElementById("club-players").replaceChildren(
    ...answer.body.map((p) => el("option", {value: p.name})));
}

// The seats the preset's seat counts allow: shown up to the most, required up to the fewest.
function showSeats(preset) {
  const counts = preset.options[preset.selectedIndex].getAttribute("data-seats").split(",").map(Number);
  for (const seat of document.querySelectorAll(".seat")) {
    const n = Number(seat.getAttribute("data-seat"));
    seat.hidden = n >= Math.max(...counts);
    seat.querySelector("input").required = n < Math.min(...counts);
  }
}

function newMatch(slug) {
  const form = document.getElementById("new-match");
  const preset = document.getElementById("preset");
  preset.addEventListener("change", () => showSeats(preset));
  showSeats(preset);
  const outbox = new Outbox(PREFIX + "create." + slug, {
    answered(answer) {
      if (answer.status === 201) { window.location.href = "/score/matches/" + answer.body.id; return; }
      say(problemText(answer), "error");
      showMessage();  // the form is further down a phone
    },
    unanswered() { say(_("No answer from the server: the match will be started when the connection is back."), "warn"); },
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const players = [...document.querySelectorAll(".seat")]
      .filter((seat) => !seat.hidden).map((seat) => seat.querySelector("input").value.trim())
      .filter(Boolean);
    const body = {rules: preset.value, players: players};
    if (document.getElementById("new-players").checked) body["new"] = true;
    const table = document.getElementById("table").value.trim();
    if (table) body.table = table;
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
