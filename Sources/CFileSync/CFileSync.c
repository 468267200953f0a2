#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#include "CFileSync.h"

int albumkit_start_writeback(int fd) {
#ifdef __linux__
    return sync_file_range(fd, 0, 0, SYNC_FILE_RANGE_WRITE);
#else
    (void)fd;
    return 0;
#endif
}

int albumkit_sync_file_system(int fd) {
#ifdef __linux__
    return syncfs(fd);
#else
    (void)fd;
    sync();
    return 0;
#endif
}

int albumkit_open_unnamed(const char *folder, unsigned int mode) {
#if defined(__linux__) && defined(O_TMPFILE)
    return open(folder, O_TMPFILE | O_RDWR | O_CLOEXEC, mode);
#else
    (void)folder;
    (void)mode;
    errno = EOPNOTSUPP;
    return -1;
#endif
}

int albumkit_link_unnamed(int fd, const char *path) {
#ifdef __linux__
    // AT_EMPTY_PATH links the descriptor itself, but needs CAP_DAC_READ_SEARCH on most
    // kernels; once refused, every later call goes through /proc (a benign race if two ask).
    static int empty_path_refused = 0;
    if (!__atomic_load_n(&empty_path_refused, __ATOMIC_RELAXED)) {
        if (linkat(fd, "", AT_FDCWD, path, AT_EMPTY_PATH) == 0) return 0;
        if (errno != ENOENT && errno != EPERM && errno != EINVAL) return -1;
        __atomic_store_n(&empty_path_refused, 1, __ATOMIC_RELAXED);
    }
    char self[64];
    snprintf(self, sizeof self, "/proc/self/fd/%d", fd);
    return linkat(AT_FDCWD, self, AT_FDCWD, path, AT_SYMLINK_FOLLOW);
#else
    (void)fd;
    (void)path;
    errno = EOPNOTSUPP;
    return -1;
#endif
}

long long albumkit_copy_range(int from, long long offset, int to, long long length) {
#ifdef __linux__
    off_t start = (off_t)offset;
    ssize_t copied = copy_file_range(from, &start, to, NULL, (size_t)length, 0);
    if (copied >= 0 || (errno != EXDEV && errno != ENOSYS && errno != EOPNOTSUPP && errno != EINVAL)) return copied;
#endif
    // Where the kernel cannot copy between these files: through a buffer.
    char buffer[65536];
    ssize_t got = pread(from, buffer, length < (long long)sizeof buffer ? (size_t)length : sizeof buffer, (off_t)offset);
    if (got <= 0) return got;
    ssize_t put = 0;
    while (put < got) {
        ssize_t written = write(to, buffer + put, (size_t)(got - put));
        if (written < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        put += written;
    }
    return got;
}
