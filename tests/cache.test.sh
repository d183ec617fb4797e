#!/usr/bin/env bash
# The caches' rules (scripts/cache.sh), on a cache of its own in a temporary
# folder: an entry is made when missing, reused when sound, made again when
# a file is truncated or its seal is gone; the build cache is cleared when
# damaged, drops another clone's fingerprints and is sealed when the script
# ends; a second run waits for the first's lock.
#   tests/cache.test.sh
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
export PARTITION_LAB_CACHE=$root/cache
unset PARTITION_LAB_BUILD_CACHE
source scripts/cache.sh

failures=0
ok() { printf 'ok - %s\n' "$1"; }
not_ok() { printf 'not ok - %s\n' "$1"; failures=$((failures + 1)); }
expect() { # expect <description> <command...>
  local what=$1
  shift
  if "$@"; then ok "$what"; else not_ok "$what"; fi
}

made=$root/made
fill() { # what cache_entry runs to make an entry: counts its calls
  mkdir -p "$1/lib"
  printf 'site-packages\n' > "$1/lib/a.py"
  head -c 100000 /dev/zero > "$1/lib/big.bin"
  echo x >> "$made"
}
unsound() { ! cache_sound "$1"; }
calls() { [ -e "$made" ] && wc -l < "$made" || echo 0; }
entry=$CACHE/venv/tool-1

cache_entry "$entry" "the tool" fill "$entry" > /dev/null
expect "a missing entry is made and sealed" test "$(calls)" = 1 -a -s "$entry.sha256"
expect "a sealed entry is sound" cache_sound "$entry"
cache_entry "$entry" "the tool" fill "$entry" > "$root/out"
expect "a sound entry is reused, not made again" test "$(calls)" = 1
expect "a reused entry says so" grep -q "reusing the tool" "$root/out"

truncate -s 10 "$entry/lib/big.bin"
expect "a truncated file makes the entry unsound" unsound "$entry"
cache_entry "$entry" "the tool" fill "$entry" > "$root/out"
expect "a truncated entry is made again" test "$(calls)" = 2
expect "it says the entry was damaged" grep -q "incomplete or damaged" "$root/out"
expect "the remade entry is whole" test "$(wc -c < "$entry/lib/big.bin")" = 100000

printf 'changed\n' > "$entry/lib/a.py"
expect "a changed file of the same kind makes it unsound" unsound "$entry"
rm -f "$entry/lib/a.py"
expect "a file gone makes it unsound" unsound "$entry"
cache_entry "$entry" "the tool" fill "$entry" > /dev/null
rm -f "$entry.sha256"
expect "an entry without its seal is unsound" unsound "$entry"
cache_entry "$entry" "the tool" fill "$entry" > /dev/null
expect "an entry without its seal is made again" test "$(calls)" = 4

# A fill that fails, called where set -e is off (as `timed venv ...` calls
# it): nothing is sealed, nothing half-made is kept, the failure reaches
# the caller.
broken() { mkdir -p "$1/lib"; echo half > "$1/lib/a.py"; false; }
failed_entry=$CACHE/venv/broken-1
if cache_entry "$failed_entry" "the broken tool" broken "$failed_entry" > "$root/out"; then
  not_ok "a failed fill fails the entry"
else
  ok "a failed fill fails the entry"
fi
expect "a failed fill leaves no seal" test ! -e "$failed_entry.sha256"
expect "a failed fill leaves nothing half-made" test ! -e "$failed_entry"
expect "it says nothing was kept" grep -q "nothing of it is kept" "$root/out"

