/* The network indicator at the top right (#net, its state in data-net: online, saving,
   offline), in words, not colour alone. */
import {_} from "./i18n.js";

export function setNet(state, text) {
  document.getElementById("net").setAttribute("data-net", state);
  document.getElementById("net-text").textContent = text;
}

export const offline = () => setNet("offline", _("Offline"));

// What the browser says of the connection, when nothing is being sent.
export function showOnline() {
  if (navigator.onLine) setNet("online", _("Online"));
  else offline();
}

export const saving = () => setNet("saving", _("Saving…"));
export const serverBusy = () => setNet("saving", _("Server busy: retrying"));
export const noAnswer = () => setNet("offline", navigator.onLine ? _("No answer: retrying")
                                                                 : _("Offline: will retry"));

window.addEventListener("online", showOnline);
window.addEventListener("offline", showOnline);
showOnline();
