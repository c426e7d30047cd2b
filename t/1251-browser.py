#!/usr/bin/env python3
"""Render a page in headless Chromium and say what a reader would see.

usage: 1251-browser.py PAGE.html SHOT.png [WIDTH]

Chromium is driven over its DevTools protocol on a pipe
(--remote-debugging-pipe: JSON messages ended by NUL on fds 3 and 4),
with the standard library only. The page is loaded from a file, the
viewport made as tall as the page, and a screenshot written to SHOT.png.
Then one line per fact, for t/1251-report-browser.t:

  title TEXT             document.title
  height N               the page's height in CSS pixels
  scripts N              script elements in the DOM
  svg I W H COLOURS      inline svg I: its size, and the number of colours
                         the screenshot holds inside it (a picture drawn
                         has many; one left blank has one)
  svgtext I PX           the smallest text of inline svg I as rendered, in
                         CSS pixels: its font size times the svg's scale
                         (0 when it has no text)
  colours N              colours in the whole screenshot
  request URL            every request the page made (the page itself
                         is the only one expected)
  console LEVEL TEXT     every console message, exception and browser log
                         entry (a refused script or load is one)

Exit 0 when all of this was read; 1 with one line on stderr when PAGE is
not a file or did not load, or Chromium could not be started or did not
answer within a minute.
"""
import base64
import json
import os
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import zlib

CHROMIUM = os.environ.get("PB_CHROMIUM", "chromium")
# As root, in a sandbox with a closed network: the flags that start it
# cleanly there (the machine notes' "Known to work").
FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--hide-scrollbars", "--remote-debugging-pipe",
]


def fail(msg):
    sys.stderr.write("1251-browser.py: %s\n" % msg)
    sys.exit(1)


class Browser:
    def __init__(self, width):
        self.profile = tempfile.mkdtemp(prefix="pb-chromium.")
        to_r, self.to_w = os.pipe()
        self.from_r, from_w = os.pipe()
        # The child's fds 3 and 4, whatever numbers the pipes got here.
        os.dup2(to_r, 40)
        os.dup2(from_w, 41)
        os.close(to_r)
        os.close(from_w)

        def child_fds():
            os.dup2(40, 3)
            os.dup2(41, 4)

        self.log = open(os.path.join(self.profile, "stderr.log"), "w")
        try:
            self.proc = subprocess.Popen(
                [CHROMIUM] + FLAGS + ["--user-data-dir=" + self.profile,
                                      "--window-size=%d,900" % width, "about:blank"],
                preexec_fn=child_fds, close_fds=False, stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL, stderr=self.log)
        except OSError as e:
            fail("cannot start %s: %s" % (CHROMIUM, e))
        os.close(40)
        os.close(41)
        self.buf = b""
        self.next_id = 0
        self.events = []

    def send(self, method, params=None, session=None):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        try:
            os.write(self.to_w, json.dumps(msg).encode() + b"\0")
        except OSError:
            fail("chromium closed its pipe (see its log: %s)" % self.tail())
        return self.next_id

    def recv(self):
        while b"\0" not in self.buf:
            data = os.read(self.from_r, 1 << 16)
            if not data:
                fail("chromium ended (its log: %s)" % self.tail())
            self.buf += data
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method, params=None, session=None):
        want = self.send(method, params, session)
        while True:
            msg = self.recv()
            if msg.get("id") == want:
                if "error" in msg:
                    fail("%s: %s" % (method, msg["error"].get("message")))
                return msg["result"]
            self.events.append(msg)

    def wait_event(self, method):
        while not any(e.get("method") == method for e in self.events):
            self.events.append(self.recv())

    def tail(self):
        self.log.flush()
        with open(self.log.name) as f:
            lines = [l.strip() for l in f if l.strip()]
        return lines[-1] if lines else "empty"

    def close(self):
        try:
            self.send("Browser.close")
            self.proc.wait(timeout=10)
        except Exception:
            self.proc.kill()
            self.proc.wait()
        shutil.rmtree(self.profile, ignore_errors=True)