# The build cache, as scripts use it: in a child script, so its end seals it.
build() { # build <clone folder> <command>: a script using the build cache
  (cd "$1" && bash -c "source '$repo/scripts/cache.sh'; use_build_cache; $2")
}
clone_a=$root/clone-a clone_b=$root/clone-b
mkdir -p "$clone_a" "$clone_b"
target=$(build "$clone_a" 'echo "$CARGO_TARGET_DIR"' | tail -1)
expect "the build cache is under the cache, named by the compiler" bash -c "[[ '$target' == '$CACHE'/cargo/target-* ]]"
expect "a script's end seals the build cache" cache_sound "$target"
build "$clone_a" 'mkdir -p "$CARGO_TARGET_DIR/debug/.fingerprint/partition-lab-core-1" "$CARGO_TARGET_DIR/debug/.fingerprint/serde-2" "$CARGO_TARGET_DIR/debug/deps"; echo dep > "$CARGO_TARGET_DIR/debug/libserde.rlib"; echo ours > "$CARGO_TARGET_DIR/debug/deps/libpartition_lab_core-1.rlib"' > /dev/null
build "$clone_a" 'true' > /dev/null
expect "the same clone keeps its own crates' fingerprints" test -d "$target/debug/.fingerprint/partition-lab-core-1"
build "$clone_b" 'true' > /dev/null
expect "another clone's crates' fingerprints are dropped" test ! -e "$target/debug/.fingerprint/partition-lab-core-1"
expect "and their builds" test ! -e "$target/debug/deps/libpartition_lab_core-1.rlib"
expect "dependencies' fingerprints are kept" test -d "$target/debug/.fingerprint/serde-2"
expect "dependencies' artifacts are kept" test -s "$target/debug/libserde.rlib"
build "$clone_b" 'true' > "$root/out"
expect "a sound build cache is reused" grep -q "reusing the build cache" "$root/out"
truncate -s 1 "$target/debug/libserde.rlib"
build "$clone_b" 'true' > "$root/out"
expect "a damaged build cache is cleared" test ! -e "$target/debug/libserde.rlib"
expect "it says so" grep -q "incomplete or damaged: clearing it" "$root/out"
build "$clone_b" 'echo unsealed > "$CARGO_TARGET_DIR/partial"; kill -9 $$' > /dev/null 2>&1 || true
build "$clone_b" 'true' > "$root/out"
expect "a run killed part-way leaves no seal, and the next clears the cache" bash -c "! test -e '$target/partial' && grep -q 'clearing it' '$root/out'"

build "$clone_b" 'echo unsealed > "$CARGO_TARGET_DIR/stopped"; kill -TERM $$' > /dev/null 2>&1 || true
build "$clone_b" 'true' > "$root/out"
expect "a run stopped by a signal leaves no seal either" bash -c "! test -e '$target/stopped' && grep -q 'clearing it' '$root/out'"

# A new clone where an old one was (same path, perhaps the same inode) is
# another clone: its fingerprints are not the old one's.
clone_git=$root/clone-git
git init -q "$clone_git"
build "$clone_git" 'mkdir -p "$CARGO_TARGET_DIR/debug/.fingerprint/partition-lab-engine-3"' > /dev/null
build "$clone_git" 'true' > /dev/null
expect "a git clone keeps its own fingerprints" test -d "$target/debug/.fingerprint/partition-lab-engine-3"
rm -rf "$clone_git" && git init -q "$clone_git"
build "$clone_git" 'true' > /dev/null
expect "a new clone at the same path drops them" test ! -e "$target/debug/.fingerprint/partition-lab-engine-3"

# Two runs at once: the second waits for the first to end. The first goes
# on only once the second has said it is waiting.
waiting() { # waiting <file>: polls (up to 20 s) until the file says so
  local i
  for i in $(seq 200); do grep -q "waiting for another run" "$1" 2>/dev/null && return 0; sleep 0.1; done
  return 1
}
build "$clone_a" 'touch "'"$root"'/started"; while [ ! -e "'"$root"'/go" ]; do sleep 0.1; done; echo first >> "'"$root"'/order"' > /dev/null &
first=$!
for _ in $(seq 200); do [ -e "$root/started" ] && break; sleep 0.1; done
build "$clone_b" 'echo second >> "'"$root"'/order"' > "$root/out" &
second=$!
waiting "$root/out" || true
touch "$root/go"
wait "$first" "$second"
expect "a second run waits for the first" test "$(paste -sd, "$root/order")" = "first,second"
expect "and says it is waiting" grep -q "waiting for another run" "$root/out"

if [ "$failures" != 0 ]; then
  echo "cache tests: $failures failed" >&2
  exit 1
fi
echo "cache tests: all passed"
