// libarchive for AlbumKitBundle, the one Swift module that imports it.
#ifndef ALBUMKIT_CARCHIVE_SHIM_H
#define ALBUMKIT_CARCHIVE_SHIM_H
#include <archive.h>
#include <archive_entry.h>
#endif
