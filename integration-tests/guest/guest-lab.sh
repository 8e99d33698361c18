#!/usr/bin/env bash
# The guest lab: runs one command in a QEMU guest on Debian's stock kernel, with the guest's clocksource
# chosen by kernel argument, and returns the command's output and exit status.
#
#   guest-lab.sh [--clocksource hpet|acpi_pm|tsc|default] [--cpu default|intel] [--out DIR]
#                [--timeout SECONDS] -- COMMAND [ARG...]
#   guest-lab.sh --check     (exit 0 when a guest can be booted here, the kernel fetched; else say why, exit 3)
#
# The guest sees the host's root read-only (so the host's JDKs and the freshly built jar run as they are),
# fresh tmpfs on /tmp, /var/tmp, /run and /dev/shm, and DIR (default: a new temporary directory) writable
# at the same path as on the host: write results there. COMMAND runs as root in the host's current
# directory. Its stdout and stderr come back on this script's stdout and stderr after the guest powers off;
# the boot and run times go to stderr as "guest-lab: ..." lines; the exit status is the command's
# (125 when the guest never reported one: see DIR/console.log).
#
# --cpu intel: QEMU's Skylake-server-like model (constant_tsc, so the kernel's default clocksource is tsc
#   and clocksource=hpet is the real HPET path), with mitigations=off (emulated mitigations make every
#   syscall ~10x slower). --cpu default: QEMU's default model (the kernel marks the TSC unstable and picks hpet).
# KVM is used where /proc/cpuinfo shows vmx or svm (then the CPU is the host's); otherwise pure emulation,
# single-threaded (multi-threaded emulation crashes JVMs). See docs/GUEST-LAB.md.
#
# Needs qemu-system-x86, busybox-static and xz-utils (apt); the kernel (linux-image-amd64 from the configured apt
# sources) is fetched with apt-get download, never installed, into $FASTCLOCK_GUEST_CACHE
# (default ~/.cache/fastclock-guest), once, and the initramfs once for each version of guest-init.sh.
set -euo pipefail
shopt -s inherit_errexit  # so that a failing step inside $(prepare_kernel) stops it

clocksource=default
cpu=default
out=
timeout_s=900
check=false
while [ $# -gt 0 ]; do
  case "$1" in
    --clocksource) clocksource=$2; shift 2 ;;
    --cpu) cpu=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --timeout) timeout_s=$2; shift 2 ;;
    --check) check=true; shift ;;
    --) shift; break ;;
    *) echo "guest-lab: unknown argument '$1' (see the usage at the top of $0)" >&2; exit 2 ;;
  esac
done
$check || [ $# -gt 0 ] || { echo "guest-lab: no command given: guest-lab.sh [options] -- COMMAND [ARG...]" >&2; exit 2; }
case "$clocksource" in hpet|acpi_pm|tsc|default) ;; *)
  echo "guest-lab: --clocksource '$clocksource': expected hpet, acpi_pm, tsc or default" >&2; exit 2 ;; esac
case "$cpu" in intel|default) ;; *)
  echo "guest-lab: --cpu '$cpu': expected intel or default" >&2; exit 2 ;; esac

missing=()
# FASTCLOCK_GUEST_QEMU: another QEMU binary (a missing one shows how a host without QEMU is told).
qemu=${FASTCLOCK_GUEST_QEMU:-qemu-system-x86_64}
command -v "$qemu" >/dev/null 2>&1 || missing+=(qemu-system-x86)
command -v xz >/dev/null 2>&1 || missing+=(xz-utils)
busybox=$(command -v busybox 2>/dev/null || true)
# The initramfs has no C library: only a static busybox runs there.
if [ -z "$busybox" ] || ! { ldd "$busybox" 2>&1 || true; } | grep -q 'not a dynamic'; then
  missing+=(busybox-static)
fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "guest-lab: missing: ${missing[*]} (apt-get install ${missing[*]})" >&2
  exit 3
fi
command -v apt-get >/dev/null 2>&1 || { echo "guest-lab: needs apt-get to fetch Debian's kernel (a Debian or Ubuntu host)" >&2; exit 3; }

cache=${FASTCLOCK_GUEST_CACHE:-$HOME/.cache/fastclock-guest}
mkdir -p "$cache"

