/*
 * mkdirspy: an LD_PRELOAD library for tests. After every successful mkdir() it appends one line to
 * the file named by MKDIRSPY_LOG (nothing is written when the variable is unset):
 *
 *   PATH requested=MODE mode=MODE uid=UID dir=0|1
 *
 * requested is the mode argument mkdir was called with; mode, uid and dir are what lstat() found
 * right after the call (octal permission bits, owner, whether it is a directory). It lets a test
 * see how a directory that is removed again before it could look was created.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

typedef int (*mkdir_fn)(const char *, mode_t);

int mkdir(const char *path, mode_t mode) {
    static mkdir_fn real_mkdir;
    if (real_mkdir == NULL) {
        real_mkdir = (mkdir_fn) dlsym(RTLD_NEXT, "mkdir");
        if (real_mkdir == NULL) {
            errno = ENOSYS;
            return -1;
        }
    }
    int rc = real_mkdir(path, mode);
    int saved_errno = errno;
    const char *log = getenv("MKDIRSPY_LOG");
    struct stat st;
    if (rc == 0 && log != NULL && lstat(path, &st) == 0) {
        char line[PATH_MAX + 128];
        int n = snprintf(line, sizeof line, "%s requested=%04o mode=%04o uid=%u dir=%d\n", path,
                         (unsigned) (mode & 07777), (unsigned) (st.st_mode & 07777), (unsigned) st.st_uid,
                         S_ISDIR(st.st_mode) ? 1 : 0);
        int fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
        if (fd >= 0) {
            if (n > 0 && (size_t) n < sizeof line && write(fd, line, (size_t) n) < 0) {
                /* a test spy: nothing to do */
            }
            close(fd);
        }
    }
    errno = saved_errno;
    return rc;
}
