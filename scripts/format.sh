#!/usr/bin/env bash
# ufx's C++ format (.clang-format): formats every tracked C++ and CUDA source in place, or with
# --check lists the files whose format differs and exits 1 (the CTest format.check runs this).
# The format is clang-format 14's (Debian 12's clang-format): other versions break lines
# differently, so another version is refused rather than reporting files that are fine.
#
#   scripts/format.sh [--check]
set -euo pipefail
cd "$(dirname "$0")/.."
check=0
case ${1-} in
  --check) check=1 ;;
  "") ;;
  *) echo "format.sh: unknown argument $1 (--check, or nothing to format in place)" >&2; exit 2 ;;
esac
cf=${CLANG_FORMAT:-$(command -v clang-format-14 || command -v clang-format || true)}
if [ -z "$cf" ]; then
  echo "format.sh: clang-format not found (Debian: apt-get install clang-format)" >&2
  exit 2
fi
version=$("$cf" --version | sed -n 's/.*version \([0-9]*\).*/\1/p')
if [ "$version" != 14 ]; then
  echo "format.sh: $cf is clang-format $version; ufx's format is clang-format 14's (Debian 12's clang-format-14)" >&2
  exit 2
fi
# the tracked sources (a checkout without git: every source under the project's folders)
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files -- '*.hpp' '*.cpp' '*.cu' '*.h' ':!:tests/data/*')
else
  mapfile -t files < <(find include src tests bench examples -name '*.hpp' -o -name '*.cpp' -o -name '*.cu' -o -name '*.h' | sort)
fi
if ((!check)); then
  "$cf" -i "${files[@]}"
  exit 0
fi
# one process for every file (--dry-run --Werror: an error per place a file differs): one run per file spent 47 s of
# the CTest format.check's time starting clang-format 421 times, one run 1.4 s
rc=0
out=$("$cf" --dry-run --Werror "${files[@]}" 2>&1) || rc=$?
mapfile -t bad < <(sed -n 's/^\(.*\):[0-9]*:[0-9]*: error: .*/\1/p' <<<"$out" | sort -u)
if ((rc != 0 && ${#bad[@]} == 0)); then
  echo "format.sh: clang-format failed (exit $rc) without naming a file:" >&2
  printf '%s\n' "$out" | head -n 20 >&2
  exit 2
fi
if ((${#bad[@]})); then
  echo "format.sh: ${#bad[@]} of ${#files[@]} files differ from .clang-format (run scripts/format.sh):"
  printf '  %s\n' "${bad[@]}"
  exit 1
fi
echo "format.sh: ${#files[@]} files formatted as .clang-format says"
