#!/bin/bash
# clmux through clinfo and the ICD loader: clinfo must list the clmux
# platform and device and print no error for any query. With PoCL installed,
# the loader must also list both platforms side by side.
set -u

if ! command -v clinfo >/dev/null; then
  echo "clinfo is not installed"
  exit 1
fi
if [ -z "${OCL_ICD_VENDORS:-}" ]; then
  echo "OCL_ICD_VENDORS is not set (run through meson test)"
  exit 1
fi

# A sanitizer build of libclmux needs its runtime loaded first, and clinfo
# is not ours: its own leaks are not reported.
# ThreadSanitizer cannot be preloaded into a program built without it.
if ldd "$OCL_ICD_VENDORS" 2>/dev/null | grep -q libtsan; then
  echo "skipped: clinfo cannot load a ThreadSanitizer build"
  exit 77
fi
runtime=$(ldd "$OCL_ICD_VENDORS" 2>/dev/null | awk '/libasan/ { print $3 }')
if [ -n "$runtime" ]; then
  export LD_PRELOAD="$runtime${LD_PRELOAD:+:$LD_PRELOAD}"
  export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
fi

status=0
fail() {
  echo "FAIL: $*"
  status=1
}

# Lines that mean a query failed (clinfo prints "<...: error -30>" or the
# error name); case-sensitive, as "Error Correction support" is a label.
check_errors() {
  local what=$1 output=$2
  local bad
  bad=$(grep -n -E 'error|Invalid|CL_INVALID' <<<"$output")
  if [ -n "$bad" ]; then
    fail "$what printed errors:"
    echo "$bad"
  fi
}

list=$(clinfo -l 2>&1) || fail "clinfo -l exited with $?"
echo "$list"
grep -q 'Platform #[0-9]*: clmux' <<<"$list" || fail "clinfo -l: no clmux platform"
grep -q 'Device #0' <<<"$list" || fail "clinfo -l: no device"
check_errors "clinfo -l" "$list"

full=$(clinfo 2>&1) || fail "clinfo exited with $?"
grep -q -E 'Platform Name +clmux' <<<"$full" || fail "clinfo: no clmux platform"
grep -q -E 'Platform Version +OpenCL 3\.0 clmux' <<<"$full" ||
  fail "clinfo: platform version"
grep -q -E 'Device Type +CPU' <<<"$full" || fail "clinfo: no CPU device"
grep -q -E 'Device Version +OpenCL 3\.0 clmux' <<<"$full" ||
  fail "clinfo: device version"
check_errors "clinfo" "$full"

# Side by side with PoCL: a vendors directory holding both .icd files.
pocl_icd=/etc/OpenCL/vendors/pocl.icd
if [ -f "$pocl_icd" ]; then
  vendors=$(mktemp -d)
  trap 'rm -rf "$vendors"' EXIT
  cp "$pocl_icd" "$vendors/"
  echo "$OCL_ICD_VENDORS" >"$vendors/clmux.icd"
  both=$(OCL_ICD_VENDORS=$vendors clinfo -l 2>&1) ||
    fail "clinfo -l with PoCL exited with $?"
  echo "$both"
  grep -q 'Platform #[0-9]*: clmux' <<<"$both" ||
    fail "clinfo -l with PoCL: no clmux platform"
  grep -q -i 'Platform #[0-9]*: Portable Computing Language' <<<"$both" ||
    fail "clinfo -l with PoCL: no PoCL platform"
else
  echo "PoCL not installed: side-by-side check skipped"
fi

[ $status -eq 0 ] && echo "clinfo: all checks passed"
exit $status
