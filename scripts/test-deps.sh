#!/usr/bin/env bash
# What the tests need outside npm: redis-server (the Redis rate-limit suite) and Chromium (the
# portal's end-to-end tests), at the Debian paths the tests use. `npm test` runs this first.
#
# Present: returns at once. Missing: installs it with apt-get when running as root, otherwise stops
# and names the exact command to run. Then checks that `npm ci` has been run.
#
#   bash scripts/test-deps.sh            # system packages and node_modules
#   bash scripts/test-deps.sh --system   # system packages only (before `npm ci`, as .ci/run does)
#
# TEST_REDIS_SERVER and TEST_CHROMIUM point the tests (and this check) at other binaries.
set -euo pipefail
cd "$(dirname "$0")/.."

system_only=false
case "${1:-}" in
  --system) system_only=true ;;
  '') ;;
  *) echo "usage: bash scripts/test-deps.sh [--system]" >&2; exit 2 ;;
esac

redis_server="${TEST_REDIS_SERVER:-/usr/bin/redis-server}"
chromium="${TEST_CHROMIUM:-/usr/bin/chromium}"

# "path Debian-package" for each binary the tests run.
missing=()
[[ -x "$redis_server" ]] || missing+=("$redis_server redis-server")
[[ -x "$chromium" ]] || missing+=("$chromium chromium")

fail() {
  echo "test-deps: $*" >&2
  exit 1
}

if ((${#missing[@]})); then
  packages=()
  for entry in "${missing[@]}"; do
    echo "test-deps: missing ${entry% *} (Debian package ${entry##* })" >&2
    packages+=("${entry##* }")
  done
  if [[ "$(id -u)" == 0 ]] && command -v apt-get >/dev/null 2>&1; then
    echo "test-deps: installing ${packages[*]} with apt-get" >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
    for entry in "${missing[@]}"; do
      [[ -x "${entry% *}" ]] || fail "installed ${entry##* }, but ${entry% *} is still missing"
    done
  elif command -v apt-get >/dev/null 2>&1; then
    fail "run this, then the tests again:
  sudo apt-get install -y ${packages[*]}"
  else
    fail "no apt-get here: install ${packages[*]} (on Debian: sudo apt-get install -y ${packages[*]}),
or point TEST_REDIS_SERVER / TEST_CHROMIUM at the binaries"
  fi
fi

if ! $system_only && [[ ! -x node_modules/.bin/vitest ]]; then
  fail "node_modules is missing or incomplete: run npm ci"
fi
