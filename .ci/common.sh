# Shared by `.ci/run` (the landing gate) and `.ci/full` (the release check): the
# machine's setup, the shared build cache and a timer that prints each step's wall time.
# shellcheck shell=bash
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# Reuse the build between runs on this machine; a fresh machine just builds cold.
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/wheelcollider-target}"
export CARGO_TERM_COLOR=never

# System packages (the README's setup step); skipped when already there.
pkgs=(pkg-config libudev-dev libasound2-dev)
missing=()
for p in "${pkgs[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y "${missing[@]}"
fi
rustup component list --installed 2>/dev/null | grep -q rustfmt || rustup component add rustfmt clippy || true

ci_start=$(date +%s)
ci_times=()
# `step NAME COMMAND...`: runs the command, prints its wall time, and keeps it for the
# table printed at the end (also when a step fails).
step() {
  local name=$1 t0
  shift
  t0=$(date +%s)
  echo "ci: ── $name: $*"
  "$@"
  ci_times+=("$(printf '%6d s  %s' "$(( $(date +%s) - t0 ))" "$name")")
  echo "ci: ── $name: $(( $(date +%s) - t0 )) s"
}
ci_report() {
  local rc=$?
  echo "ci: step times (wall, this machine's $(nproc) cores)"
  for t in "${ci_times[@]}"; do echo "ci: $t"; done
  if [ "$rc" -eq 0 ]; then
    echo "ci: done in $(( $(date +%s) - ci_start )) s"
  else
    echo "ci: FAILED (exit $rc) after $(( $(date +%s) - ci_start )) s"
  fi
}
trap ci_report EXIT

# Cargo treats a package it verifies as an unchanging registry crate: it unpacks it once
# by name and version, and keeps its build with no record of its files. An earlier run's
# copy of the same version would be built, or its build reused, instead of this one.
# Remove those copies and builds (the workspace's own crates only; a registry build's
# dependency record lists no file, a path build's lists its sources).
forget_packaged_builds() {
  rm -rf "${CARGO_HOME:-$HOME/.cargo}"/registry/src/-*/wheelcollider*
  local f d
  for f in "$CARGO_TARGET_DIR"/debug/.fingerprint/wheelcollider*/; do
    for d in "$f"dep-lib-*; do
      if [ -f "$d" ] && [ "$(stat -c%s "$d")" -lt 20 ]; then rm -rf "$f"; break; fi
    done
  done
}
