/* domino-referee: the words the pages' scripts show, in the page's language (docs/i18n.md).
 *
 * The server embeds the translations of the scripts' messages in
 * <script type="application/json" id="messages">: {"lang", "plural": {CLDR category: form},
 * "messages": {msgid: text, or for a plural the list of its forms}}. This classic script reads
 * it and gives the others window.dominoWords: _(msgid, params) and ngettext(singular, plural, n,
 * params) fill %(name)s placeholders from params (ngettext's n is %(num)s), a msgid the page
 * was not given stays as it is (English); compare(a, b) sorts names as the language does.
 * No eval: the plural form is Intl.PluralRules' category, looked up in "plural".
 */
(function () {
  "use strict";

  var data = { lang: document.documentElement.lang || "en", plural: { one: 0, other: 1 }, messages: {} };
  var element = document.getElementById("messages");
  if (element) {
    try { data = JSON.parse(element.textContent); } catch (e) { /* keep English */ }
  }
  var rules = null;
  try { rules = new Intl.PluralRules(data.lang === "xx" ? "en" : data.lang); } catch (e) { rules = null; }
  var collator = null;
  try {
    collator = new Intl.Collator(data.lang === "xx" ? "en" : data.lang, { sensitivity: "base", numeric: true });
  } catch (e) { collator = null; }

  function fill(text, params) {
    if (!params) { return text; }
    return text.replace(/%\(([A-Za-z_][A-Za-z0-9_]*)\)[sd]/g, function (whole, name) {
      return Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : whole;
    });
  }

  function _(msgid, params) {
    var text = data.messages[msgid];
    return fill(typeof text === "string" ? text : msgid, params);
  }

  function ngettext(singular, plural, n, params) {
    var values = {};
    Object.keys(params || {}).forEach(function (key) { values[key] = params[key]; });
    if (!Object.prototype.hasOwnProperty.call(values, "num")) { values.num = n; }
    var forms = data.messages[singular];
    var text;
    if (Array.isArray(forms)) {
      var category = rules ? rules.select(n) : (n === 1 ? "one" : "other");
      var index = Object.prototype.hasOwnProperty.call(data.plural, category)
        ? data.plural[category] : data.plural.other;
      text = forms[index] !== undefined ? forms[index] : forms[forms.length - 1];
    } else {
      text = n === 1 ? singular : plural;
    }
    return fill(text, values);
  }

  function compare(a, b) {
    return collator ? collator.compare(a, b) : (a < b ? -1 : a > b ? 1 : 0);
  }

  window.dominoWords = { lang: data.lang, _: _, ngettext: ngettext, compare: compare };
}());
