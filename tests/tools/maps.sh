#!/bin/bash
# The folders' maps stay true: each map header's opening comment (up to its
# include guard) names every source file of its folder, so a newcomer who
# reads the map finds every file. A file added without a line in the map
# fails this test.
# Usage: maps.sh <source root>
set -u
root=$1
failed=0
checked=0

# map <map header> <files it must name...>
map() {
  local header=$1
  shift
  local opening
  opening=$(sed '/^#ifndef/q' "$root/$header")
  for file in "$@"; do
    local name=${file##*/}
    [ "$name" = "${header##*/}" ] && continue
    checked=$((checked + 1))
    if ! grep -qw -- "$name" <<<"$opening"; then
      echo "$header does not name $name"
      failed=$((failed + 1))
    fi
  done
}

cd "$root" || exit 1
map source/cl/clx.h source/cl/*.c source/cl/*.h
map source/mux/cpu/cpu.h source/mux/cpu/*.c source/mux/cpu/*.h
map compiler/codegen/wfv.h compiler/codegen/wfv.c compiler/codegen/wfv_*.c

echo "$checked files looked for in their maps, $failed missing"
[ "$checked" -gt 0 ] && [ "$failed" -eq 0 ]
