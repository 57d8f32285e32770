"""What the browser tests share: Debian's chromium (apt, /usr/bin/chromium; DOMINO_CHROMIUM
names another), where screenshots go (tests/pages/artifacts/, or DOMINO_PAGES_ARTIFACTS), and
the two sizes pages are looked at (a 360-pixel phone, a desktop). The ``browser`` and ``page``
fixtures are in tests/pages/conftest.py."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

CHROMIUM = os.environ.get("DOMINO_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
ARTIFACTS = Path(os.environ.get("DOMINO_PAGES_ARTIFACTS") or Path(__file__).parent / "artifacts")
SIZES = ((360, 800), (1280, 900))
