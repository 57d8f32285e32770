/* domino-referee league desk: the secretary's actions on a season's fixtures, each a call of
 * the REST API with the token kept in this tab (sessionStorage, client.js) as a bearer header.
 *
 * - form[data-league-action] (the secretary's postpone, swap, concede and walkover; a captain's
 *   team sheet, a leg's players, and confirm): its named fields (those data-list a list) as the JSON body, POSTed to its data-api (a
 *   "{leg}" there is the form's leg field, which the body then leaves out: concede); then the
 *   page is fetched again (with the token) and shown in place, with what happened.
 * - form[data-league-captain] (the secretary's): a captain's token for the chosen team with a
 *   one-time sign-in code (POST .../teams/{team}/captains, signin), then the code's QR code
 *   (POST data-qr-path, the code in the body): shown once, with the token, below the form.
 * - form[data-league-setup] (the secretary's season set-up: a new season, a division, a team,
 *   the fixtures generated): its fields as the JSON body (a name "a.b" is field b of object a;
 *   data-number a number; data-lines a list, a line each; an empty field left out, the
 *   server's default; a leg_target.KIND makes that kind's leg_rules {preset, target}), POSTed to its data-api (a team with its squad: one call); then the
 *   page is shown again in place.
 * - form[data-league-edit] (the secretary's corrections: a division renamed or removed, a team
 *   changed or removed): sent with its data-method (PATCH: its named fields as the JSON body,
 *   an empty one too, so that a venue can be cleared; DELETE: no body); then the page is
 *   shown again in place.
 * - a[data-score-link] (a captain's game in play): opens the scorekeeper's page of its match on
 *   this phone, the captain's token handed to that page's own keeping (localStorage, as a
 *   phone signed in there keeps it: score/session.js), so the captain scores it signed in.
 * The server decides who may and what is valid: a refusal's detail is shown as it comes
 * (problem+json), nothing changed. An ES module: its words from i18n.js.
 */
import {ask, call, reload, say, sayKept, token, watchControls} from "./client.js";
import {_} from "./i18n.js";

watchControls();  // the status line said beside the control last used
sayKept();  // what the page before said (a fixture postponed, a team added), once shown again

const DONE = {
  postpone: () => _("Fixture postponed."),
  swap: () => _("Home and away swapped."),
  concede: () => _("Leg conceded."),
  walkover: () => _("Walkover awarded."),
  confirm: () => _("Result confirmed."),
  sheet: () => _("The leg's players recorded: its game is ready to score."),
};

document.querySelectorAll("form[data-league-action]").forEach((form) => {
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const body = {};
    form.querySelectorAll("input[name], select[name]").forEach((field) => {
      const value = field.value.trim();
      if (field.hasAttribute("data-list")) {  // a team sheet's players: a list a side
        (body[field.name] = body[field.name] || []).push(value);
      } else {
        body[field.name] = value;
      }
    });
    let path = form.getAttribute("data-api");
    if (path.includes("{leg}")) {
      path = path.replace("{leg}", encodeURIComponent(body.leg));
      delete body.leg;
    }
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    const action = form.getAttribute("data-league-action");
    ask("POST", path, body).then(() => reload(window.location.href, DONE[action]()))
      .catch((error) => { button.disabled = false; say(error.message, "error"); });
  });
});

document.querySelectorAll("form[data-league-captain]").forEach((form) => {
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const team = form.elements.team.value;
    const path = form.getAttribute("data-api").replace("{team}", encodeURIComponent(team));
    const issued = form.parentElement.querySelector("[data-captain-issued]");
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    say(_("Issuing the token…"));
    ask("POST", path, {signin: true})
      .then((answer) => call("POST", form.getAttribute("data-qr-path"), {code: answer.code})
        .then((qr) => {
          issued.querySelector("[data-token]").textContent = answer.token;
          const img = issued.querySelector("[data-qr]");
          img.hidden = qr.status !== 200;
          if (qr.status === 200) img.src = "data:image/svg+xml;base64," + window.btoa(qr.body);
          issued.hidden = false;
          button.disabled = false;
          say(_("Token issued: it is shown below this once."));
        }))
      .catch((error) => { button.disabled = false; say(error.message, "error"); });
  });
});

const SET_UP = {
  season: () => _("Season created."),
  division: () => _("Division added."),
  team: () => _("Team added."),
  generate: () => _("Fixtures generated."),
};

function setUpBody(form) {
  const body = {};
  form.querySelectorAll("input[name], select[name], textarea[name]").forEach((field) => {
    let value = field.value.trim();
    if (field.hasAttribute("data-lines")) {
      value = value.split("\n").map((line) => line.trim()).filter((line) => line !== "");
      if (value.length === 0) return;
    } else if (value === "") {
      return;
    } else if (field.hasAttribute("data-number")) {
      value = /^[0-9]+$/.test(value) ? Number(value) : value;  // else the server says why
    }
    const [outer, inner] = field.name.split(".");
    if (inner === undefined) body[outer] = value;
    else (body[outer] = body[outer] || {})[inner] = value;
  });
  // A kind of leg's target: its rules become the preset with that target (a match's rules
  // object, as the API takes a season's leg_rules).
  Object.entries(body.leg_target || {}).forEach(([kind, target]) => {
    const rules = body.leg_rules = body.leg_rules || {};
    rules[kind] = {preset: rules[kind], target: target};
  });
  delete body.leg_target;
  return body;
}

document.querySelectorAll("form[data-league-setup]").forEach((form) => {
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    const done = SET_UP[form.getAttribute("data-league-setup")]();
    ask("POST", form.getAttribute("data-api"), setUpBody(form))
      .then(() => reload(window.location.href, done))
      .catch((error) => { button.disabled = false; say(error.message, "error"); });
  });
});

const EDITED = {
  division: () => _("Division renamed."),
  "division-removed": () => _("Division removed."),
  team: () => _("Team saved."),
  "team-removed": () => _("Team removed."),
};

document.querySelectorAll("form[data-league-edit]").forEach((form) => {
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const method = form.getAttribute("data-method");
    let body;
    if (method !== "DELETE") {
      body = {};
      form.querySelectorAll("input[name], select[name]").forEach((field) => {
        body[field.name] = field.value.trim();
      });
    }
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    const done = EDITED[form.getAttribute("data-league-edit")]();
    ask(method, form.getAttribute("data-api"), body)
      .then(() => reload(window.location.href, done))
      .catch((error) => { button.disabled = false; say(error.message, "error"); });
  });
});

const SCORE_TOKEN = "domino-referee.score.token";  // score/session.js's key

document.querySelectorAll("a[data-score-link]").forEach((link) => {
  link.addEventListener("click", () => {
    const kept = token();
    if (kept) {
      try { window.localStorage.setItem(SCORE_TOKEN, kept); } catch (error) { /* the page asks */ }
    }
  });
});
