#!/bin/busybox sh
# The guest's init (in the lab's initramfs, see guest-lab.sh): loads the 9p modules, mounts the host's root
# read-only with fresh tmpfs where the system writes, mounts the results share at its host path, runs the
# command there in a chroot (with bash: guest-lab.sh quotes it with printf %q), records its exit status and
# times, and powers off.
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
for m in $(cat /modules/order); do
  insmod /modules/$m.ko || echo "guest-init: insmod $m failed"
done
hostname localhost
out=$(sed -n 's/.*fastclock_out=\([^ ]*\).*/\1/p' /proc/cmdline)
opts=trans=virtio,version=9p2000.L,msize=512000
mount -t 9p -o ro,$opts,cache=loose hostroot /newroot || { echo "guest-init: cannot mount the host's root"; poweroff -f; }
mount -t proc proc /newroot/proc
mount -t sysfs sysfs /newroot/sys
mount -t devtmpfs devtmpfs /newroot/dev
keep=$(sed -n 's/.*fastclock_keep=\([^ ]*\).*/\1/p' /proc/cmdline)
# The host's directory to show again under the fresh tmpfs (guest-lab.sh: a working directory in /tmp):
# bound aside before the tmpfs hides it, then bound back at its own path.
kept=
if [ -n "$keep" ]; then
  mkdir -p /keep
  mount -o bind "/newroot$keep" /keep && kept=1 || echo "guest-init: cannot keep $keep"
fi
for d in /tmp /var/tmp /run /dev/shm; do
  [ -d /newroot$d ] && mount -t tmpfs -o mode=1777 tmpfs /newroot$d
done
if [ -n "$kept" ]; then
  mkdir -p "/newroot$keep"
  mount -o bind /keep "/newroot$keep" && echo "guest-init: $keep shown (read-only) under the fresh tmpfs" \
    || echo "guest-init: cannot show $keep again"
fi
# Under a fresh tmpfs (a results directory in /tmp) its path must be made again.
mkdir -p /newroot$out 2>/dev/null
mount -t 9p -o $opts results /newroot$out || { echo "guest-init: cannot mount the results share at $out"; poweroff -f; }
echo "guest-init: clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
started=$(cut -d' ' -f1 /proc/uptime)
HOME=/tmp PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  chroot /newroot /bin/bash "$out/guest-command" >/newroot$out/guest-stdout 2>/newroot$out/guest-stderr
rc=$?
ended=$(cut -d' ' -f1 /proc/uptime)
echo "$started $ended" >/newroot$out/guest-times
echo $rc >/newroot$out/guest-rc
sync
umount /newroot$out
poweroff -f