# The kernel and the modules the initramfs needs, once: the linux-image-*-amd64 that linux-image-amd64 depends on.
# Prints the kernel's directory in the cache.
prepare_kernel() {
  local image version work
  image=$(apt-cache depends linux-image-amd64 2>/dev/null | sed -n 's/^ *Depends: \(linux-image-[^ ]*\)$/\1/p' | head -1)
  [ -n "$image" ] || { echo "guest-lab: apt knows no linux-image-amd64 (apt-get update?)" >&2; return 1; }
  version=${image#linux-image-}
  if [ -s "$cache/$version/vmlinux" ] && [ -s "$cache/$version/modules/order" ]; then
    echo "$cache/$version"; return 0
  fi
  echo "guest-lab: fetching $image into $cache (once)" >&2
  work=$(mktemp -d "$cache/.work.XXXXXX")
  (cd "$work" && apt-get download "$image" >/dev/null 2>&1) \
    || { echo "guest-lab: apt-get download $image failed" >&2; rm -rf "$work"; return 1; }
  dpkg-deb -x "$work"/*.deb "$work/deb"
  extract_vmlinux "$work/deb/boot/vmlinuz-$version" "$work/vmlinux"
  copy_modules "$work/deb/lib/modules/$version" "$work/modules"
  rm -rf "${cache:?}/$version"
  mkdir -p "$cache/$version"
  mv "$work/vmlinux" "$work/modules" "$cache/$version/"
  rm -rf "$work"
  echo "$cache/$version"
}

# The ELF inside the bzImage (its xz payload): booted through QEMU's PVH entry, it skips the decompressor.
extract_vmlinux() {
  local offset
  for offset in $(LC_ALL=C grep -obUaP '\xfd7zXZ\x00' "$1" | cut -d: -f1); do
    # Not a pipe: xz stops at the stream's end and tail's SIGPIPE would fail it under pipefail.
    if xz -dc --single-stream < <(tail -c +$((offset + 1)) "$1") >"$2" 2>/dev/null \
        && [ "$(head -c 4 "$2" | od -An -tx1 | tr -d ' ')" = 7f454c46 ]; then
      return 0
    fi
  done
  echo "guest-lab: no xz-compressed ELF kernel found in $1" >&2
  return 1
}

# Modules in dependency order (as each one's .modinfo says), so that insmod finds their symbols.
module_order() {
  local dir=$1 name file dep
  shift
  for name in "$@"; do
    case " $ordered " in *" $name "*) continue ;; esac
    file=$(find "$dir" -name "$name.ko" -print -quit)
    [ -n "$file" ] || { echo "guest-lab: module $name not in $dir" >&2; return 1; }
    for dep in $(tr '\0' '\n' <"$file" | sed -n 's/^depends=//p' | tr ',' ' '); do
      module_order "$dir" "$dep"
    done
    case " $ordered " in *" $name "*) ;; *) ordered="$ordered $name" ;; esac
  done
}

# virtio_pci, 9pnet_virtio, 9p and what they depend on, with their load order in DIR/order.
copy_modules() {
  local modules=$1 dir=$2 name
  mkdir -p "$dir"
  ordered=
  module_order "$modules" virtio_pci 9pnet_virtio 9p
  for name in $ordered; do
    cp "$(find "$modules" -name "$name.ko" -print -quit)" "$dir/"
  done
  echo "$ordered" >"$dir/order"
}

# The initramfs for this guest-init.sh (named by its checksum, so that a changed init is built afresh).
prepare_initramfs() {
  local init cpio root
  init=$(dirname "$0")/guest-init.sh
  cpio=$1/initramfs-$(sha256sum "$init" | cut -c1-12).cpio
  if [ ! -s "$cpio" ]; then
    root=$(mktemp -d)
    mkdir -p "$root"/{bin,dev,proc,sys,newroot}
    cp "$busybox" "$root/bin/busybox"
    cp -r "$1/modules" "$root/modules"
    cp "$init" "$root/init"
    chmod +x "$root/init"
    (cd "$root" && find . | "$busybox" cpio -o -H newc >"$cpio.tmp" 2>/dev/null)
    mv "$cpio.tmp" "$cpio"
    rm -rf "$root"
  fi
  echo "$cpio"
}

kernel_dir=$(prepare_kernel) || exit 3
initramfs=$(prepare_initramfs "$kernel_dir") || exit 3
if $check; then
  echo "guest-lab: ready: kernel $(basename "$kernel_dir"), $("$qemu" --version | sed -n 1p)"
  exit 0
fi

if [ -z "$out" ]; then
  out=$(mktemp -d "${TMPDIR:-/tmp}/fastclock-guest.XXXXXX")
fi
mkdir -p "$out"
out=$(cd "$out" && pwd -P)
rm -f "$out"/guest-{rc,stdout,stderr,times,command} "$out/console.log"
{
  printf 'cd %q || exit 126\n' "$(pwd -P)"
  printf '%q ' "$@"
  printf '\n'
} >"$out/guest-command"

args=(console=ttyS0 panic=-1 "fastclock_out=$out")
# The guest writes to fresh tmpfs on /tmp and /var/tmp, which hide the host's. A working directory under one
# of them (a checkout in /tmp, as CI's may be) is shown again in the guest, read-only: its top directory
# there. Its path goes through the kernel's command line, so it must not hold a space.
cwd=$(pwd -P)
case "$cwd" in
  /tmp/?*|/var/tmp/?*)
    base=${cwd#/var}; base=${base#/tmp/}; top=${cwd%%/tmp/*}/tmp/${base%%/*}
    case "$top" in
      *[[:space:]]*) echo "guest-lab: the working directory $cwd holds a space; the guest cannot show it" >&2 ;;
      *) args+=("fastclock_keep=$top") ;;
    esac
    ;;
esac
[ "$clocksource" = default ] || args+=("clocksource=$clocksource")
if grep -qw -e vmx -e svm /proc/cpuinfo && [ -w /dev/kvm ]; then
  accel=(-accel kvm -cpu host)
  how=KVM
else
  accel=(-accel tcg,thread=single)
  how=emulated
  [ "$cpu" = intel ] && accel+=(-cpu max,vendor=GenuineIntel,family=6,model=85,stepping=4)
fi
[ "$cpu" = intel ] && args+=(mitigations=off)

start=$(date +%s.%N)
set +e
timeout "$timeout_s" "$qemu" "${accel[@]}" -smp "${FASTCLOCK_GUEST_SMP:-2}" -m 2048 -nodefaults -no-reboot \
  -display none -monitor none -serial "file:$out/console.log" \
  -kernel "$kernel_dir/vmlinux" -initrd "$initramfs" -append "${args[*]}" \
  -fsdev local,id=root,path=/,readonly=on,security_model=none,multidevs=remap \
  -device virtio-9p-pci,fsdev=root,mount_tag=hostroot \
  -fsdev local,id=out,path="$out",security_model=none,multidevs=remap \
  -device virtio-9p-pci,fsdev=out,mount_tag=results
qemu_rc=$?
set -e
end=$(date +%s.%N)

[ -f "$out/guest-stdout" ] && cat "$out/guest-stdout"
[ -f "$out/guest-stderr" ] && cat "$out/guest-stderr" >&2
# guest-times: guest uptime (s) when the command started and when it ended
cmd_start= cmd_end=
[ -f "$out/guest-times" ] && read -r cmd_start cmd_end <"$out/guest-times"
total=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')
if [ -n "$cmd_end" ]; then
  awk -v s="$cmd_start" -v e="$cmd_end" -v t="$total" -v how="$how" -v cs="$clocksource" -v cpu="$cpu" 'BEGIN {
    printf "guest-lab: %s, clocksource %s, cpu %s: booted in %.1f s (kernel uptime at the command), command %.1f s, %s s in all\n",
      how, cs, cpu, s, e - s, t }' >&2
else
  echo "guest-lab: $how, clocksource $clocksource, cpu $cpu: no result from the guest after $total s (qemu exit $qemu_rc); see $out/console.log" >&2
fi
if [ -f "$out/guest-rc" ]; then
  exit "$(cat "$out/guest-rc")"
fi
tail -n 20 "$out/console.log" >&2 2>/dev/null || true
exit 125
