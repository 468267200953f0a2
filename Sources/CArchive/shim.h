// libarchive for AlbumKitBundle, the one Swift module that imports it; zlib beside it, because
// libarchive's gzip filter never checks a member's CRC and length (AlbumKitBundle unpacks gzip
// with zlib itself so that a damaged trailer is refused).
#ifndef ALBUMKIT_CARCHIVE_SHIM_H
#define ALBUMKIT_CARCHIVE_SHIM_H
#include <archive.h>
#include <archive_entry.h>
#include <zlib.h>
#endif
