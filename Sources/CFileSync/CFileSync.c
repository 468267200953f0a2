#define _GNU_SOURCE
#include <fcntl.h>
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
