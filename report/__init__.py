"""The lectures' report: static HTML pages built from the runs' results (``make report``).

Not part of the ``mlpr`` package: it needs the optional ``report`` extra (Jinja2, Markdown).
``build`` writes the pages, ``browser`` drives a headless Chromium (the tests, the screenshot).
"""
