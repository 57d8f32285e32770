/* A page's status line said where the person is: beside the control they last used (the form
   they sent, the button they pressed), not at the top of a page a phone shows 1,000 px of.
   The line is one live region (role status, an error role alert), moved, never copied, so a
   screen reader says it once and tests find it by its id; with no control in sight it goes
   back where the page put it. The desk's pages (client.js) and the phone's (score/dom.js)
   share it. */

let used = null;

function note(event) {
  if (event.type === "submit") {
    used = event.submitter || event.target;
    return;
  }
  const control = event.target.closest && event.target.closest("button, summary, [role=button]");
  if (control) used = control;
}

// Called by each page module as it runs (a page shown in place runs its modules again, and
// document.open() took the old listeners); the same listener is never added twice.
export function watchControls() {
  document.addEventListener("submit", note, true);
  document.addEventListener("click", note, true);
}

const homes = new Map();  // the line's id -> where the page put it (a comment node)

function shown(node) {
  return node && node.isConnected && node.getClientRects().length > 0;
}

// The status line of that id: the page's, or a new one where the page put it if a list read
// again took it away (it had been moved beside a button of that list).
export function statusLine(id) {
  const box = document.getElementById(id);
  const home = homes.get(id);
  if (box || !home || !home.isConnected) return box;
  const line = document.createElement("div");
  line.id = id;
  line.className = "status";
  line.setAttribute("role", "status");
  line.setAttribute("aria-live", "polite");
  home.after(line);
  return line;
}

// The status line `box` put beside the control last used: at the end of its form or dialog
// (after its buttons); for a button of a list the page reads again ([id$=-list], desk.js's
// refresh), right after that list, so that the line is not replaced with it; else right
// after the control. Back home when that control is gone or hidden (a dialog closed).
export function placeNear(box) {
  let home = homes.get(box.id);
  if (!home || !home.isConnected) {
    home = document.createComment(" " + box.id + " ");
    box.before(home);
    homes.set(box.id, home);
  }
  const control = shown(used) ? used : null;
  const within = control && control.closest("form, dialog");
  const list = control && !within && control.closest("[id$='-list']");
  if (within) {
    if (within.lastChild !== box) within.appendChild(box);
  } else if (list || control) {
    const after = list || control;
    if (after.nextSibling !== box) after.after(box);
  } else if (home.nextSibling !== box) {
    home.after(box);
  }
}

// The line, once it says something, scrolled into the window if it is not whole there (a
// button at the window's foot has its line just under it): the least scroll that shows it.
export function reveal(box) {
  if (!box.textContent || !shown(box)) return;
  const rect = box.getBoundingClientRect();
  if (rect.top < 0 || rect.bottom > window.innerHeight) box.scrollIntoView({block: "nearest"});
}
