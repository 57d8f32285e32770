/* domino-referee club pages: a little plain JavaScript, no build step, no library.
 *
 * - Sortable tables (table[data-sortable]): each heading with data-sort becomes a button that
 *   sorts the rows in place (numbers by data-value or text, text by locale), marking the
 *   heading aria-sort and saying what happened in a polite live region.
 * - Sign-in (the 401 page of a private club, and of every desk page): the token typed is kept
 *   in this tab's sessionStorage, and the page is fetched again with it as a bearer header,
 *   then shown in place. It never goes into a URL, a cookie or a form post. A page reached
 *   later in the tab answers the sign-in page again, which signs in at once with the kept
 *   token. A one-time code in the address's fragment (#code=..., a desk's QR code) is
 *   exchanged for its token first.
 * - Reflowing tables (every table with a head, in a .table-wrap): each cell is labelled with
 *   its column's heading (data-label) and the table marked .reflow; on a phone, or wherever
 *   the table is wider than its region, it is marked .cards too, and pages.css shows each row
 *   as a card of "label  value" lines instead of a table scrolled sideways. The roles keep
 *   it a table for screen readers whatever its display.
 * - Sign out forgets the token; the filter form leaves empty fields out of its address; Print.
 * An ES module: its words from i18n.js, in the page's language; the token and the page shown
 * in place from client.js.
 */
import {forgetToken, keepToken, show, token as keptToken} from "./client.js";
import {_, compare} from "./i18n.js";

var each = function (list, fn) { Array.prototype.forEach.call(list, fn); };

// ------------------------------------------------------------------ sorting

function announce(text) {
  var region = document.getElementById("sort-status");
  if (!region) {
    region = document.createElement("div");
    region.id = "sort-status";
    region.className = "visually-hidden";
    region.setAttribute("role", "status");
    region.setAttribute("aria-live", "polite");
    document.body.appendChild(region);
  }
  region.textContent = text;
}

function cellKey(cell, kind) {
  var raw = cell.getAttribute("data-value");
  if (raw === null) { raw = cell.textContent.trim(); }
  if (kind === "number") {
    var n = parseFloat(raw.replace("\u2212", "-").replace("%", ""));
    return isNaN(n) ? -Infinity : n;
  }
  return raw;
}

function sortTable(table, index, kind, direction) {
  var body = table.tBodies[0];
  var rows = Array.prototype.slice.call(body.rows);
  var sign = direction === "ascending" ? 1 : -1;
  rows.sort(function (a, b) {
    var x = cellKey(a.cells[index], kind);
    var y = cellKey(b.cells[index], kind);
    var order = kind === "number" ? x - y : compare(x, y);
    return sign * order; // Array.prototype.sort is stable: ties keep their order
  });
  rows.forEach(function (row) { body.appendChild(row); });
}

function makeSortable(table) {
  if (!table.tHead || !table.tBodies.length || table.tBodies[0].rows.length < 2) { return; }
  var headings = table.tHead.rows[0].cells;
  each(headings, function (th, index) {
    var kind = th.getAttribute("data-sort");
    if (!kind || th.querySelector("button.sort")) { return; }
    var button = document.createElement("button");
    button.type = "button";
    button.className = "sort";
    while (th.firstChild) { button.appendChild(th.firstChild); }
    th.appendChild(button);
    button.addEventListener("click", function () {
      var now = th.getAttribute("aria-sort");
      // A first click sorts numbers biggest first and text A to Z (unless the heading says
      // otherwise: data-sort-first), the next one reverses.
      var direction = now === "ascending" ? "descending"
        : now === "descending" ? "ascending"
        : th.getAttribute("data-sort-first") || (kind === "number" ? "descending" : "ascending");
      sortTable(table, index, kind, direction);
      each(headings, function (other) { other.removeAttribute("aria-sort"); });
      th.setAttribute("aria-sort", direction);
      announce(direction === "ascending"
        ? _("Sorted by %(column)s, ascending.", { column: button.textContent.trim() })
        : _("Sorted by %(column)s, descending.", { column: button.textContent.trim() }));
    });
  });
}

// ------------------------------------------------------------------ reflowing tables

function headings(table) {
  // the last row of the head, a heading per column (colspan counted)
  var rows = table.tHead ? table.tHead.rows : [];
  var labels = [];
  if (!rows.length) { return labels; }
  each(rows[rows.length - 1].cells, function (th) {
    var text = th.textContent.replace(/\s+/g, " ").trim();
    for (var i = 0; i < (th.colSpan || 1); i += 1) { labels.push(text); }
  });
  return labels;
}

function makeReflowing(table) {
  var labels = headings(table);
  if (labels.length < 2) { return; }
  table.setAttribute("role", "table");
  each(table.querySelectorAll("thead, tbody, tfoot"), function (group) { group.setAttribute("role", "rowgroup"); });
  each(table.rows, function (row) {
    row.setAttribute("role", "row");
    var column = 0;
    each(row.cells, function (cell) {
      var head = row.parentNode === table.tHead;
      cell.setAttribute("role", head ? "columnheader" : cell.tagName === "TH" ? "rowheader" : "cell");
      var labelled = cell.tagName === "TD" || cell.classList.contains("num");  // "Round 2"
      if (!head && labelled && (cell.colSpan || 1) === 1 && labels[column]) {
        cell.setAttribute("data-label", labels[column]);
      }
      column += cell.colSpan || 1;
    });
  });
  table.classList.add("reflow");
}

