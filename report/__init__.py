"""What the documentation site needs beside Sphinx: a headless Chromium (``browser``: the site's
browser tests, tests/test_docs.py) and the README's picture of a page (``screenshot``: ``make
report-screenshot``). Not part of the ``mlpr`` package. The lectures' results pages, which a
hand-written generator here used to write, are the site's own (docs/lecture_results.py; ``make
report`` builds the site with the runs of figures/).
"""
