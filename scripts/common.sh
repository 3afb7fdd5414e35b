# Sourced by demo.sh and test.sh: installs the Debian packages ufx builds with (only those that
# are missing) and finds nvcc for the cuda preset.

UFX_DEBIAN_PACKAGES=(cmake g++ make libeigen3-dev doctest-dev libdlpack-dev libbenchmark-dev libomp-dev libthrust-dev libboost-context-dev libtbb-dev python3-numpy python3-dev pybind11-dev python3-matplotlib libopenmpi-dev openmpi-bin clang libclang-rt-dev clang-format doxygen mkdocs chromium valgrind)

# Installs whichever of UFX_DEBIAN_PACKAGES is not installed yet (apt-get, as root or via sudo).
ufx_install_packages() {
  if ! command -v dpkg >/dev/null 2>&1; then
    echo "ufx: no dpkg here (not Debian?); assuming the build dependencies are installed" >&2
    return 0
  fi
  local missing=() p
  for p in "${UFX_DEBIAN_PACKAGES[@]}"; do
    dpkg -s "$p" 2>/dev/null | grep -q '^Status: install ok installed' || missing+=("$p")
  done
  ((${#missing[@]} == 0)) && return 0
  echo "ufx: installing missing Debian packages: ${missing[*]}"
  local sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
      sudo=(sudo)
    else
      echo "ufx: missing packages (${missing[*]}) and not root; run as root or install them" >&2
      return 1
    fi
  fi
  "${sudo[@]}" apt-get update &&
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
}

# True when nvcc is found ($CUDA_HOME/bin/nvcc, nvcc on PATH, or /usr/local/cuda/bin/nvcc); exports
# CUDA_HOME, which the cuda preset reads.
ufx_find_nvcc() {
  if [ -n "${CUDA_HOME:-}" ] && [ -x "$CUDA_HOME/bin/nvcc" ]; then
    return 0
  fi
  local nvcc
  nvcc=$(command -v nvcc 2>/dev/null) || nvcc=/usr/local/cuda/bin/nvcc
  [ -x "$nvcc" ] || return 1
  CUDA_HOME=$(dirname "$(dirname "$(readlink -f "$nvcc")")")
  export CUDA_HOME
}
