/* domino-referee league desk: the secretary's actions on a season's fixtures, each a call of
 * the REST API with the token kept in this tab (sessionStorage, client.js) as a bearer header.
 *
 * - form[data-league-action] (the secretary's postpone, concede and walkover; a captain's
 *   team sheet, a leg's players, and confirm): its named fields (those data-list a list) as the JSON body, POSTed to its data-api (a
 *   "{leg}" there is the form's leg field, which the body then leaves out: concede); then the
 *   page is fetched again (with the token) and shown in place, with what happened.
 * The server decides who may and what is valid: a refusal's detail is shown as it comes
 * (problem+json), nothing changed. An ES module: its words from i18n.js.
 */
import {ask, reload, say, watchControls} from "./client.js";
import {_} from "./i18n.js";

watchControls();  // the status line said beside the control last used

const DONE = {
  postpone: () => _("Fixture postponed."),
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
