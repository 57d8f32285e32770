"""What the browser tests share: Debian's chromium (apt, /usr/bin/chromium; DOMINO_CHROMIUM
names another), where screenshots go (tests/pages/artifacts/, or DOMINO_PAGES_ARTIFACTS), and
the two sizes pages are looked at (a 360-pixel phone, a desktop), the one chromium a run of
browser tests shares (KeptBrowser), and axe-core's findings on a page (axe_findings). The ``browser`` and ``page`` fixtures are in
tests/pages/conftest.py."""

from __future__ import annotations

import os
import shutil
import weakref
from pathlib import Path
from typing import Any, Collection

import pytest

CHROMIUM = os.environ.get("DOMINO_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
ARTIFACTS = Path(os.environ.get("DOMINO_PAGES_ARTIFACTS") or Path(__file__).parent / "artifacts")
SIZES = ((360, 800), (1280, 900))


class KeptBrowser:
    """Chromium under playwright, launched when a browser test first asks for it and kept for
    the browser tests that follow, then stopped before the first test that drives none.

    Launched once a module, as it was, a run started it 35 times, each time the playwright
    driver and chromium: some 1 s of CPU and up to 7 s of wall time on the shared machine.
    Each test still gets a new context (cookies, storage, cache and service workers its own)
    from ``page`` or its own ``browser.new_context``. Why not kept for the whole session:
    playwright's sync API holds its event loop running on the main thread while it lives, and
    ``asyncio.run`` refuses to start inside it (tests/api/test_api_asgi.py)."""

    def __init__(self, executable: str) -> None:
        self.executable = executable
        self._playwright: Any = None  # the started sync_playwright() context manager
        self._browser: Any = None

    def get(self) -> Any:
        """The browser, launched now if none is running (or the last one has gone)."""
        if self._browser is not None and self._browser.is_connected():
            return self._browser
        self.close()
        sync_api = pytest.importorskip("playwright.sync_api")
        self._playwright = sync_api.sync_playwright()
        playwright = self._playwright.__enter__()
        try:
            self._browser = playwright.chromium.launch(executable_path=self.executable)
        except sync_api.Error as error:  # pragma: no cover - a broken browser install
            self.close()
            pytest.skip(f"chromium at {self.executable} does not start under playwright: {error}")
        return self._browser

    def close(self) -> None:
        """The browser closed and playwright stopped, if they run."""
        browser, started = self._browser, self._playwright
        self._browser = self._playwright = None
        try:
            if browser is not None and browser.is_connected():
                browser.close()
        finally:
            if started is not None:
                started.__exit__(None, None, None)

# Everything of a page seen without a sideways scroll (page.evaluate(WHOLE) lists what is not):
# the page no wider than the window; no box that scrolls sideways (overflow auto or scroll)
# with more than it shows, nor one that clips (hidden, clip) cutting what is in it; no text
# running past the window's edges or out of a box that clips or scrolls it. A form field's own
# text (a long address in the share box), what is hidden to the eye (.visually-hidden, the head
# of a table shown as cards) and a folded <details> are not looked at.
WHOLE = """() => {
  const width = document.documentElement.clientWidth;
  const problems = [];
  const describe = el => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
    (el.className && typeof el.className === 'string' ? '.' + el.className.trim().replace(/\\s+/g, '.') : '') +
    ' "' + (el.textContent || '').replace(/\\s+/g, ' ').trim().slice(0, 60) + '"';
  const unseen = el => el.closest('.visually-hidden, .skip, details:not([open]) > :not(summary), ' +
    'input, select, textarea, svg, [hidden], dialog:not([open])') ||
    (el.closest('thead') && el.closest('table.cards'));
  if (document.documentElement.scrollWidth > width) {
    problems.push('the page is ' + document.documentElement.scrollWidth + ' px wide in ' + width);
  }
  document.querySelectorAll('body *').forEach(el => {
    if (!el.getClientRects().length || unseen(el)) { return; }
    const style = getComputedStyle(el);
    if (style.overflowX !== 'visible' && el.scrollWidth > el.clientWidth + 1) {
      problems.push('scrolls or cuts sideways (' + el.scrollWidth + ' > ' + el.clientWidth + '): ' + describe(el));
    }
  });
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!node.textContent.trim() || !el.getClientRects().length || unseen(el)) { continue; }
    const range = document.createRange();
    range.selectNodeContents(node);
    const box = range.getBoundingClientRect();
    if (!box.width) { continue; }
    if (box.left < -1 || box.right > width + 1) {
      problems.push('text past the window (' + Math.round(box.left) + ' to ' + Math.round(box.right) + '): ' + describe(el));
      continue;
    }
    for (let up = el; up && up !== document.body; up = up.parentElement) {
      if (getComputedStyle(up).overflowX === 'visible') { continue; }
      const frame = up.getBoundingClientRect();
      if (box.left < frame.left - 1 || box.right > frame.right + 1) {
        problems.push('text out of its box: ' + describe(el) + ' in ' + describe(up));
        break;
      }
    }
  }
  return problems;
}"""

# The controls a finger taps smaller than 44 px either way (page.evaluate(SMALL_TARGETS) lists
# them, each as "tag text: width x height"): buttons, fields, a details' summary, and every link of
# a menu (a nav's, the header's). A link inside a sentence or a table's cell is not looked at (its
# text is its size), nor a control hidden to the eye (as WHOLE: the head of a table shown as cards).
SMALL_TARGETS = """() => Array.from(document.querySelectorAll(
    'header a, nav a, button, input:not([type=hidden]), select, textarea, summary'))
  .filter(el => el.getClientRects().length &&
    !el.closest('.visually-hidden, .skip, [hidden], details:not([open]) > :not(summary)') &&
    !(el.closest('thead') && el.closest('table.cards')))
  .map(el => [el, el.getBoundingClientRect()])
  .filter(([, box]) => box.width < 44 || box.height < 44)
  .map(([el, box]) => el.tagName.toLowerCase() + ' "' + (el.textContent || el.id).replace(/\\s+/g, ' ').trim().slice(0, 40) +
    '": ' + Math.round(box.width) + ' x ' + Math.round(box.height))"""

# A button and the link beside it on one line with less than 8 px between them, or a button
# right under a field with less than 8 px between them (page.evaluate(CRAMPED) lists them): the
# acta's Print against its Download, a space apart, read as one control; the desk's "Start the
# match" touching the select above it once the row wrapped on a phone. (Buttons side by side are
# told apart by their own borders.)
CRAMPED = """() => {
  const seen = el => el.getClientRects().length && el.getBoundingClientRect().height > 0 &&
    !el.closest('.visually-hidden, [hidden], details:not([open]) > :not(summary)');
  const buttons = Array.from(document.querySelectorAll('main button')).filter(seen);
  const fields = Array.from(document.querySelectorAll('main input:not([type=hidden]):not([type=checkbox]), main select, main textarea')).filter(seen);
  const said = el => '"' + (el.textContent.trim() || el.id || el.name) + '"';
  const found = [];
  for (const el of buttons) {
    const a = el.getBoundingClientRect();
    for (const next of [el.previousElementSibling, el.nextElementSibling]) {
      if (!next || !next.matches('a') || !next.getClientRects().length) { continue; }
      const b = next.getBoundingClientRect();
      if (a.top < b.bottom && b.top < a.bottom && Math.max(b.left - a.right, a.left - b.right) < 8) {
        found.push(said(el) + ' and ' + said(next));
      }
    }
    for (const field of fields) {
      const b = field.getBoundingClientRect();
      const gap = a.top - b.bottom;
      if (a.left < b.right && b.left < a.right && gap > -1 && gap < 8) {
        found.push(said(el) + ' under ' + said(field));
      }
    }
  }
  return found;
}"""

# A desk page's controls, enabled once its module has wired them (desk/frame.html, wired.js). A
# click or a fill waits for it by itself (playwright waits for a control to be enabled); a step
# by keyboard (focus, Tab) does not, and waits for this first.
WIRED = "fieldset[data-wiring]:not([disabled])"


def desk_wired(page: Any, timeout: int = 30_000) -> None:
    page.wait_for_selector(WIRED, state="attached", timeout=timeout)


def resized(page: Any, width: int, height: int) -> None:
    """The window made ``width`` by ``height``, returning once the page is laid out for it:
    pages.js has made its tables reflowing (a module: it may not have run when the page's own
    markup is there) and has fitted them to the new width, which it does in the animation
    frame after the resize event. Two frames waited for: the resize event and pages.js's frame
    come in the first, this test's second callback after them. Looking sooner read a phone's
    table as a desktop's once under load (410 px of table in 326)."""
    page.set_viewport_size({"width": width, "height": height})
    if page.locator(".table-wrap > table").count():
        page.wait_for_selector(".table-wrap > table.reflow", state="attached")
    page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")


# The impacts a test that looks at one page's accessibility fails on; the sweep
# (test_sweep_browser.py) fails on every impact.
SERIOUS = ("serious", "critical")
_AXED: "weakref.WeakSet[Any]" = weakref.WeakSet()  # the browser contexts given axe-core


def axe_findings(page: Any, impacts: Collection[str] | None = SERIOUS) -> list[str]:
    """axe-core's violations on the page as it is now, of every rule (the options
    axe_playwright_python's ``Axe.run`` passes), those of ``impacts`` (None: every impact),
    each said with its rule, impact, help and first three places.

    ``Axe.run`` sends axe-core (572 kB) to the page at every run: some 250 ms of wall time at
    load 10, where the same script as the context's init script costs a navigation some 10 to
    25 ms. So axe-core is given to a page's context once, as an init script that puts it in
    every document the context opens after, and sent by ``evaluate`` only to a document opened
    before that."""
    from axe_playwright_python.base import AXE_SCRIPT  # axe-core as the package ships it

    if page.context not in _AXED:
        page.context.add_init_script(AXE_SCRIPT)
        _AXED.add(page.context)
    if not page.evaluate("typeof window.axe?.run === 'function'"):
        page.evaluate(AXE_SCRIPT)
    found = page.evaluate("axe.run({resultTypes: ['violations']})")["violations"]
    return [f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:3]}"
            for v in found if impacts is None or v["impact"] in impacts]


KEPT = KeptBrowser(CHROMIUM)  # the test process's one (tests/pages/conftest.py)
