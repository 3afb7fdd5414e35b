#!/usr/bin/env bash
# Builds the documentation site: docs/*.md as HTML (mkdocs, mkdocs.yml) with the API reference that
# doxygen generates from the public headers' comments (docs/Doxyfile) under api/. Fails when
# doxygen reports a warning (an undocumented public name) or mkdocs one (a broken link).
#   scripts/docs_site.sh [OUT]     OUT defaults to build/site; open OUT/index.html, or serve it:
#                                  python3 -m http.server -d OUT  (the search needs http://)
# scripts/check_site.py checks the result in headless Chromium (CTest docs.site.browse).
set -euo pipefail
cd "$(dirname "$0")/.."
for tool in doxygen mkdocs; do
  command -v "$tool" >/dev/null || { echo "docs_site.sh: $tool not found (Debian: apt-get install $tool)" >&2; exit 1; }
done
out=$(realpath -m "${1:-build/site}")
work="$out.work"
rm -rf "$out" "$work"
mkdir -p "$work/docs" "$work/doxygen"

# the site's home page opens as the README does: the same first paragraph and the same quick-start program (README.md, docs/index.md)
python3 - <<'PY'
import sys
readme, index = open("README.md").read(), open("docs/index.md").read()
def block(text, after):
    text = text[text.index(after):] if after else text
    start = text.index("```cpp")
    return text[start:text.index("```\n", start + 6)]
if readme.split("\n\n")[1] != index.split("\n\n")[1] or block(readme, "## Quick start") != block(index, ""):
    sys.exit("docs_site.sh: docs/index.md's first paragraph or first program differs from the README's opening "
             "paragraph or quick start: the site's home page and the README must agree")
PY

# the API reference: every public name documented, else the warnings and a failure
UFX_DOXYGEN_OUT="$work/doxygen" doxygen docs/Doxyfile
if [ -s "$work/doxygen/warnings.log" ]; then
  cat "$work/doxygen/warnings.log" >&2
  echo "docs_site.sh: doxygen reported $(wc -l <"$work/doxygen/warnings.log") warnings (above)" >&2
  exit 1
fi

# the guide, with the reference beside it as static pages, in a copy of docs/ (the tree stays clean)
cp docs/*.md "$work/docs/"
cp -r docs/css "$work/docs/css"
cp -r "$work/doxygen/api" "$work/docs/api"
sed "s#^docs_dir: docs\$#docs_dir: $work/docs#" mkdocs.yml >"$work/mkdocs.yml"
mkdocs build --quiet --strict -f "$work/mkdocs.yml" -d "$out"
# the guide's inline code names linked to their entries in the reference (doxygen's tag file)
/usr/bin/env python3 scripts/link_api.py "$out" "$work/doxygen/ufx.tag"
rm -rf "$work"
echo "docs_site.sh: $out/index.html ($(find "$out" -name '*.html' | wc -l) pages)"
