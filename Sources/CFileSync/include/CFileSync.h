// Linux calls that make files durable in bulk, which Swift's Glibc module does not show
// (they are GNU extensions): AlbumKit's import flushes one file system, not the machine.
#ifndef CFILESYNC_H
#define CFILESYNC_H

/// Starts writing back the dirty pages of `fd` without waiting (Linux `sync_file_range`);
/// elsewhere does nothing. Returns 0 or -1 with errno set.
int albumkit_start_writeback(int fd);

/// Flushes the file system holding `fd` (Linux `syncfs`); elsewhere the whole machine
/// (`sync`). Returns 0 or -1 with errno set.
int albumkit_sync_file_system(int fd);

#endif
