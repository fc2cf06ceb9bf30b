"""A small PNG of a page of the site for the README: ``make report-screenshot``.

``.venv/bin/python -m report.screenshot docs/_build/html/results/index.html docs/report_index.png
[--width 1280]``

Renders the page in headless Chromium at ``--width`` x ``--height`` CSS pixels (the first
screen), scales it to ``--scale`` and reduces it to a 64-colour palette, so that the committed
picture weighs tens of KB.
"""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path

from report.browser import MATHJAX_DONE, Chromium


def screenshot(page: Path, out: Path, width: int = 1280, height: int = 760,
               scale: float = 0.75, colours: int = 64) -> Path:
    from PIL import Image  # matplotlib's own dependency

    with Chromium() as browser:
        shown = browser.load(page, width=width, height=height, wait=MATHJAX_DONE)
    if shown.errors:
        raise RuntimeError(f"{page}: {'; '.join(shown.errors)}")
    img = Image.open(io.BytesIO(shown.screenshot)).convert("RGB")
    img = img.resize((round(img.width * scale), round(img.height * scale)), Image.LANCZOS)
    img = img.quantize(colors=colours, method=Image.MEDIANCUT)
    out.parent.mkdir(parents=True, exist_ok=True)
    img.save(out, optimize=True)
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("page", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--height", type=int, default=760)
    parser.add_argument("--scale", type=float, default=0.75)
    args = parser.parse_args(argv)
    out = screenshot(args.page, args.out, args.width, args.height, args.scale)
    print(f"{out}: {out.stat().st_size / 1024:.0f} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
