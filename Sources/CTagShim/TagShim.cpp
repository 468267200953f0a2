// TagLib behind TagShim.h. Each file type is opened over a SparseStream (no temporary file):
// the parts of the file the caller read, at their places, and zeros between, so that TagLib's
// audio properties find the first frames, the file's length and its last frame or page
// without the audio being read. Exceptions stop here.
#include "TagShim.h"

#include <attachedpictureframe.h>
#include <flacfile.h>
#include <flacpicture.h>
#include <id3v2framefactory.h>
#include <id3v2tag.h>
#include <mp4coverart.h>
#include <mp4file.h>
#include <mpegfile.h>
#include <tpropertymap.h>
#include <vorbisfile.h>
#include <xiphcomment.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <utility>
#include <vector>

struct ak_tags {
    std::string fields[AK_FIELD_COUNT];
    bool present[AK_FIELD_COUNT] = {};
    /// Every other property (key, values joined by "; ") and the later values of a mapped one.
    std::vector<std::pair<std::string, std::string>> others;
    /// What no text holds: a property over the field limit, a frame TagLib cannot give as text.
    std::vector<std::string> dropped;
    TagLib::ByteVector cover;
    bool hasCover = false;
    /// Every embedded picture, the cover's included.
    size_t pictures = 0;
    double seconds = -1;
};

namespace {

/// A read-only file of `length` bytes of which only the first (`head`) and the last (`tail`)
/// are known; every other byte reads as zero.
class SparseStream : public TagLib::IOStream {
public:
    SparseStream(TagLib::ByteVector head, TagLib::ByteVector tail, long length)
        : head_(std::move(head)), tail_(std::move(tail)), length_(std::max<long>(length, static_cast<long>(head_.size()))),
          tailStart_(length_ - static_cast<long>(tail_.size())) {}

    TagLib::FileName name() const override { return ""; }

    /// At most `count` bytes from the position; never more than the known parts and 64 KiB
    /// together, so that a size a damaged file claims allocates no more than the file's parts.
    TagLib::ByteVector readBlock(unsigned long count) override {
        const unsigned long cap = head_.size() + tail_.size() + 65536ul;
        const long end = std::min<long>(length_, position_ + static_cast<long>(std::min(count, cap)));
        if (end <= position_) return {};
        TagLib::ByteVector block(static_cast<unsigned int>(end - position_), '\0');
        char *out = block.data();
        const long headEnd = std::min<long>(end, static_cast<long>(head_.size()));
        if (position_ < headEnd) std::memcpy(out, head_.data() + position_, static_cast<size_t>(headEnd - position_));
        const long from = std::max(position_, tailStart_);
        if (from < end) std::memcpy(out + (from - position_), tail_.data() + (from - tailStart_), static_cast<size_t>(end - from));
        position_ = end;
        return block;
    }

    void writeBlock(const TagLib::ByteVector &) override {}
    void insert(const TagLib::ByteVector &, unsigned long, unsigned long) override {}
    void removeBlock(unsigned long, unsigned long) override {}
    bool readOnly() const override { return true; }
    bool isOpen() const override { return true; }

    void seek(long offset, Position from) override {
        const long base = from == Beginning ? 0 : from == Current ? position_ : length_;
        position_ = std::max<long>(0, base + offset);
    }

    long tell() const override { return position_; }
    long length() override { return length_; }
    void truncate(long) override {}

private:
    TagLib::ByteVector head_;
    TagLib::ByteVector tail_;
    long length_;
    long tailStart_;
    long position_ = 0;
};

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
    static const char *const title[] = {"TITLE", nullptr};
    static const char *const trackNumber[] = {"TRACKNUMBER", nullptr};
    static const char *const discNumber[] = {"DISCNUMBER", nullptr};
    static const char *const label[] = {"LABEL", "ORGANIZATION", "PUBLISHER", nullptr};
    static const char *const catalogNumber[] = {"CATALOGNUMBER", nullptr};
    static const char *const barcode[] = {"BARCODE", "UPC", "EAN", nullptr};
    static const char *const country[] = {"RELEASECOUNTRY", nullptr};
    static const char *const media[] = {"MEDIA", nullptr};
    static const char *const releaseGroup[] = {"MUSICBRAINZ_RELEASEGROUPID", nullptr};
    static const char *const track[] = {"MUSICBRAINZ_TRACKID", nullptr};
    switch (field) {
    case AK_FIELD_ALBUM: return album;
    case AK_FIELD_ALBUM_ARTIST: return albumArtist;
    case AK_FIELD_ARTIST: return artist;
    case AK_FIELD_GENRE: return genre;
    case AK_FIELD_DATE: return date;
    case AK_FIELD_MUSICBRAINZ_ALBUM_ID: return musicBrainz;
    case AK_FIELD_TITLE: return title;
    case AK_FIELD_TRACK_NUMBER: return trackNumber;
    case AK_FIELD_DISC_NUMBER: return discNumber;
    case AK_FIELD_LABEL: return label;
    case AK_FIELD_CATALOG_NUMBER: return catalogNumber;
    case AK_FIELD_BARCODE: return barcode;
    case AK_FIELD_COUNTRY: return country;
    case AK_FIELD_MEDIA: return media;
    case AK_FIELD_MUSICBRAINZ_RELEASE_GROUP_ID: return releaseGroup;
    case AK_FIELD_MUSICBRAINZ_TRACK_ID: return track;
    default: return nullptr;
    }
}

