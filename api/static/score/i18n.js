/* The page's words for people, in the reader's language (docs/pages.md, "Translating the
   page"). Every string the scripts show goes through _() or ngettext(), written as string
   literals so that Babel's javascript extractor finds them. The server embeds the translations
   as <script type="application/json" id="messages">: {"msgid": "translation", ...}; a plural
   entry is an array of forms, and the "" entry says which CLDR plural category each form is
   ({"": {"plurals": ["one", "other"]}}), the browser's Intl.PluralRules choosing among them.
   A msgid with no translation is shown as it is (English). */

function read() {
  const node = document.getElementById("messages");
  try {
    return node ? JSON.parse(node.textContent) || {} : {};
  } catch (error) {  // a broken dictionary leaves the page in English rather than blank
    return {};
  }
}

const messages = read();
const meta = messages[""] || {};
const categories = meta.plurals || ["one", "other"];
const rules = new Intl.PluralRules(meta.lang || document.documentElement.lang || "en");

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

export function ngettext(singular, plural, n, params) {
  const forms = messages[singular];
  let text = n === 1 ? singular : plural;
  if (Array.isArray(forms) && forms.length) {
    let index = categories.indexOf(rules.select(n));
    if (index < 0) index = categories.indexOf("other");
    const form = forms[index < 0 || index >= forms.length ? forms.length - 1 : index];
    if (form) text = form;
  }
  return interpolate(text, Object.assign({n: n}, params));
}
