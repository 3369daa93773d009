#!/bin/sh
# Collects the LLVM test files the upstream campaign takes as inputs
# (`diopter upstream campaign --inputs DIR`), as listed in
# llvm-tests-manifest.tsv: local name, path in llvm/llvm-project, and where
# the file comes from. "llvmorg-19.1.7" files are taken from the source of
# the LLVM under test (Debian's llvm-toolchain-19, the same release as
# opt-19), so that opt-19 reads every one of them; the others were added to
# LLVM's suite after 19.1.7 and are fetched from GitHub at the listed commit
# (they need network access to raw.githubusercontent.com).
#
#   corpus/upstream/fetch-llvm-tests.sh OUT_DIR
#
# Needs root for apt (a deb-src entry for bookworm is added when missing).
set -eu
out=${1:?usage: fetch-llvm-tests.sh OUT_DIR}
here=$(cd "$(dirname "$0")" && pwd)
manifest=$here/llvm-tests-manifest.tsv
mkdir -p "$out"
out=$(cd "$out" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if ! apt-cache showsrc llvm-toolchain-19 >/dev/null 2>&1 ||
    ! apt-cache showsrc llvm-toolchain-19 | grep -q '^Version'; then
    cat >/etc/apt/sources.list.d/diopter-src.sources <<'EOF'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
    apt-get update -qq
fi
(cd "$work" && apt-get source --download-only -qq llvm-toolchain-19 >/dev/null 2>&1)
tarball=$(ls "$work"/llvm-toolchain-19_*.orig.tar.xz)
# The tarball's top directory, e.g. llvm-toolchain-19_19.1.7.
dir=$(basename "$tarball" .orig.tar.xz)
# Extract only the listed release files (one pass over the tarball).
awk -F'\t' -v dir="$dir" '$3 == "llvmorg-19.1.7" { print dir "/" $2 }' \
    "$manifest" >"$work/members"
tar -xJf "$tarball" -C "$work" -T "$work/members"
missing=0
while IFS="$(printf '\t')" read -r name path from; do
    if [ "$from" = "llvmorg-19.1.7" ]; then
        cp "$work/$dir/$path" "$out/$name"
    elif ! curl -fsS "https://raw.githubusercontent.com/llvm/llvm-project/$from/$path" \
        -o "$out/$name" 2>/dev/null; then
        echo "not fetched (no network?): $path at $from -> $out/$name" >&2
        missing=$((missing + 1))
    fi
done <"$manifest"
echo "$(ls "$out" | wc -l) files in $out; $missing not fetched"
