// TagLib behind TagShim.h. Each file type is opened over a ByteVectorStream (no temporary
// file), without audio properties (no scan of the audio frames). Exceptions stop here.
#include "TagShim.h"

#include <attachedpictureframe.h>
#include <flacfile.h>
#include <flacpicture.h>
#include <id3v2framefactory.h>
#include <id3v2tag.h>
#include <mp4coverart.h>
#include <mp4file.h>
#include <mpegfile.h>
#include <tbytevectorstream.h>
#include <tpropertymap.h>
#include <vorbisfile.h>
#include <xiphcomment.h>

#include <memory>
#include <new>
#include <string>

struct ak_tags {
    std::string fields[AK_FIELD_COUNT];
    bool present[AK_FIELD_COUNT] = {};
    TagLib::ByteVector cover;
    bool hasCover = false;
};

namespace {

/// The property names each field is found under, first match wins. Vorbis comments in the
/// wild spell the album artist three ways; TagLib maps ID3v2 (TPE2, TXXX) and MP4 (aART,
/// ----:com.apple.iTunes:MusicBrainz Album Id) keys to the first spelling.
const char *const *propertyNames(ak_tag_field field) {
    static const char *const album[] = {"ALBUM", nullptr};
    static const char *const albumArtist[] = {"ALBUMARTIST", "ALBUM ARTIST", "ALBUM_ARTIST", nullptr};
    static const char *const artist[] = {"ARTIST", nullptr};
    static const char *const genre[] = {"GENRE", nullptr};
    static const char *const date[] = {"DATE", "YEAR", nullptr};
    static const char *const musicBrainz[] = {"MUSICBRAINZ_ALBUMID", nullptr};
    switch (field) {
    case AK_FIELD_ALBUM: return album;
    case AK_FIELD_ALBUM_ARTIST: return albumArtist;
    case AK_FIELD_ARTIST: return artist;
    case AK_FIELD_GENRE: return genre;
    case AK_FIELD_DATE: return date;
    case AK_FIELD_MUSICBRAINZ_ALBUM_ID: return musicBrainz;
    default: return nullptr;
    }
}

/// Copies the mapped fields out of `properties`; a field over `maxBytes` fails the read.
ak_tags_status copyFields(const TagLib::PropertyMap &properties, size_t maxBytes, ak_tags &tags, size_t &detail) {
    for (int index = 0; index < AK_FIELD_COUNT; ++index) {
        const auto field = static_cast<ak_tag_field>(index);
        for (const char *const *name = propertyNames(field); *name != nullptr; ++name) {
            const auto found = properties.find(*name);
            if (found == properties.end() || found->second.isEmpty()) continue;
            std::string text = found->second.front().to8Bit(true);
            if (text.size() > maxBytes) {
                detail = static_cast<size_t>(index);
                return AK_TAGS_FIELD_TOO_LONG;
            }
            tags.fields[index] = std::move(text);
            tags.present[index] = true;
            break;
        }
    }
    return AK_TAGS_OK;
}

/// The FLAC-style picture (FLAC PICTURE block, Vorbis METADATA_BLOCK_PICTURE) to use as the
/// cover: the first of type 3 (front cover), else the first of any type (SPEC 9: a file whose
/// only picture is marked "other" or "back cover" still has a cover).
const TagLib::FLAC::Picture *coverPicture(const TagLib::List<TagLib::FLAC::Picture *> &pictures) {
    for (const auto *picture : pictures) {
        if (picture->type() == TagLib::FLAC::Picture::FrontCover) return picture;
    }
    return pictures.isEmpty() ? nullptr : pictures.front();
}

/// The embedded cover of each format (the front cover, else the first picture), or an empty vector.
TagLib::ByteVector embeddedCover(TagLib::MPEG::File &file) {
    if (!file.hasID3v2Tag()) return {};
    const TagLib::ID3v2::AttachedPictureFrame *first = nullptr;
    for (const auto *frame : file.ID3v2Tag()->frameListMap()["APIC"]) {
        const auto *picture = dynamic_cast<const TagLib::ID3v2::AttachedPictureFrame *>(frame);
        if (!picture) continue;
        if (picture->type() == TagLib::ID3v2::AttachedPictureFrame::FrontCover) return picture->picture();
        if (!first) first = picture;
    }
    return first ? first->picture() : TagLib::ByteVector();
}

/// A FLAC file's PICTURE blocks and its Vorbis comment's pictures, together: a front cover in
/// either wins over another picture in the other.
TagLib::ByteVector embeddedCover(TagLib::FLAC::File &file) {
    auto pictures = file.pictureList();
    if (file.hasXiphComment()) pictures.append(file.xiphComment()->pictureList());
    if (const auto *picture = coverPicture(pictures)) return picture->data();
    return {};
}

TagLib::ByteVector embeddedCover(TagLib::Ogg::Vorbis::File &file) {
    if (const auto *picture = coverPicture(file.tag()->pictureList())) return picture->data();
    return {};
}

/// M4A `covr` carries no picture type; by convention its first image is the front cover.
TagLib::ByteVector embeddedCover(TagLib::MP4::File &file) {
    auto *tag = file.tag();
    if (!tag || !tag->contains("covr")) return {};
    const auto art = tag->item("covr").toCoverArtList();
    return art.isEmpty() ? TagLib::ByteVector() : art.front().data();
}

/// Whether an MP3 holds anything at all: a tag or a frame of MPEG audio.
bool holdsAudio(TagLib::MPEG::File &file) {
    return file.hasID3v2Tag() || file.hasID3v1Tag() || file.firstFrameOffset() >= 0;
}
bool holdsAudio(TagLib::File &file) { return true; }

/// Reads one opened file: validity, fields, then the cover within its limit.
template <typename AudioFile>
ak_tags_status readOpened(AudioFile &file, size_t maxField, size_t maxCover, ak_tags &tags, size_t &detail) {
    if (!file.isValid() || !holdsAudio(file)) return AK_TAGS_NOT_AUDIO;
    if (const auto status = copyFields(file.properties(), maxField, tags, detail); status != AK_TAGS_OK) return status;
    TagLib::ByteVector cover = embeddedCover(file);
    if (cover.size() > maxCover) {
        detail = cover.size();
        return AK_TAGS_COVER_TOO_LARGE;
    }
    tags.hasCover = !cover.isEmpty();
    tags.cover = cover;
    return AK_TAGS_OK;
}

ak_tags_status readTags(TagLib::IOStream &stream, ak_audio_format format, size_t maxField, size_t maxCover, ak_tags &tags, size_t &detail) {
    auto *frames = TagLib::ID3v2::FrameFactory::instance();
    switch (format) {
    case AK_AUDIO_MP3: {
        TagLib::MPEG::File file(&stream, frames, false);
        return readOpened(file, maxField, maxCover, tags, detail);
    }
    case AK_AUDIO_FLAC: {
        TagLib::FLAC::File file(&stream, frames, false);
        return readOpened(file, maxField, maxCover, tags, detail);
    }
    case AK_AUDIO_OGG_VORBIS: {
        TagLib::Ogg::Vorbis::File file(&stream, false);
        return readOpened(file, maxField, maxCover, tags, detail);
    }
    case AK_AUDIO_MP4: {
        TagLib::MP4::File file(&stream, false);
        return readOpened(file, maxField, maxCover, tags, detail);
    }
    }
    return AK_TAGS_INVALID_ARGUMENT;
}

} // namespace

