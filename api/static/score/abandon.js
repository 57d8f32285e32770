/* "Abandon this match": a match started by mistake (the wrong player seated, say) withdrawn
   while no deal stands. Offered only when the screen says this token may (can_abandon: a
   referee, or the token that created the match); the server decides all the same. A first
   tap asks to confirm and for a reason; the confirmation is an ordinary event button (its
   data-event the abandon), sent through the outbox like any tap. */
import {el, eventButton} from "./dom.js";
import {_} from "./i18n.js";

function abandonOf(reason) {
  return {type: "abandon", reason: reason};
}

// The controls to add to the screen's actions: none unless the screen offers the abandon.
export function abandonControls(screen) {
  if (!screen || !screen.can_abandon) return [];
  const reasonId = "abandon-reason";
  const reason = el("input", {id: reasonId, autocomplete: "off", "data-abandon-reason": "",
                              maxlength: "200"});
  reason.value = _("started by mistake");
  const confirm = eventButton(abandonOf(reason.value), _("Yes, abandon the match"),
                              {"class": "tap danger", "data-abandon-confirm": ""});
  reason.addEventListener("input", () => {
    const text = reason.value.trim();
    confirm.disabled = text === "";
    if (text !== "") confirm.setAttribute("data-event", JSON.stringify(abandonOf(text)));
  });
  const cancel = el("button", {type: "button", "class": "tap secondary", "data-abandon-cancel": "",
                               text: _("Keep the match")});
  const panel = el("div", {"class": "abandon-confirm", id: "abandon-confirm", role: "group",
                           "aria-labelledby": "abandon-question", hidden: true}, [
    el("p", {id: "abandon-question", text: _("Abandon this match? It ends with no result and counts nowhere: no standings, no ratings, no tournament. Nothing more can be played in it.")}),
    el("div", {"class": "field-row"}, [el("label", {"for": reasonId, text: _("Why")}), reason]),
    el("p", {"class": "row"}, [confirm, cancel]),
  ]);
  const open = el("button", {type: "button", "class": "tap secondary", "data-action": "abandon",
                             "aria-expanded": "false", "aria-controls": "abandon-confirm",
                             text: _("Abandon this match")});
  const toggle = (shown) => {
    panel.hidden = !shown;
    open.setAttribute("aria-expanded", shown ? "true" : "false");
    if (shown) reason.focus();
    else open.focus();
  };
  open.addEventListener("click", () => toggle(panel.hidden));
  cancel.addEventListener("click", () => toggle(false));
  return [el("div", {"class": "abandon", "data-abandon": ""}, [open, panel])];
}
