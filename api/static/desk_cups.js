/* domino-referee cups desk: the secretary creates a cup and makes its draw, each a call of the
 * REST API with the token kept in this tab (sessionStorage, client.js) as a bearer header.
 *
 * - form[data-cup-action]: its named fields as the JSON body (a textarea[data-lines] a list of
 *   its lines, a pair's line "Ana + Beto" two names when the kind is pairs; a field
 *   [data-number] a whole number, left out when empty; a [data-flag] true unless empty; an
 *   empty season left out), POSTed to
 *   its data-api; then the new cup's desk is opened (create), or the page is fetched again
 *   (with the token) and shown in place, with what happened.
 * - select[data-round-dates]: the tie a fixture is made for; choosing one puts its round's date
 *   (its option's data-on) in the form's date unless the secretary typed another.
 * - form[data-cup-action=award], [=fixture] and [=play]: its fields marked [data-path] (the tie,
 *   and concede, walkover, fixture or games) end its data-api's address instead of going in
 *   the body; a match started is named by its number in what the page then says.
 * The server decides who may and what is valid: a refusal's detail is shown as it comes
 * (problem+json), nothing changed. An ES module: its words from i18n.js.
 */
import {ask, reload, say, sayKept, sayLater, watchControls} from "./client.js";
import {_} from "./i18n.js";

watchControls();  // the status line said beside the control last used
sayKept();  // what the page before said (a cup created, then its desk opened)

const DONE = {
  create: () => _("Cup created."),
  draw: () => _("Draw made."),
  award: () => _("Tie decided."),
  fixture: () => _("Fixture made."),
  play: (answer) => _("Match %(match)s started: score it on the phone.", {match: answer.match}),
};

function body(form) {
  const made = {};
  form.querySelectorAll("input[name], select[name], textarea[name]").forEach((field) => {
    const value = field.value.trim();
    if (field.hasAttribute("data-path")) {
      return;  // a part of the address (address() below), not of the body
    } else if (field.hasAttribute("data-lines")) {
      made[field.name] = value.split("\n").map((line) => line.trim()).filter(Boolean);
    } else if (field.hasAttribute("data-flag")) {
      made[field.name] = value !== "";
    } else if (field.hasAttribute("data-number")) {
      if (value !== "") made[field.name] = /^[0-9]+$/.test(value) ? Number(value) : value;
    } else if (value !== "" || field.name !== "season") {
      made[field.name] = value;
    }
  });
  if (made.kind === "pairs" && made.entrants) {
    made.entrants = made.entrants.map((line) => line.split("+").map((name) => name.trim()));
  }
  return made;
}

function address(form) {
  const parts = [...form.querySelectorAll("[data-path]")].map((f) => encodeURIComponent(f.value));
  return form.getAttribute("data-api") + parts.join("/");
}

// A tie's fixture's date: its round's, as the round's other fixtures give it (each option's
// data-on), unless the secretary has typed another for the tie chosen before.
document.querySelectorAll("select[data-round-dates]").forEach((select) => {
  const day = select.form.querySelector("input[type=date]");
  let given = day.value;
  select.addEventListener("change", () => {
    if (day.value === given) day.value = select.selectedOptions[0].getAttribute("data-on") || "";
    given = select.selectedOptions[0].getAttribute("data-on") || "";
  });
});

document.querySelectorAll("form[data-cup-action]").forEach((form) => {
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    const action = form.getAttribute("data-cup-action");
    const sent = body(form);
    ask("POST", address(form), sent).then((answer) => {
      if (action === "create") {
        sayLater(DONE.create());
        window.location.assign(form.getAttribute("data-then") + encodeURIComponent(answer.slug));
        return undefined;
      }
      return reload(window.location.href, DONE[action](answer));
    }).catch((error) => { button.disabled = false; say(error.message, "error"); });
  });
});