/// The values' UTF-8 texts joined by "; ", empty ones left out, and the first too when
/// `skipFirst` (a mapped field has it).
std::string joinedValues(const TagLib::StringList &values, bool skipFirst) {
    std::string joined;
    for (auto value = values.begin(); value != values.end(); ++value) {
        if (skipFirst && value == values.begin()) continue;
        const std::string text = value->to8Bit(true);
        if (text.empty()) continue;
        if (!joined.empty()) joined += "; ";
        joined += text;
    }
    return joined;
}

/// Whether `key` names a picture, which the cover reads, not the properties.
bool isPicture(const TagLib::String &key) {
    return key.startsWith("APIC") || key.startsWith("PIC") || key == "covr" || key == "METADATA_BLOCK_PICTURE";
}

/// Copies the mapped fields out of `properties`; a field over `maxBytes` fails the read. Every
/// other property goes to `others` (its values joined by "; "), and so do the values after
/// the first of a mapped one; one over `maxBytes`, and what TagLib cannot give as text, is
/// named in `dropped`.
ak_tags_status copyFields(const TagLib::PropertyMap &properties, size_t maxBytes, ak_tags &tags, size_t &detail) {
    std::vector<TagLib::String> taken;
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
            taken.push_back(found->first);
            break;
        }
    }
    for (const auto &[key, values] : properties) {
        const bool mapped = std::find(taken.begin(), taken.end(), key) != taken.end();
        std::string joined = joinedValues(values, mapped);
        if (joined.empty()) continue;
        if (joined.size() > maxBytes) {
            tags.dropped.push_back(key.to8Bit(true));
        } else {
            tags.others.emplace_back(key.to8Bit(true), std::move(joined));
        }
    }
    for (const auto &key : properties.unsupportedData()) {
        if (!isPicture(key)) tags.dropped.push_back(key.to8Bit(true));
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

/// How many pictures each format embeds, of every type: the cover is one of them.
size_t pictureCount(TagLib::MPEG::File &file) {
    if (!file.hasID3v2Tag()) return 0;
    size_t count = 0;
    for (const auto *frame : file.ID3v2Tag()->frameListMap()["APIC"]) {
        if (dynamic_cast<const TagLib::ID3v2::AttachedPictureFrame *>(frame)) ++count;
    }
    return count;
}

size_t pictureCount(TagLib::FLAC::File &file) {
    return file.pictureList().size() + (file.hasXiphComment() ? file.xiphComment()->pictureList().size() : 0);
}

size_t pictureCount(TagLib::Ogg::Vorbis::File &file) { return file.tag()->pictureList().size(); }

size_t pictureCount(TagLib::MP4::File &file) {
    auto *tag = file.tag();
    return tag && tag->contains("covr") ? tag->item("covr").toCoverArtList().size() : 0;
}

/// M4A freeform atoms TagLib has no property name for (`----:com.apple.iTunes:replaygain_track_gain`,
/// as Picard and foobar2000 write them) that hold text: to `others` under the name after the
/// last colon, in upper case as TagLib names properties; the rest stay in `dropped`.
void keepFreeformText(TagLib::MP4::File &file, size_t maxBytes, ak_tags &tags) {
    auto *tag = file.tag();
    if (!tag) return;
    std::vector<std::string> dropped;
    for (auto &key : tags.dropped) {
        const TagLib::String name(key, TagLib::String::UTF8);
        const int colon = name.rfind(":");
        if (!name.startsWith("----:") || colon < 0 || !tag->contains(name)) {
            dropped.push_back(std::move(key));
            continue;
        }
        std::string joined = joinedValues(tag->item(name).toStringList(), false);
        if (joined.empty() || joined.size() > maxBytes) {
            dropped.push_back(std::move(key));
        } else {
            tags.others.emplace_back(name.substr(static_cast<unsigned int>(colon) + 1).upper().to8Bit(true), std::move(joined));
        }
    }
    tags.dropped = std::move(dropped);
}
void keepFreeformText(TagLib::File &, size_t, ak_tags &) {}

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
    keepFreeformText(file, maxField, tags);
    TagLib::ByteVector cover = embeddedCover(file);
    if (cover.size() > maxCover) {
        detail = cover.size();
        return AK_TAGS_COVER_TOO_LARGE;
    }
    tags.hasCover = !cover.isEmpty();
    tags.cover = cover;
    tags.pictures = pictureCount(file);
    if (const auto *properties = file.audioProperties(); properties && properties->lengthInMilliseconds() > 0) {
        tags.seconds = properties->lengthInMilliseconds() / 1000.0;
    }
    return AK_TAGS_OK;
}

