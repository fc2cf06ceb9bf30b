"""A headless Chromium driven through its DevTools protocol over a pipe, with the standard library.

``Chromium().load(path)`` opens a local page at a given window size and returns what a reader
would meet: each image and whether it loaded, each link, the page's width against the window's,
the console errors and failed loads, the formulas MathJax typeset, and a PNG screenshot. Used by
``tests/test_docs.py`` and ``tests/test_report.py``, and by ``make report-screenshot``. The
browser is the system's (Debian's ``chromium-headless-shell`` or ``chromium``, or
``$MLPR_CHROMIUM``): nothing is downloaded. ``--remote-debugging-pipe``
speaks the protocol on file descriptors 3 (commands) and 4 (replies and events), one JSON
message each, ended by a NUL byte, so that no port and no websocket library is involved.
"""

from __future__ import annotations

import base64
import fcntl
import json
import os
import queue
import shutil
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

#: the executables looked for, in this order, after ``$MLPR_CHROMIUM``
CANDIDATES = ("chromium-headless-shell", "chromium", "chromium-browser", "google-chrome",
              "google-chrome-stable")

_INSPECT = """(() => ({
  images: [...document.images].map(i => ({src: i.currentSrc || i.src,
                                           width: i.naturalWidth, complete: i.complete})),
  links: [...document.querySelectorAll('a[href]')].map(a => a.href),
  ids: [...document.querySelectorAll('[id]')].map(e => e.id),
  scrollWidth: document.documentElement.scrollWidth,
  innerWidth: window.innerWidth,
  title: document.title,
  textLength: document.body ? document.body.innerText.length : 0,
  math: document.querySelectorAll('mjx-container').length,
}))()"""

#: for `Chromium.load`'s ``wait``: MathJax has typeset the page (resolves at once without MathJax)
MATHJAX_DONE = ("(window.MathJax && MathJax.startup && MathJax.startup.promise) "
                "? MathJax.startup.promise.then(() => true) : false")


def find_chromium() -> str | None:
    """The path of a Chromium executable, or None."""
    env = os.environ.get("MLPR_CHROMIUM")
    if env:
        return env if Path(env).exists() else shutil.which(env)
    for name in CANDIDATES:
        path = shutil.which(name)
        if path:
            return path
    return None


@dataclass
class Page:
    """What a page showed in the browser."""

    url: str
    images: list[dict]
    links: list[str]
    ids: list[str]
    scroll_width: int
    inner_width: int
    title: str
    text_length: int
    math: int = 0  # the formulas MathJax typeset (its mjx-container elements)
    waited: object = None  # the value of the ``wait`` expression
    errors: list[str] = field(default_factory=list)
    screenshot: bytes = b""