var PHONE = window.matchMedia ? window.matchMedia("(max-width: 39.99rem)") : null;

function fitTables() {
  each(document.querySelectorAll("table.reflow"), function (table) {
    if (PHONE && PHONE.matches) { table.classList.add("cards"); return; }
    table.classList.remove("cards");  // measured as a table
    var region = table.parentNode;
    if (table.offsetWidth > region.clientWidth + 1) { table.classList.add("cards"); }
  });
  // A sortable table's hint says what sorts it as it is drawn: its column headings, which a
  // table of cards does not show ([data-sort-hint] names the table, data-when its form).
  each(document.querySelectorAll("[data-sort-hint]"), function (hint) {
    var table = document.getElementById(hint.getAttribute("data-sort-hint"));
    var form = table && table.classList.contains("cards") ? "cards" : "table";
    hint.hidden = !table || hint.getAttribute("data-when") !== form;
  });
}

// Tables put in the page after it loaded (the desk reads its lists again, then says so with
// the event "domino:content"): reflowed as the page's own were.
function reflowNew() {
  each(document.querySelectorAll(".table-wrap > table:not(.reflow)"), makeReflowing);
  fitTables();
}
document.addEventListener("domino:content", reflowNew);

function initReflow() {
  each(document.querySelectorAll(".table-wrap > table"), makeReflowing);
  fitTables();
  var pending = false;
  window.addEventListener("resize", function () {
    if (pending) { return; }
    pending = true;
    window.requestAnimationFrame(function () { pending = false; fitTables(); });
  });
}

// ------------------------------------------------------------------ signing in and out

function signIn(form, token, typed) {
  var status = document.getElementById("sign-in-status");
  var say = function (text) { if (status) { status.textContent = text; } };
  form.hidden = true;
  say(_("Signing in…"));
  fetch(window.location.href, {
    headers: { "Authorization": "Bearer " + token, "Accept": "text/html" },
    cache: "no-store",
    credentials: "same-origin"  // the language picked (the lang cookie); the token is a header
  }).then(function (response) {
    if (response.status === 401) {
      forgetToken();
      form.hidden = false;
      say(typed ? _("That token was refused: check it and try again.")
                : _("The token kept in this tab is no longer accepted: sign in again."));
      return null;
    }
    keepToken(token);
    return response.text().then(show);
  }).catch(function () {
    form.hidden = false;
    say(_("The server could not be reached: try again."));
  });
}

// A one-time sign-in code in the address's fragment (#code=..., the QR code the club desk
// draws for a referee's or a secretary's phone): taken out of the address bar at once, then
// exchanged, once, for its token in a request's body, and the page signed in with it. A
// used or expired code signs nobody in: the form says why.
var CODE = /(?:^#|&)code=([^&]+)/;

function takeCode() {
  var found = CODE.exec(window.location.hash);
  if (!found) { return null; }
  window.history.replaceState(null, "", window.location.pathname + window.location.search);
  try { return decodeURIComponent(found[1]); } catch (e) { return found[1]; }
}

function exchange(form, code) {
  var status = document.getElementById("sign-in-status");
  var say = function (text) { if (status) { status.textContent = text; } };
  form.hidden = true;
  say(_("Signing in…"));
  fetch("/api/v1/signin-codes/exchange", {
    method: "POST",
    headers: { "Content-Type": "application/json", "Accept": "application/json" },
    body: JSON.stringify({ code: code }),
    cache: "no-store",
    credentials: "same-origin"
  }).then(function (response) {
    return response.json().catch(function () { return {}; }).then(function (body) {
      if (response.ok && body.token) { signIn(form, body.token, true); return; }
      form.hidden = false;
      say(_("The QR code did not sign you in: %(reason)s.",
            { reason: body.detail || String(response.status) }));
    });
  }).catch(function () {
    form.hidden = false;
    say(_("No answer from the server: the QR code was not used. Check the Wi-Fi and scan it again."));
  });
}

function initSignIn() {
  var form = document.getElementById("sign-in");
  if (!form) { return; }
  var input = form.querySelector("input[name=token]");
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var token = input.value.trim();
    if (token) { signIn(form, token, true); }
  });
  var code = takeCode();
  if (code) { exchange(form, code); return; }
  var token = keptToken();
  if (token) { signIn(form, token, false); }
}

function initSignOut() {
  each(document.querySelectorAll("[data-sign-out]"), function (button) {
    button.addEventListener("click", function () {
      forgetToken();
      window.location.reload();
    });
    button.disabled = false;  // disabled in the page until now (pages/base.html)
  });
}

// ------------------------------------------------------------------ small things

function initFilters() {
  // An empty field is no filter: leave it out of the address (the form's own fields stay
  // as they are, for the back button).
  each(document.querySelectorAll("form[data-drop-empty]"), function (form) {
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var query = new URLSearchParams();
      each(form.elements, function (field) {
        if (field.name && field.value) { query.append(field.name, field.value); }
      });
      var text = query.toString();
      window.location.assign(form.action + (text ? "?" + text : ""));
    });
  });
  each(document.querySelectorAll("button[data-print]"), function (button) {
    button.hidden = false;
    button.addEventListener("click", function () { window.print(); });
  });
}

function init() {
  each(document.querySelectorAll("table[data-sortable]"), makeSortable);
  initReflow();
  initSignIn();
  initSignOut();
  initFilters();
}

init();  // a module runs once the document is parsed
