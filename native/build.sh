#!/usr/bin/env bash
# Builds the JNI library, its test-only fault-injection variants (target/faults/), and the
# slow-clocksource simulator when its source is present.
# Usage: build.sh JAVA_HOME CLASSES_DIR TARGET_DIR
# Called by Maven (native/pom.xml); stops with a message that says what to install.
set -euo pipefail

java_home=${1:?JAVA_HOME}
classes_dir=${2:?classes dir}
target_dir=${3:?target dir}
here=$(cd "$(dirname "$0")" && pwd)

fail() { echo "fastclock native build: $*" >&2; exit 1; }

cc=${CC:-gcc}
command -v "$cc" >/dev/null 2>&1 || fail "no C compiler ('$cc' not found). Install gcc: apt-get install gcc (Debian/Ubuntu) or dnf install gcc."

cflags=(-O2 -std=c11 -fPIC -Wall -Wextra -Werror -fvisibility=default)
mkdir -p "$target_dir"

# A compiler without the C library's headers and link files (gcc without libc6-dev) fails on the
# first #include; say what to install instead of showing that error alone. The probe includes what
# the real sources include from libc and links a shared object the same way.
probe_dir="$target_dir/cc-probe"
mkdir -p "$probe_dir"
cat >"$probe_dir/probe.c" <<'PROBE'
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
int fastclock_probe(void);
int fastclock_probe(void) {
    struct timespec ts;
    return clock_gettime(CLOCK_MONOTONIC, &ts) == 0 ? 0 : errno;
}
PROBE
if ! "$cc" "${cflags[@]}" -shared -o "$probe_dir/libprobe.so" "$probe_dir/probe.c" -pthread 2>"$probe_dir/errors.txt"; then
  said=$(grep -m1 -E 'error|cannot find' "$probe_dir/errors.txt" || head -n1 "$probe_dir/errors.txt" || true)
  said=${said##*error: }
  fail "'$cc' is installed but cannot build against the C library${said:+ ($said)}. Install the C library headers: apt-get install libc6-dev (Debian/Ubuntu; or build-essential) or dnf install glibc-devel."
fi
rm -rf "$probe_dir"

# Maven reports java.home; on JDK 8 layouts that is the jre/ directory.
jni_include=""
for candidate in "$java_home/include" "$java_home/../include"; do
  if [ -f "$candidate/jni.h" ]; then jni_include=$(cd "$candidate" && pwd); break; fi
done
[ -n "$jni_include" ] || fail "no JNI headers (jni.h) under $java_home/include. Install a full JDK, not a JRE: apt-get install openjdk-17-jdk-headless."

os=$(uname -s | tr '[:upper:]' '[:lower:]')
case "$(uname -m)" in
  x86_64|amd64) arch=x86_64 ;;
  aarch64|arm64) arch=aarch64 ;;
  *) arch=$(uname -m) ;;
esac
[ "$os" = linux ] || fail "only Linux is supported (this is $os)."

out_dir="$classes_dir/META-INF/native/$os-$arch"
mkdir -p "$out_dir"

"$cc" "${cflags[@]}" -shared -I"$jni_include" -I"$jni_include/$os" \
  -o "$out_dir/libfastclock.so" "$here/src/main/c/fastclock.c" -pthread -ldl
echo "fastclock native build: $out_dir/libfastclock.so"

# Test-only variants with an injected fault (see the top of fastclock.c), loaded by the integration
# tests with library=...; they live under target/, never in the jar.
faults_dir="$target_dir/faults"
mkdir -p "$faults_dir"
for fault in crosscpu calib dearjni stallcpu busystart; do
  macro=FC_FAULT_$(echo "$fault" | tr '[:lower:]' '[:upper:]')
  "$cc" "${cflags[@]}" -D"$macro" -shared -I"$jni_include" -I"$jni_include/$os" \
    -o "$faults_dir/libfastclock-$fault.so" "$here/src/main/c/fastclock.c" -pthread -ldl
  echo "fastclock native build: $faults_dir/libfastclock-$fault.so ($macro, tests only)"
done

if [ -f "$here/src/main/c/slowclock.c" ]; then
  "$cc" "${cflags[@]}" -shared -o "$target_dir/libslowclock.so" "$here/src/main/c/slowclock.c" -ldl -pthread
  echo "fastclock native build: $target_dir/libslowclock.so"
fi

# A test spy (integration tests): logs how directories are created, for the private-directory check.
if [ -f "$here/src/test/c/mkdirspy.c" ]; then
  "$cc" "${cflags[@]}" -shared -o "$target_dir/libmkdirspy.so" "$here/src/test/c/mkdirspy.c" -ldl
  echo "fastclock native build: $target_dir/libmkdirspy.so"
fi
