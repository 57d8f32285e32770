/* domino-referee desk: the page's controls enabled (desk/frame.html keeps them in a disabled
 * fieldset until then). This module comes last in the page, and modules run in the document's
 * order, each one's top level at once: when it runs, the page's own module has wired its forms
 * and buttons. An ES module, as every page script is.
 */
import {wired} from "./client.js";

wired();
