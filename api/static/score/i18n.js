/* The page's words for people, in the reader's language (docs/pages.md, "Translating the
   page"; docs/i18n.md, "JavaScript"). Every string the scripts show goes through _() or
   ngettext(), written as string literals so that Babel's javascript extractor finds them. The
   server embeds the translations as words.scripts makes them for every page, in
   <script type="application/json" id="messages">: {"lang", "plural": {CLDR category: form},
   "messages": {msgid: text, or for a plural the list of its forms}}; Intl.PluralRules' category
   picks the form (no eval). A msgid with no translation is shown as it is (English). */

function read() {
  const node = document.getElementById("messages");
  try {
    return (node && JSON.parse(node.textContent)) || {};
  } catch (error) {  // a broken dictionary leaves the page in English rather than blank
    return {};
  }
}

const data = read();
const messages = data.messages || {};
const plural = data.plural || {one: 0, other: 1};
export const lang = data.lang || document.documentElement.lang || "en";
let rules = null;
try { rules = new Intl.PluralRules(lang === "xx" ? "en" : lang); } catch (error) { rules = null; }

// "%(name)s" replaced by params.name; "%%" is a percent sign (Python's %-formatting, as the
// catalogs are written).
function interpolate(text, params) {
  return text.replace(/%(?:\((\w+)\)s|%)/g, (whole, name) => {
    if (name === undefined) return "%";
    return params && name in params ? String(params[name]) : whole;
  });
}

export function _(msgid, params) {
  const found = messages[msgid];
  return interpolate(typeof found === "string" && found ? found : msgid, params);
}

// n is the count; the text's %(n)s says it.
export function ngettext(singular, plural_, n, params) {
  const forms = messages[singular];
  let text = n === 1 ? singular : plural_;
  if (Array.isArray(forms) && forms.length) {
    const category = rules ? rules.select(n) : (n === 1 ? "one" : "other");
    const index = category in plural ? plural[category] : plural.other;
    const form = forms[index === undefined || index >= forms.length ? forms.length - 1 : index];
    if (form) text = form;
  }
  return interpolate(text, Object.assign({n: n}, params));
}
