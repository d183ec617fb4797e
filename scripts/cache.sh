# Sourced by the scripts: the caches a clone shares with every other clone
# on this machine, outside the clone, so a new clone does not compile every
# dependency or install every real tool again.
#
#   $PARTITION_LAB_CACHE (default ~/.cache/partition-lab, or under
#   $XDG_CACHE_HOME):
#     cargo/target-<rustc>  compiled crates (CARGO_TARGET_DIR), one folder
#                           per compiler (`rustc -vV`'s hash)
#     venv/<name>-<pins>    a real tool's Python environment, one folder per
#                           pin set (the pins, `python -VV`, the machine's arch)
#
# Every entry is sealed: <entry>.sha256 lists the SHA-256 of each of its
# files, written once the entry is whole. An entry without a seal, or whose
# files differ from it (a file truncated, changed or gone), is deleted and
# made again, never used. Clear them all with `rm -rf ~/.cache/partition-lab`.

CACHE=${PARTITION_LAB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/partition-lab}
# Absolute, so a script that changes folder still finds it.
case $CACHE in /*) ;; *) CACHE=$PWD/$CACHE ;; esac

cache_say() { printf '==> %s\n' "$*"; }

# cache_seal <dir>: records every file's hash, beside the folder (so the
# seal is not among what it lists), replacing the old seal in one rename.
cache_seal() {
  local dir=$1
  if (set -o pipefail && cd "$dir" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 -r sha256sum) > "$dir.sha256.part"; then
    mv -f "$dir.sha256.part" "$dir.sha256"
  else
    # A file that could not be read is not vouched for: no seal at all.
    rm -f "$dir.sha256.part"
    echo "error: could not seal $dir" >&2
    return 1
  fi
}

# cache_sound <dir>: whether the folder holds every file its seal lists,
# each byte for byte.
cache_sound() {
  local dir=$1
  [ -d "$dir" ] && [ -s "$dir.sha256" ] || return 1
  (cd "$dir" && sha256sum --quiet --strict -c "$dir.sha256") >/dev/null 2>&1
}

# cache_drop <dir>: deletes an entry and its seal.
cache_drop() {
  rm -rf "$1" "$1.sha256" "$1.sha256.part"
}

# cache_hold <file>: an exclusive lock on <file>, held until cache_release
# or until this script ends, waiting (and saying so) while another run holds
# it. A helper process holds it, not this shell, so that no program this
# script starts can keep it past the script's end. Sets CACHE_HOLDER.
cache_hold() {
  local file=$1 parent=$$ line=
  command -v flock >/dev/null 2>&1 || { echo "error: the caches need flock (util-linux)" >&2; return 1; }
  mkdir -p "$(dirname "$file")"
  exec {CACHE_PIPE}< <(
    exec 2>/dev/null 9>"$file"
    flock -n 9 || { echo waiting; flock 9 || exit 1; }
    echo held
    while kill -0 "$parent"; do sleep 1 9>&-; done
  )
  CACHE_HOLDER=$!
  while read -r line <&"$CACHE_PIPE"; do
    case $line in
      waiting) cache_say "waiting for another run that is using $(dirname "$file")" ;;
      held) break ;;
    esac
  done
  [ "$line" = held ] || { echo "error: could not lock $file" >&2; return 1; }
  exec {CACHE_PIPE}<&-
}

# cache_release <holder>: lets the next run take the lock.
cache_release() {
  kill "$1" 2>/dev/null || true
}

# cache_entry <dir> <what> <command...>: the entry sound, or made again by
# <command> (which fills <dir>) and sealed. Prints whether it was reused.
cache_entry() {
  local dir=$1 what=$2
  shift 2
  cache_hold "$dir.lock" || return 1
  local holder=$CACHE_HOLDER
  if cache_sound "$dir"; then
    cache_say "reusing $what ($dir)"
  else
    if [ -e "$dir" ] || [ -e "$dir.sha256" ]; then
      cache_say "$what in the cache is incomplete or damaged: making it again"
    fi
    cache_drop "$dir"
    # Explicit, not set -e: a caller's `||` or `if` switches set -e off
    # here, and a half-made entry must never be sealed.
    if ! "$@" || ! cache_seal "$dir"; then
      cache_say "making $what failed: nothing of it is kept"
      cache_drop "$dir"
      cache_release "$holder"
      return 1
    fi
  fi
  cache_release "$holder"
}

# cache_key <text...>: a short name for what an entry holds.
cache_key() {
  printf '%s\n' "$@" | sha256sum | cut -c1-16
}

# use_build_cache: points cargo at the cache's compiled crates for the rest
# of this script and its children. The folder is this run's while it runs
# (another run waits), checked against its seal first and sealed again when
# the script ends. Cargo names each dependency's artifacts by its version,
# source, features, profile and compiler, so a changed lockfile reuses what
# still applies; this clone's own crates are built from its own sources:
# when the folder was last used by another clone, their builds (artifacts
# and fingerprints) are deleted, so cargo cannot take another clone's
# build for this one's, and the folder holds one clone's at a time.
use_build_cache() {
  [ -n "${PARTITION_LAB_BUILD_CACHE:-}" ] && return 0
  local dir="$CACHE/cargo/target-$(cache_key "$(rustc -vV)")"
  cache_hold "$dir.lock" || return 1
  BUILD_CACHE_HOLDER=$CACHE_HOLDER
  if [ -e "$dir" ] && ! cache_sound "$dir"; then
    cache_say "the build cache ($dir) is incomplete or damaged: clearing it, every crate is compiled again"
    cache_drop "$dir"
  elif [ -e "$dir" ]; then
    cache_say "reusing the build cache ($dir)"
  fi
  # Unsealed while cargo writes to it: a run that dies leaves no seal.
  rm -f "$dir.sha256"
  mkdir -p "$dir"
  local clone
  clone=$(clone_id)
  if [ "$(cat "$dir/.clone" 2>/dev/null)" != "$clone" ]; then
    # Every build of the project's own crates, not only their
    # fingerprints: without a fingerprint cargo rebuilds them anyway, and
    # with the files gone too nothing another clone built can be taken
    # for this one's, whatever cargo would make of it.
    find "$dir" -mindepth 2 -maxdepth 4 -name '*partition[-_]lab*' -prune -exec rm -rf {} +
    printf '%s\n' "$clone" > "$dir/.clone"
  fi
  export CARGO_TARGET_DIR=$dir PARTITION_LAB_BUILD_CACHE=$dir
  # Incremental data is for one tree being edited; a new clone gains
  # nothing from another's, and a run compiles faster without it.
  export CARGO_INCREMENTAL=0
  trap 'seal_build_cache' EXIT
  # Stopped by a signal, cargo may have been cut off mid-write: no seal,
  # so the next run clears the folder rather than trusting it.
  trap 'BUILD_CACHE_STOPPED=1; exit 130' INT
  trap 'BUILD_CACHE_STOPPED=1; exit 143' TERM
}

# clone_id: names this clone and no other: a random id kept in its git
# folder (a new clone at the same path, even on the same inode, gets a new
# one), or its path and inode outside git.
clone_id() {
  local git id
  if git=$(git rev-parse --absolute-git-dir 2>/dev/null); then
    id="$git/partition-lab-clone"
    [ -s "$id" ] || od -An -N16 -tx1 /dev/urandom | tr -d ' \n' > "$id"
    printf '%s %s\n' "$(pwd -P)" "$(cat "$id")"
  else
    printf '%s %s\n' "$(pwd -P)" "$(stat -c %d:%i .)"
  fi
}

# seal_build_cache: seals the build cache and lets another run use it; a
# script that goes on without cargo (scripts/run's server) calls it itself.
seal_build_cache() {
  [ -n "${BUILD_CACHE_HOLDER:-}" ] || return 0
  if [ -z "${BUILD_CACHE_STOPPED:-}" ]; then
    cache_seal "$PARTITION_LAB_BUILD_CACHE" || true
  fi
  cache_release "$BUILD_CACHE_HOLDER"
  BUILD_CACHE_HOLDER=
  trap - EXIT
}
