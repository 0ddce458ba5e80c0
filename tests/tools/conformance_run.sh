#!/bin/bash
# conformance/run's verdicts, on stand-in CTS suites (small scripts that
# write the CTS's JSON and exit as told): it must fail a suite that exits
# non-zero, one whose JSON holds no results, and one whose sub-test listed
# as an expected skip fails; and pass a clean suite.
# Usage: conformance_run.sh <path to conformance/run>
set -u
run=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/cts"
touch "$work/libclmux.so"  # conformance/run only needs it to exist

# suite <name> <exit status> <JSON results lines...>
suite() {
  local name=$1 status=$2
  shift 2
  {
    echo '#!/bin/bash'
    echo 'cat > "$CL_CONFORMANCE_RESULTS_FILENAME" <<JSON'
    echo '{'
    echo '  "cmd": "test_'"$name"'",'
    echo '  "results": {'
    for line in "$@"; do echo "    $line"; done
    echo '  }'
    echo '}'
    echo 'JSON'
    echo "exit $status"
  } > "$work/cts/test_$name"
  chmod +x "$work/cts/test_$name"
}

suite clean 0 '"first": "pass",' '"second": "pass"'
suite exits 1 '"first": "pass"'
suite empty 0
# api/negative_set_context_destructor_callback is an expected skip.
suite api 0 '"negative_set_context_destructor_callback": "fail"'

passed=0 failed=0
expect() {  # expect <wanted exit status> <suite>
  CLMUX_LIBRARY=$work/libclmux.so CLMUX_CTS_OUT=$work/out \
    "$run" "$work/cts" "$2" > "$work/log" 2>&1
  local status=$?
  if [ "$status" -eq "$1" ]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "suite $2: conformance/run exited $status, expected $1:"
    cat "$work/log"
  fi
}
expect 0 clean
expect 1 exits
expect 1 empty
expect 1 api
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
