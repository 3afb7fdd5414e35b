#!/usr/bin/env python3
"""Checks the documentation site (scripts/docs_site.sh) in headless Chromium (CTest docs.site.browse).

    scripts/check_site.py SITE_DIR [--chromium PATH]

Serves SITE_DIR on a local port and drives one Chromium through the DevTools protocol over a pipe
(--remote-debugging-pipe: no extra Python package). Chromium renders every guide page and every 8th page of the API
reference (doxygen's pages share one template: 40 of its 290 pages check it renders); the links and anchors of the
API pages it does not render are read from their HTML (html.parser), so every link of every page is still followed.
Rendering all 315 pages took 83 s of the CTest's time, this 20 s. It fails when:
  - a page does not render: a script error, a resource that does not load, or no text;
  - an internal link points to a page the site does not have, or to an anchor that page lacks;
  - a link leaves the site for a resource the pages load (the site must read offline);
  - the search page does not find `vectorize` (the query and its results run in the browser);
  - vectorize.html's code blocks are not highlighted (Pygments' classes, a keyword coloured as the shipped
    css/pygments.css says), or
    a block's long lines do not scroll inside it; vectorize, reduce or kernels.html has fewer than 5 links into the API
    reference (scripts/link_api.py).
Standard library only.
"""
import argparse
import functools
import html.parser
import http.server
import json
import os
import shutil
import subprocess
import sys
import threading
import time
import urllib.parse


class Browser:
    """One headless Chromium, one tab, driven through the DevTools protocol on fds 3 and 4."""

    def __init__(self, chromium):
        to_child_r, self._to_child = os.pipe()
        self._from_child, from_child_w = os.pipe()

        def fds():  # the child reads commands on fd 3 and writes replies on fd 4
            os.dup2(to_child_r, 3)
            os.dup2(from_child_w, 4)

        args = [chromium, "--headless=new", "--remote-debugging-pipe", "--no-sandbox", "--disable-gpu",
                "--no-first-run", "--no-default-browser-check", "--disable-extensions",
                "--user-data-dir=" + os.path.join(os.environ.get("TMPDIR", "/tmp"), f"ufx-site-check-{os.getpid()}"),
                "about:blank"]
        # fds 3 and 4 are made in the child, after which Popen closes every fd not kept: keep them
        self.proc = subprocess.Popen(args, preexec_fn=fds, pass_fds=(3, 4),
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_child_r)
        os.close(from_child_w)
        self._buf = b""
        self._id = 0
        self.events = []
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.call(domain + ".enable", session=True)

    def _read(self, timeout):
        end = time.time() + timeout
        while b"\0" not in self._buf:
            if time.time() > end:
                raise TimeoutError("Chromium did not answer")
            chunk = os.read(self._from_child, 1 << 16)
            if not chunk:
                raise RuntimeError("Chromium exited")
            self._buf += chunk
        msg, self._buf = self._buf.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method, session=False, timeout=30, **params):
        self._id += 1
        msg = {"id": self._id, "method": method, "params": params}
        if session:
            msg["sessionId"] = self.session
        os.write(self._to_child, json.dumps(msg).encode() + b"\0")
        while True:
            reply = self._read(timeout)
            if reply.get("id") == self._id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def wait_event(self, method, timeout=30):
        end = time.time() + timeout
        while True:
            for i, e in enumerate(self.events):
                if e.get("method") == method:
                    del self.events[: i + 1]
                    return e
            self.events.append(self._read(max(0.1, end - time.time())))

    def open(self, url):
        """Loads url; returns the problems its load reported (script errors, failed requests)."""
        self.events.clear()
        self.call("Page.navigate", session=True, url=url)
        self.wait_event("Page.loadEventFired")
        problems = []
        for e in self.events:
            m, p = e.get("method"), e.get("params", {})
            if m == "Runtime.exceptionThrown":
                problems.append("script error: " + p["exceptionDetails"].get("text", "") + " " +
                                json.dumps(p["exceptionDetails"].get("exception", {}).get("description", "")))
            elif m == "Network.loadingFailed" and p.get("type") != "Ping":
                problems.append(f"failed to load a resource ({p.get('errorText')})")
            elif m == "Network.responseReceived" and p["response"]["status"] >= 400:
                problems.append(f"{p['response']['status']} for {p['response']['url']}")
            elif m == "Log.entryAdded" and p["entry"]["level"] == "error":
                problems.append("console: " + p["entry"]["text"])
        return problems

    def eval(self, expression):
        r = self.call("Runtime.evaluate", session=True, expression=expression, returnByValue=True)
        if "exceptionDetails" in r:
            raise RuntimeError(f"evaluating {expression[:60]}: {r['exceptionDetails']}")
        return r["result"].get("value")

    def close(self):
        try:
            self.call("Browser.close", timeout=5)
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