extern "C" ak_tags_status ak_tags_read(
    const void *bytes, size_t count, ak_audio_format format, size_t max_field_bytes, size_t max_cover_bytes,
    ak_tags **result, size_t *detail) {
    if (result == nullptr || (bytes == nullptr && count > 0)) return AK_TAGS_INVALID_ARGUMENT;
    *result = nullptr;
    size_t ignored = 0;
    size_t &said = detail ? *detail : ignored;
    // TagLib sizes are unsigned int: a larger buffer would be cut short without a word.
    if (count > 0xFFFFFFFFu) return AK_TAGS_INVALID_ARGUMENT;
    try {
        TagLib::ByteVectorStream stream(TagLib::ByteVector(static_cast<const char *>(bytes), static_cast<unsigned int>(count)));
        auto tags = std::make_unique<ak_tags>();
        const auto status = readTags(stream, format, max_field_bytes, max_cover_bytes, *tags, said);
        if (status == AK_TAGS_OK) *result = tags.release();
        return status;
    } catch (const std::bad_alloc &) {
        return AK_TAGS_OUT_OF_MEMORY;
    } catch (...) {
        return AK_TAGS_FAILED;
    }
}

extern "C" const char *ak_tags_field(const ak_tags *tags, ak_tag_field field, size_t *length) {
    if (tags == nullptr || field < 0 || field >= AK_FIELD_COUNT || !tags->present[field]) return nullptr;
    if (length) *length = tags->fields[field].size();
    return tags->fields[field].data();
}

extern "C" const unsigned char *ak_tags_cover(const ak_tags *tags, size_t *length) {
    if (tags == nullptr || !tags->hasCover) return nullptr;
    if (length) *length = tags->cover.size();
    return reinterpret_cast<const unsigned char *>(tags->cover.data());
}

extern "C" void ak_tags_free(ak_tags *tags) { delete tags; }
