// Linux calls that make files durable in bulk, which Swift's Glibc module does not show
// (they are GNU extensions): AlbumKit's import flushes one file system, not the machine,
// and names a cover file only once it is whole.
#ifndef CFILESYNC_H
#define CFILESYNC_H

/// Starts writing back the dirty pages of `fd` without waiting (Linux `sync_file_range`);
/// elsewhere does nothing. Returns 0 or -1 with errno set.
int albumkit_start_writeback(int fd);

/// Flushes the file system holding `fd` (Linux `syncfs`); elsewhere the whole machine
/// (`sync`). Returns 0 or -1 with errno set.
int albumkit_sync_file_system(int fd);

/// Opens a new file without a name in the folder `folder`, for reading and writing (Linux
/// `O_TMPFILE`), so a process killed while writing it leaves nothing behind: a file to name
/// once complete (``albumkit_link_unnamed``), or scratch space that goes with its descriptor. Returns the descriptor, or -1
/// with errno set: EOPNOTSUPP (or EISDIR, EINVAL) where the file system or system has none.
int albumkit_open_unnamed(const char *folder, unsigned int mode);

/// Gives the file `albumkit_open_unnamed` made the name `path` (`linkat` with
/// `AT_EMPTY_PATH` where the process may, else through `/proc/self/fd`). Returns 0, or -1
/// with errno set (EEXIST: the name is taken; it is left as it is).
int albumkit_link_unnamed(int fd, const char *path);

/// Appends up to `length` bytes of `from`, read at `offset`, to `to` at its own offset (Linux
/// `copy_file_range`, which copies inside the kernel; elsewhere, or between file systems it
/// cannot, through a buffer). Returns how many were copied (0 at the end of `from`), or -1
/// with errno set.
long long albumkit_copy_range(int from, long long offset, int to, long long length);

#endif