PAGE_FACTS = """(() => {
  const ids = new Set();
  document.querySelectorAll('[id]').forEach(e => ids.add(e.id));
  document.querySelectorAll('a[name]').forEach(e => ids.add(e.getAttribute('name')));
  const links = [];
  document.querySelectorAll('a[href]').forEach(a => links.push(a.href));
  const loads = [];
  document.querySelectorAll('script[src], link[rel=stylesheet][href], img[src]').forEach(
      e => loads.push(e.src || e.href));
  return {title: document.title, text: (document.body ? document.body.innerText : '').trim().length,
          ids: [...ids], links: links, loads: loads};
})()"""


class StaticFacts(html.parser.HTMLParser):
    """PAGE_FACTS of a page read from its HTML: ids, a[name], a[href] (resolved against the page's URL), loads."""

    def __init__(self, url):
        super().__init__()
        self.url = url
        self.facts = {"title": "", "text": 0, "ids": [], "links": [], "loads": []}
        self._in_title = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get("id"):
            self.facts["ids"].append(a["id"])
        if tag == "a" and a.get("name"):
            self.facts["ids"].append(a["name"])
        if tag == "a" and a.get("href") is not None:
            self.facts["links"].append(urllib.parse.urljoin(self.url, a["href"]))
        if (tag == "script" and a.get("src")) or (tag == "img" and a.get("src")):
            self.facts["loads"].append(urllib.parse.urljoin(self.url, a["src"]))
        if tag == "link" and a.get("rel") == "stylesheet" and a.get("href"):
            self.facts["loads"].append(urllib.parse.urljoin(self.url, a["href"]))
        self._in_title = tag == "title"

    def handle_endtag(self, tag):
        self._in_title = False

    def handle_data(self, data):
        if self._in_title:
            self.facts["title"] += data
        self.facts["text"] += len(data.strip())


def static_facts(site, page, url):
    p = StaticFacts(url)
    with open(os.path.join(site, page), encoding="utf-8", errors="replace") as f:
        p.feed(f.read())
    return p.facts


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


