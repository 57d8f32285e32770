/* Building the page's nodes, and the message line (role="status"). */
import {placeNear, reveal, statusLine, watchControls} from "../near.js";

// el("p", {"class": "x", text: "..."}, [children]): an attribute false, null or undefined is
// left out, true is present and empty.
export function el(tag, attrs, children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "text") node.textContent = value;
    else node.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children || []) {
    node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
  }
  return node;
}

// A tile as the table sees it: two halves, read "6–5" by screen readers.
export function tileNode(name) {
  const [a, b] = name.split("-");
  return el("span", {"class": "tile" + (a === b ? " double" : ""), "data-tile": name, role: "img",
                     "aria-label": a + "–" + b},
            [el("span", {"class": "half", text: a}), el("span", {"class": "half", text: b})]);
}

// A control that appends an event: its data-event is the event's JSON, as tests find it.
export function eventButton(event, label, extra) {
  const attrs = Object.assign({type: "button", "data-event": JSON.stringify(event)}, extra || {});
  return el("button", attrs, Array.isArray(label) ? label : [label]);
}

export function group(title, nodes, id) {
  return el("section", {"class": "group", id: id || null, "aria-label": title}, [
    el("h2", {text: title}), el("div", {"class": "buttons"}, nodes)]);
}

const messageBox = () => statusLine("message");

watchControls();

// The message line: text (or a node), kind "ok", "warn", "error" (said at once: role alert)
// or none; on the start page beside the control last used (../near.js: a refused start shows
// under its button, not above a phone's whole form).
export function say(text, kind) {
  const box = messageBox();
  // the start page's forms; a match's taps redraw the buttons under the line, and a refused
  // tap is said among them already (pickers.js)
  if (document.body.dataset.scorePage === "start") placeNear(box);
  box.textContent = "";
  box.className = "message" + (kind ? " " + kind : "");
  box.setAttribute("role", kind === "error" ? "alert" : "status");
  if (text) box.appendChild(typeof text === "string" ? document.createTextNode(text) : text);
  if (document.body.dataset.scorePage === "start") reveal(box);
}

export function showMessage() {
  messageBox().scrollIntoView({block: "nearest"});
}