class Chromium:
    """A headless Chromium process (a context manager); `load` opens pages in it."""

    def __init__(self, executable: str | None = None, timeout: float = 60.0):
        self.executable = executable or find_chromium()
        if not self.executable:
            raise FileNotFoundError(
                f"no Chromium found (looked for $MLPR_CHROMIUM and {', '.join(CANDIDATES)}); on "
                f"Debian: apt-get install chromium-headless-shell")
        self.timeout = timeout
        self._profile = tempfile.mkdtemp(prefix="mlpr-chromium-")
        cmd_r, self._cmd_w = os.pipe()
        self._out_r, out_w = os.pipe()
        args = [self.executable, "--headless", "--remote-debugging-pipe", "--disable-gpu",
                "--no-first-run", "--no-default-browser-check", "--disable-extensions",
                "--disable-background-networking", "--disable-dev-shm-usage",
                "--hide-scrollbars", f"--user-data-dir={self._profile}", "about:blank"]
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            args.insert(1, "--no-sandbox")  # Chromium refuses to run its sandbox as root

        # above 10 first, so that placing them on 3 and 4 in the child clobbers neither
        high_r = fcntl.fcntl(cmd_r, fcntl.F_DUPFD, 10)
        high_w = fcntl.fcntl(out_w, fcntl.F_DUPFD, 10)
        os.close(cmd_r)
        os.close(out_w)
        cmd_r, out_w = high_r, high_w

        def child_fds():  # the protocol's descriptors: 3 is read by Chromium, 4 written
            os.dup2(cmd_r, 3)
            os.dup2(out_w, 4)
            os.set_inheritable(3, True)
            os.set_inheritable(4, True)

        self.proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE, preexec_fn=child_fds,
                                     close_fds=False)
        os.close(cmd_r)
        os.close(out_w)
        self._messages: queue.Queue = queue.Queue()
        self._events: list[dict] = []
        self._next_id = 0
        threading.Thread(target=self._read, daemon=True).start()
        self._stderr: list[bytes] = []
        threading.Thread(target=lambda: self._stderr.extend(self.proc.stderr), daemon=True).start()

    # -- the protocol ---------------------------------------------------------------------------
    def _read(self) -> None:
        buf = b""
        while True:
            try:
                chunk = os.read(self._out_r, 1 << 16)
            except OSError:
                chunk = b""
            if not chunk:
                self._messages.put(None)
                return
            buf += chunk
            while b"\0" in buf:
                msg, buf = buf.split(b"\0", 1)
                self._messages.put(json.loads(msg))

    def send(self, method: str, params: dict | None = None, session: str | None = None) -> dict:
        """Send one command and return its result (events met meanwhile are kept)."""
        self._next_id += 1
        msg = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self._cmd_w, json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + self.timeout
        while True:
            reply = self._get(deadline, method)
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self._events.append(reply)

    def _get(self, deadline: float, waiting_for: str) -> dict:
        left = deadline - time.monotonic()
        try:
            reply = self._messages.get(timeout=max(0.01, left))
        except queue.Empty:
            raise TimeoutError(f"Chromium did not answer {waiting_for} within "
                               f"{self.timeout:.0f} s") from None
        if reply is None:
            raise RuntimeError(f"Chromium exited while waiting for {waiting_for}: "
                               + b"".join(self._stderr).decode(errors="replace")[-2000:])
        return reply

    def _wait_event(self, method: str, session: str) -> dict:
        deadline = time.monotonic() + self.timeout
        for i, e in enumerate(self._events):
            if e.get("method") == method and e.get("sessionId") == session:
                return self._events.pop(i)
        while True:
            e = self._get(deadline, method)
            if e.get("method") == method and e.get("sessionId") == session:
                return e
            self._events.append(e)

    # -- pages ----------------------------------------------------------------------------------
    def load(self, path, width: int = 1280, height: int = 800, full_page: bool = False,
             wait: str | None = None) -> Page:
        """Open a local HTML file in a new tab of ``width`` x ``height`` CSS pixels; ``wait``, a
        JavaScript expression (a promise is awaited), runs once the page has loaded, before the
        page is read (`MATHJAX_DONE`: MathJax has typeset the page)."""
        url = Path(path).resolve().as_uri()
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target,
                                                      "flatten": True})["sessionId"]
        try:
            for domain in ("Page", "Runtime", "Log", "Network"):
                self.send(f"{domain}.enable", session=session)
            self.send("Emulation.setDeviceMetricsOverride",
                      {"width": width, "height": height, "deviceScaleFactor": 1,
                       "mobile": False}, session=session)
            self._events = [e for e in self._events if e.get("sessionId") != session]
            self.send("Page.navigate", {"url": url}, session=session)
            self._wait_event("Page.loadEventFired", session)
            waited = None
            if wait is not None:
                waited = self.send("Runtime.evaluate", {"expression": wait, "awaitPromise": True,
                                                        "returnByValue": True},
                                   session=session)["result"].get("value")
            info = self.send("Runtime.evaluate", {"expression": _INSPECT, "returnByValue": True},
                             session=session)["result"]["value"]
            shot = {"format": "png"}
            if full_page:
                shot["captureBeyondViewport"] = True
                h = self.send("Runtime.evaluate", {
                    "expression": "document.documentElement.scrollHeight",
                    "returnByValue": True}, session=session)["result"]["value"]
                shot["clip"] = {"x": 0, "y": 0, "width": width, "height": h, "scale": 1}
            png = base64.b64decode(self.send("Page.captureScreenshot", shot,
                                             session=session)["data"])
            errors = [_describe(e) for e in self._events
                      if e.get("sessionId") == session and _is_error(e)]
            return Page(url=url, images=info["images"], links=info["links"], ids=info["ids"],
                        scroll_width=info["scrollWidth"], inner_width=info["innerWidth"],
                        title=info["title"], text_length=info["textLength"],
                        math=info["math"], waited=waited, errors=errors,
                        screenshot=png)
        finally:
            self.send("Target.closeTarget", {"targetId": target})
            self._events = [e for e in self._events if e.get("sessionId") != session]

    def close(self) -> None:
        try:
            self.send("Browser.close")
        except Exception:  # already gone: nothing to close
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for fd in (self._cmd_w, self._out_r):
            try:
                os.close(fd)
            except OSError:
                pass
        shutil.rmtree(self._profile, ignore_errors=True)

    def __enter__(self) -> Chromium:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _is_error(e: dict) -> bool:
    m, p = e.get("method"), e.get("params", {})
    return (m == "Runtime.exceptionThrown"
            or (m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"))
            or (m == "Log.entryAdded" and p.get("entry", {}).get("level") == "error")
            or (m == "Network.loadingFailed" and not p.get("canceled")))


def _describe(e: dict) -> str:
    m, p = e["method"], e.get("params", {})
    if m == "Runtime.exceptionThrown":
        return f"exception: {p.get('exceptionDetails', {}).get('text')}"
    if m == "Runtime.consoleAPICalled":
        return "console.error: " + " ".join(str(a.get("value", a.get("description")))
                                            for a in p.get("args", []))
    if m == "Log.entryAdded":
        entry = p["entry"]
        return f"log: {entry.get('text')} {entry.get('url', '')}".strip()
    return f"failed load: {p.get('errorText')} ({p.get('type')})"