# A rendered page's code blocks: how many are highlighted, a keyword's colour, and whether a block scrolls its long
# lines.
CODE_LOOK = """(() => {
  const blocks = document.querySelectorAll('div.highlight pre');
  const k = document.querySelector('div.highlight .k');
  const pre = blocks[0];
  return {blocks: blocks.length, keyword: k ? getComputedStyle(k).color : null,
          text: pre ? getComputedStyle(pre).color : null, overflow: pre ? getComputedStyle(pre).overflowX : null};
})()"""


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("site")
    ap.add_argument("--chromium", default=shutil.which("chromium") or shutil.which("chromium-browser"))
    args = ap.parse_args()
    site = os.path.abspath(args.site)
    if not args.chromium:
        sys.exit("check_site.py: Chromium not found (Debian: apt-get install chromium)")
    pages = sorted(os.path.relpath(os.path.join(d, f), site) for d, _, fs in os.walk(site) for f in fs
                   if f.endswith(".html") and "/search/" not in os.path.join(d, f) + "/")
    if "index.html" not in pages:
        sys.exit(f"check_site.py: {site} has no index.html")

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(QuietHandler, directory=site))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"

    failures = []
    facts = {}
    browser = Browser(args.chromium)
    start = time.time()
    api = [p for p in pages if p.startswith("api/")]
    rendered = set(p for p in pages if not p.startswith("api/")) | set(api[::8]) | {"api/index.html"} & set(pages)
    try:
        for page in pages:
            if page in rendered:
                problems = browser.open(base + page)
                f = browser.eval(PAGE_FACTS)
            else:
                problems = []
                f = static_facts(site, page, base + page)
            facts[page] = f
            if not f["title"] or f["text"] < 20:
                problems.append(f"nothing rendered (title {f['title']!r}, {f['text']} characters of text)")
            for src in f["loads"]:
                if not src.startswith(base) and not src.startswith("data:"):
                    problems.append(f"loads {src} from outside the site (it must read offline)")
            failures += [f"{page}: {p}" for p in problems]

        # every internal link and anchor resolves
        for page, f in facts.items():
            for link in f["links"]:
                if not link.startswith(base):
                    continue
                target = urllib.parse.urlsplit(link[len(base):])
                path = urllib.parse.unquote(target.path) or "index.html"
                if path.endswith("/"):
                    path += "index.html"
                if not os.path.isfile(os.path.join(site, path)):
                    failures.append(f"{page}: link to {path}, which the site does not have")
                elif target.fragment and path in facts:
                    if urllib.parse.unquote(target.fragment) not in facts[path]["ids"]:
                        failures.append(f"{page}: link to {path}#{target.fragment}, an anchor that page lacks")

        # code blocks arrive highlighted by Pygments and styled by the shipped stylesheet (a keyword's colour is not the
        # block's text colour); a long line scrolls inside its block; inline code names link into the API reference
        problems = browser.open(base + "vectorize.html")
        failures += [f"vectorize.html: {p}" for p in problems]
        look = browser.eval(CODE_LOOK) or {}
        # css/pygments.css: Pygments' default style gives a keyword (.k) #008000, which the theme's own styles do not
        if not look.get("blocks") or look.get("keyword") != "rgb(0, 128, 0)":
            failures.append(f"vectorize.html: code blocks are not highlighted by css/pygments.css ({look})")
        if look.get("overflow") not in ("auto", "scroll"):
            failures.append(f"vectorize.html: a code block's long lines do not scroll inside it (overflow-x {look})")
        for page in ("vectorize.html", "reduce.html", "kernels.html"):
            api_links = [link for link in facts.get(page, {}).get("links", []) if link.startswith(base + "api/")]
            if len(api_links) < 5:
                failures.append(f"{page}: {len(api_links)} links into the API reference (scripts/link_api.py)")

        # the search finds vectorize (mkdocs' search runs in a web worker: wait for its results)
        problems = browser.open(base + "search.html?q=vectorize")
        failures += [f"search.html: {p}" for p in problems]
        found = []
        end = time.time() + 20
        while time.time() < end:
            found = browser.eval("[...document.querySelectorAll('#mkdocs-search-results a')].map(a => a.href)") or []
            if found:
                break
            time.sleep(0.2)
        if not any("vectorize.html" in h for h in found):
            failures.append(f"search.html?q=vectorize: no result links to vectorize.html (results: {found[:5]})")
    finally:
        browser.close()
        server.shutdown()

    links = sum(len(f["links"]) for f in facts.values())
    print(f"check_site.py: {len(facts)} pages checked ({len(rendered)} rendered in Chromium), {links} links followed, "
          "search checked, "
          f"in {time.time() - start:.1f} s")
    for f in failures:
        print("FAIL", f)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
