/* domino-referee: the words the pages' scripts show, in the page's language (docs/i18n.md,
   "JavaScript"). One ES module for every page: the club pages, the desk, the scoreboard and
   the scorekeeper's phone (score/i18n.js re-exports it).

   The server embeds the translations of the page's scripts' msgids in
   <script type="application/json" id="messages">: {"lang", "plural": {CLDR category: form},
   "messages": {msgid (or "context\u0004msgid"): text, or for a plural the list of its forms}}.
   Every string a script shows goes through _(), ngettext() or pgettext(), written as string
   literals so that Babel's javascript extractor finds them. A msgid with no translation is
   shown as it is (English). Intl.PluralRules' category picks a plural's form (no eval).

   The dictionary is read from the page as it is now, not once: a page shown in place of
   another (a sign-in's answer, written over the document) brings its own words. */

let element = null;
let data = {};

function read() {
  const node = document.getElementById("messages");
  if (node !== element) {
    element = node;
    try {
      data = (node && JSON.parse(node.textContent)) || {};
    } catch (error) {  // a broken dictionary leaves the page in English rather than blank
      data = {};
    }
  }
  return data;
}

// The page's language (the pseudo-locale formats as English).
export function language() {
  return read().lang || document.documentElement.lang || "en";
}

function locale() {
  const lang = language();
  return lang === "xx" ? "en" : lang;
}

// "%(name)s" replaced by params.name; "%%" is a percent sign (Python's %-formatting, as the
// catalogs are written).
function interpolate(text, params) {
  return text.replace(/%(?:\((\w+)\)s|%)/g, (whole, name) => {
    if (name === undefined) return "%";
    return params && name in params ? String(params[name]) : whole;
  });
}

function found(key) {
  return (read().messages || {})[key];
}

export function _(msgid, params) {
  const text = found(msgid);
  return interpolate(typeof text === "string" && text ? text : msgid, params);
}

// A message whose words agree with its context ("partnership": two players).
export function pgettext(context, msgid, params) {
  const text = found(context + "\u0004" + msgid);
  return interpolate(typeof text === "string" && text ? text : msgid, params);
}

function form(forms, n, fallback) {
  if (!Array.isArray(forms) || !forms.length) return fallback;
  const plural = read().plural || {one: 0, other: 1};
  let category;
  try { category = new Intl.PluralRules(locale()).select(n); } catch (error) { category = n === 1 ? "one" : "other"; }
  const index = category in plural ? plural[category] : plural.other;
  return forms[index === undefined || index >= forms.length ? forms.length - 1 : index] || fallback;
}

// n is the count: the text says it as %(num)s (or %(n)s).
export function ngettext(singular, plural, n, params) {
  const text = form(found(singular), n, n === 1 ? singular : plural);
  return interpolate(text, Object.assign({n: n, num: n}, params));
}

// Names in the language's order (the browser's ICU): a picker's options.
export function compare(a, b) {
  try {
    return new Intl.Collator(locale(), {sensitivity: "base", numeric: true}).compare(a, b);
  } catch (error) {
    return a < b ? -1 : a > b ? 1 : 0;
  }
}

// Items listed as the page's language lists them (the browser's ICU): "2, 4, 5 y 5", "2, 4, 5
// e 5", "2, 4, 5, and 5"; one word between each pair would say "2 y 4 y 5 y 5". A language ICU
// does not know (the pseudo-locale) gets commas alone: ICU would put its default's English "and".
export function listOf(items) {
  try {
    if (Intl.ListFormat.supportedLocalesOf([language()]).length) {
      return new Intl.ListFormat(locale(), {style: "long", type: "conjunction"}).format(items.map(String));
    }
  } catch (error) {
    // an old browser without Intl.ListFormat: commas below
  }
  return items.join(", ");
}

// A time of day as the page's language writes it.
export function timeOfDay(date, options) {
  return date.toLocaleTimeString(locale(), options);
}