ak_tags_status readTags(TagLib::IOStream &stream, ak_audio_format format, size_t maxField, size_t maxCover, ak_tags &tags, size_t &detail) {
    auto *frames = TagLib::ID3v2::FrameFactory::instance();
    switch (format) {
    case AK_AUDIO_MP3: {
        TagLib::MPEG::File file(&stream, frames, true);
        return readOpened(file, maxField, maxCover, tags, detail);
    }
    case AK_AUDIO_FLAC: {
        TagLib::FLAC::File file(&stream, frames, true);
        return readOpened(file, maxField, maxCover, tags, detail);
    }
    case AK_AUDIO_OGG_VORBIS: {
        TagLib::Ogg::Vorbis::File file(&stream, true);
        return readOpened(file, maxField, maxCover, tags, detail);
    }
    case AK_AUDIO_MP4: {
        TagLib::MP4::File file(&stream, true);
        return readOpened(file, maxField, maxCover, tags, detail);
    }
    }
    return AK_TAGS_INVALID_ARGUMENT;
}

} // namespace

extern "C" ak_tags_status ak_tags_read(
    const void *bytes, size_t count, const void *tail, size_t tail_count, long long file_length, ak_audio_format format,
    size_t max_field_bytes, size_t max_cover_bytes, ak_tags **result, size_t *detail) {
    if (result == nullptr || (bytes == nullptr && count > 0) || (tail == nullptr && tail_count > 0) || tail_count > 0xFFFFFFFFu) {
        return AK_TAGS_INVALID_ARGUMENT;
    }
    *result = nullptr;
    size_t ignored = 0;
    size_t &said = detail ? *detail : ignored;
    // TagLib sizes are unsigned int: a larger buffer would be cut short without a word.
    if (count > 0xFFFFFFFFu) return AK_TAGS_INVALID_ARGUMENT;
    try {
        SparseStream stream(
            TagLib::ByteVector(static_cast<const char *>(bytes), static_cast<unsigned int>(count)),
            TagLib::ByteVector(static_cast<const char *>(tail), static_cast<unsigned int>(tail_count)), static_cast<long>(file_length));
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

extern "C" size_t ak_tags_picture_count(const ak_tags *tags) { return tags ? tags->pictures : 0; }

extern "C" void ak_tags_free(ak_tags *tags) { delete tags; }

extern "C" double ak_tags_seconds(const ak_tags *tags) { return tags ? tags->seconds : -1; }

extern "C" size_t ak_tags_other_count(const ak_tags *tags) { return tags ? tags->others.size() : 0; }

extern "C" const char *ak_tags_other(const ak_tags *tags, size_t index, size_t *key_length, const char **value, size_t *value_length) {
    if (tags == nullptr || index >= tags->others.size() || value == nullptr) return nullptr;
    const auto &[key, text] = tags->others[index];
    if (key_length) *key_length = key.size();
    *value = text.data();
    if (value_length) *value_length = text.size();
    return key.data();
}

extern "C" size_t ak_tags_dropped_count(const ak_tags *tags) { return tags ? tags->dropped.size() : 0; }

extern "C" const char *ak_tags_dropped(const ak_tags *tags, size_t index, size_t *length) {
    if (tags == nullptr || index >= tags->dropped.size()) return nullptr;
    if (length) *length = tags->dropped[index].size();
    return tags->dropped[index].data();
}
