#!/usr/bin/env python3
"""Links the guide pages of the documentation site to the API reference (scripts/docs_site.sh runs it).

    scripts/link_api.py SITE_DIR TAGFILE

TAGFILE is doxygen's tag file of the reference (docs/Doxyfile: GENERATE_TAGFILE), which names the page and anchor of
every documented class, namespace and member. In each guide page (SITE_DIR/*.html), the first inline `<code>` that
names a documented `ufx::` name (`ufx::vectorize`, `ufx::ndarray<float, 2>`, `ufx::sum(x)`: the longest documented
prefix of its leading qualified name) becomes a link to that name's entry under api/. Code blocks, headings and code
already inside a link are left as they are. Prints how many links each page got. Standard library only.
"""
import html
import os
import re
import sys
import xml.etree.ElementTree as ET


def api_targets(tagfile):
    """{'ufx::vectorize': 'namespaceufx.html#a...', 'ufx::ndarray': 'classufx_1_1ndarray.html', ...}"""
    targets = {}
    for c in ET.parse(tagfile).getroot().findall("compound"):
        kind, name = c.get("kind"), c.findtext("name")
        if kind not in ("class", "struct", "union", "namespace") or not name or not name.startswith("ufx"):
            continue
        targets.setdefault(name, c.findtext("filename"))
        for m in c.findall("member"):
            mname, f, a = m.findtext("name"), m.findtext("anchorfile"), m.findtext("anchor")
            if mname and f and a and m.get("kind") != "friend":
                targets.setdefault(f"{name}::{mname}", f"{f}#{a}")
    return targets


LEAD = re.compile(r"(ufx(?:::[A-Za-z_][A-Za-z0-9_]*)+)")
TAG = re.compile(r"<(/?)(pre|a|h[1-6]|code)\b[^>]*>", re.I)


def resolve(code_text, targets):
    m = LEAD.match(html.unescape(code_text))
    if not m:
        return None, None
    parts = m.group(1).split("::")
    while len(parts) > 1:
        name = "::".join(parts)
        if name in targets:
            return name, targets[name]
        parts.pop()
    return None, None


def link_page(text, targets):
    out, pos, depth, linked = [], 0, {"pre": 0, "a": 0, "h": 0}, set()
    for t in TAG.finditer(text):
        closing, tag = t.group(1) == "/", t.group(2).lower()
        key = "h" if tag.startswith("h") else tag
        if key in depth:
            depth[key] += -1 if closing else 1
            continue
        if tag != "code" or closing or any(depth.values()):
            continue
        end = text.find("</code>", t.end())
        if end < 0:
            continue
        name, target = resolve(text[t.end():end], targets)
        if not name or name in linked:
            continue
        linked.add(name)
        out.append(text[pos:t.start()])
        out.append(f'<a class="api-link" href="api/{target}" title="{name} in the API reference">')
        out.append(text[t.start():end + len("</code>")])
        out.append("</a>")
        pos = end + len("</code>")
    out.append(text[pos:])
    return "".join(out), len(linked)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    site, tagfile = sys.argv[1], sys.argv[2]
    targets = api_targets(tagfile)
    total = 0
    for page in sorted(os.listdir(site)):
        path = os.path.join(site, page)
        if not page.endswith(".html") or page in ("search.html", "404.html") or not os.path.isfile(path):
            continue
        with open(path, encoding="utf-8") as f:
            text = f.read()
        text, n = link_page(text, targets)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        total += n
    print(f"link_api.py: {total} links to the API reference in the guide pages ({len(targets)} names documented)")


if __name__ == "__main__":
    main()