def png_pixels(data):
    """Width, height and rows of (r, g, b) bytes of an 8-bit RGB(A) PNG."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail("the screenshot is not a PNG")
    pos, idat = 8, b""
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    if depth != 8 or ctype not in (2, 6):
        fail("screenshot PNG of depth %d, colour type %d" % (depth, ctype))
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line) if bpp == 3 else bytes(
            v for j in range(0, stride, 4) for v in line[j:j + 3]))
        prev = line
    return w, h, rows


def colours(rows, x0, y0, x1, y1, limit=64):
    seen = set()
    for y in range(max(0, y0), min(len(rows), y1)):
        row = rows[y]
        for x in range(max(0, x0), min(len(row) // 3, x1), 2):
            seen.add(row[3 * x:3 * x + 3])
            if len(seen) >= limit:
                return limit
    return len(seen)


SCALE = 0.5

MEASURE = """JSON.stringify({
  title: document.title,
  height: Math.ceil(document.documentElement.scrollHeight),
  scripts: document.getElementsByTagName('script').length,
  svgs: Array.from(document.querySelectorAll('svg')).filter(
    e => !e.parentElement.closest('svg')).map(e => {
      const r = e.getBoundingClientRect();
      // the font size times the text's scale on screen (hypot: rotated text too)
      const px = Array.from(e.querySelectorAll('text')).map(t => {
        const m = t.getScreenCTM();
        return parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b); });
      return [r.left + scrollX, r.top + scrollY, r.width, r.height,
              px.length ? Math.min(...px) : 0]; })
})"""


def main():
    if len(sys.argv) not in (3, 4):
        fail("usage: 1251-browser.py PAGE.html SHOT.png [WIDTH]")
    page, shot = os.path.abspath(sys.argv[1]), sys.argv[2]
    width = int(sys.argv[3]) if len(sys.argv) == 4 else 1366
    if not os.path.isfile(page):
        fail("%s: no such file" % page)
    # a guard against a hang, in minutes: a loaded machine stretches
    # chromium's start, never the scan of the pixels below (alarm off)
    signal.signal(signal.SIGALRM, lambda *_: fail("chromium did not answer within 5 minutes"))
    signal.alarm(300)
    b = Browser(width)
    try:
        pages = [t for t in b.call("Target.getTargets")["targetInfos"] if t["type"] == "page"]
        if not pages:
            fail("chromium has no page")
        s = b.call("Target.attachToTarget", {"targetId": pages[0]["targetId"],
                                             "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            b.call(domain + ".enable", None, s)
        b.events = []
        nav = b.call("Page.navigate", {"url": "file://" + page}, s)
        if nav.get("errorText"):
            fail("%s: chromium could not load it: %s" % (page, nav["errorText"]))
        b.wait_event("Page.loadEventFired")
        facts = json.loads(b.call("Runtime.evaluate", {"expression": MEASURE,
                                                       "returnByValue": True}, s)
                           ["result"]["value"])
        b.call("Emulation.setDeviceMetricsOverride",
               {"width": width, "height": facts["height"], "deviceScaleFactor": 1,
                "mobile": False}, s)
        facts = json.loads(b.call("Runtime.evaluate", {"expression": MEASURE,
                                                       "returnByValue": True}, s)
                           ["result"]["value"])
        png = base64.b64decode(b.call("Page.captureScreenshot", {"format": "png"}, s)["data"])
        # Counted at half the size: a quarter of the pixels to decode here.
        small = base64.b64decode(b.call("Page.captureScreenshot", {
            "format": "png", "clip": {"x": 0, "y": 0, "width": width,
                                      "height": facts["height"], "scale": SCALE}}, s)["data"])
    finally:
        b.close()
        signal.alarm(0)
    with open(shot, "wb") as f:
        f.write(png)
    w, h, rows = png_pixels(small)
    print("title", facts["title"])
    print("height", facts["height"])
    print("scripts", facts["scripts"])
    for i, (x, y, sw, sh, px) in enumerate(facts["svgs"]):
        print("svg", i, round(sw), round(sh), colours(
            rows, int(x * SCALE), int(y * SCALE), int((x + sw) * SCALE), int((y + sh) * SCALE)))
        print("svgtext", i, "%.2f" % px)
    print("colours", colours(rows, 0, 0, w, h))
    for e in b.events:
        m, p = e.get("method"), e.get("params", {})
        if m == "Network.requestWillBeSent":
            print("request", p["request"]["url"])
        elif m == "Runtime.consoleAPICalled":
            print("console", p["type"], " ".join(str(a.get("value", a.get("description")))
                                                 for a in p.get("args", [])))
        elif m == "Runtime.exceptionThrown":
            print("console exception", p["exceptionDetails"].get("text"))
        elif m == "Log.entryAdded":
            print("console", p["entry"]["level"], p["entry"]["text"].replace("\n", " "))
    return 0


if __name__ == "__main__":
    sys.exit(main())
