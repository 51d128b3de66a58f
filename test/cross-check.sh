#!/bin/bash
# test/cross-check.sh - checks of the cross builds ("make cross").
#
#   cross-check.sh dll FILE OBJDUMP    FILE is a PE DLL exporting exactly the
#                                      two entry points
#   cross-check.sh so FILE OBJDUMP     FILE is an ELF module of the target
#                                      exporting exactly the two entry points
#   QEMU="qemu-aarch64 -L SYSROOT" cross-check.sh run TEST...
#                                      run each C test under the emulator
#
# Each prints "NAME (what): N passed, N failed", like every suite.
set -u
mode=$1; shift
want="sqlite3_utf8ext_init sqlite3_utfext_init"

case $mode in
dll)
  file=$1 objdump=$2
  got=$($objdump -p "$file" | awk '/\[Ordinal\/Name Pointer\] Table/ {t=1; next} t && /\[/ {print $NF} t && !/\[/ {t=0}' | sort | tr '\n' ' ')
  if [ "${got% }" = "$want" ]; then
    echo "cross-windows ($file exports: ${got% }): 1 passed, 0 failed"
  else
    echo "cross-windows ($file exports: ${got:-nothing}): 0 passed, 1 failed"; exit 1
  fi ;;
so)
  file=$1 objdump=$2
  got=$($objdump -T "$file" | awk '$2 ~ /g/ && $4 == ".text" {print $NF}' | sort | tr '\n' ' ')
  if [ "${got% }" = "$want" ]; then
    echo "cross-so ($file exports: ${got% }): 1 passed, 0 failed"
  else
    echo "cross-so ($file exports: ${got:-nothing}): 0 passed, 1 failed"; exit 1
  fi ;;
run)
  pass=0 fail=0
  for t in "$@"; do
    # The tests' own result line, relabelled with the platform.
    out=$($QEMU "$t" ${CORE_TEST_ARGS:-} 2>&1); rc=$?
    line=$(echo "$out" | grep -oE '[0-9]+ passed, [0-9]+ failed' | tail -1)
    echo "$out" | grep -vE ': [0-9]+ passed, [0-9]+ failed$'
    if [ -z "$line" ] || [ $rc != 0 ]; then
      echo "$(basename "$t") (qemu): ${line:-no result line} (exit $rc)"
      fail=$((fail + 1))
    else
      echo "$(basename "$t") (qemu): $line"
      p=${line%% passed*}; f=${line#*, }; f=${f%% failed}
      pass=$((pass + p)); fail=$((fail + f))
    fi
  done
  echo "cross-aarch64 (qemu): $pass passed, $fail failed"
  [ "$fail" = 0 ] ;;
*)
  echo "usage: cross-check.sh dll|so|run ..." >&2; exit 2 ;;
esac
