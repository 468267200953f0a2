// A plain C API over TagLib for the AudioFiles source: reads the tags AlbumKit maps (SPEC 9),
// every other tag as text, and the embedded front cover from bytes already in memory. No C++ type and no
// C++ exception crosses this header; every failure is a status code.
#ifndef ALBUMKIT_TAG_SHIM_H
#define ALBUMKIT_TAG_SHIM_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The audio containers the shim reads; the caller decides which from the first bytes.
typedef enum {
    AK_AUDIO_MP3 = 1,
    AK_AUDIO_FLAC = 2,
    AK_AUDIO_OGG_VORBIS = 3,
    AK_AUDIO_MP4 = 4,
} ak_audio_format;

/// What `ak_tags_read` did.
typedef enum {
    /// The tags were read (some or all fields may still be absent).
    AK_TAGS_OK = 0,
    /// TagLib found neither a tag nor audio of the format given: damaged, or not that format.
    AK_TAGS_NOT_AUDIO = 1,
    /// A field is longer than `max_field_bytes`; `detail` is the `ak_tag_field`.
    AK_TAGS_FIELD_TOO_LONG = 2,
    /// The front cover is larger than `max_cover_bytes`; `detail` is its size.
    AK_TAGS_COVER_TOO_LARGE = 3,
    /// Memory ran out while parsing.
    AK_TAGS_OUT_OF_MEMORY = 4,
    /// TagLib failed in some other way (an exception the shim caught).
    AK_TAGS_FAILED = 5,
    /// A null pointer or an unknown format was passed.
    AK_TAGS_INVALID_ARGUMENT = 6,
} ak_tags_status;

/// The text fields the shim returns.
typedef enum {
    AK_FIELD_ALBUM = 0,
    AK_FIELD_ALBUM_ARTIST = 1,
    AK_FIELD_ARTIST = 2,
    AK_FIELD_GENRE = 3,
    /// The recording date as the tag writes it ("1999", "1999-05-02").
    AK_FIELD_DATE = 4,
    AK_FIELD_MUSICBRAINZ_ALBUM_ID = 5,
    AK_FIELD_TITLE = 6,
    /// As written: "3" or "3/12".
    AK_FIELD_TRACK_NUMBER = 7,
    /// As written: "1" or "1/2".
    AK_FIELD_DISC_NUMBER = 8,
    AK_FIELD_LABEL = 9,
    AK_FIELD_CATALOG_NUMBER = 10,
    AK_FIELD_BARCODE = 11,
    AK_FIELD_COUNTRY = 12,
    /// The medium ("CD", "Digital Media").
    AK_FIELD_MEDIA = 13,
    AK_FIELD_MUSICBRAINZ_RELEASE_GROUP_ID = 14,
    /// The recording's MusicBrainz id.
    AK_FIELD_MUSICBRAINZ_TRACK_ID = 15,
    AK_FIELD_COUNT = 16,
} ak_tag_field;

/// The tags read from one file; owned by the caller, freed with `ak_tags_free`.
typedef struct ak_tags ak_tags;

/// Reads the tags and the audio properties of one file of `format` that is `file_length`
/// bytes long, of which only its first bytes `bytes[0..<count]` and its last bytes
/// `tail[0..<tail_count]` are given (the caller chooses how many: the tag-bearing parts, and
/// the end where the last frame or page is); TagLib sees the bytes between as zeros. Returns
/// `AK_TAGS_OK` and sets `*result`, or another status and leaves `*result` null; `*detail` (may
/// be null) says more for the statuses that document it. Nothing returned is larger than the
/// limits given.
ak_tags_status ak_tags_read(
    const void *bytes, size_t count, const void *tail, size_t tail_count, long long file_length, ak_audio_format format,
    size_t max_field_bytes, size_t max_cover_bytes, ak_tags **result, size_t *detail);

/// The length of the audio in seconds, as TagLib's audio properties give it; negative when
/// they give none.
double ak_tags_seconds(const ak_tags *tags);

/// The UTF-8 text of `field` (first value when the tag holds several), not NUL-terminated,
/// and its length in `*length`; null when the file does not have the field.
const char *ak_tags_field(const ak_tags *tags, ak_tag_field field, size_t *length);

/// The embedded front cover's bytes and their count in `*length`; null when there is none.
const unsigned char *ak_tags_cover(const ak_tags *tags, size_t *length);

/// How many pictures the file embeds, of every type (front cover, back cover, artist…), the
/// one `ak_tags_cover` gives included.
size_t ak_tags_picture_count(const ak_tags *tags);

/// How many other properties the file has: those no field maps, and the values after the
/// first of a field's (ID3 keys as TagLib's property names: `COMMENT`, `REPLAYGAIN_TRACK_GAIN`).
size_t ak_tags_other_count(const ak_tags *tags);

/// The other property `index` (below `ak_tags_other_count`): its key (UTF-8, not
/// NUL-terminated) and length, its values joined by "; " in `*value` and `*value_length`;
/// null for an index out of range. None is longer than `max_field_bytes`.
const char *ak_tags_other(const ak_tags *tags, size_t index, size_t *key_length, const char **value, size_t *value_length);

/// How many properties the file has that are not kept: longer than `max_field_bytes`, or
/// frames TagLib cannot read as text (pictures aside, which the cover reads).
size_t ak_tags_dropped_count(const ak_tags *tags);

/// The name of dropped property `index`, not NUL-terminated, and its length.
const char *ak_tags_dropped(const ak_tags *tags, size_t index, size_t *length);

/// Frees what `ak_tags_read` returned; null is allowed.
void ak_tags_free(ak_tags *tags);

#ifdef __cplusplus
}
#endif

#endif
