/* The page's words for people, in the reader's language: the pages' one module
   (api/static/i18n.js; docs/i18n.md, "JavaScript"), as the phone's modules import it. */
export {_, compare, language, listOf, ngettext, pgettext} from "../i18n.js";
