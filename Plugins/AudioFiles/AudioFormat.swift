import CTagShim
import Foundation

/// The audio containers the `audio` source reads, told apart by their first bytes (a name
/// only says which files to look at: content decides what they are).
enum AudioFormat: Sendable, Equatable {
    case mp3
    case flac
    case oggVorbis
    case mp4

    /// The name endings of files the source reads as audio.
    static let fileEndings: Set<String> = ["mp3", "flac", "ogg", "oga", "m4a"]

    /// How many first bytes ``init(sniffing:)`` needs to tell every format apart (an Ogg
    /// page header, its one-segment table and the Vorbis packet's signature).
    static let sniffLength = 35

    /// Whether a file named `name` is one the source reads.
    private static func isAudioName(_ name: some StringProtocol) -> Bool {
        guard let dot = name.lastIndex(of: ".") else { return false }
        return fileEndings.contains(name[name.index(after: dot)...].lowercased())
    }

    /// Whether the file at `path` (`/`-separated) is one the source reads: an audio name,
    /// and not the metadata macOS puts beside files in archives it makes (`._01.mp3`
    /// AppleDouble files, the `__MACOSX/` folder of Finder's zips), which is not audio.
    static func isAudioPath(_ path: some StringProtocol) -> Bool {
        let components = path.split(separator: "/")
        guard let name = components.last, !name.hasPrefix("._"), !components.contains("__MACOSX") else { return false }
        return isAudioName(name)
    }

    /// The format `bytes` (a file's first bytes, or those after its ID3v2 tag) start like.
    init?(sniffing bytes: Data) {
        let head = [UInt8](bytes.prefix(Self.sniffLength))
        if head.starts(with: Array("fLaC".utf8)) {
            self = .flac
        } else if head.starts(with: Array("OggS".utf8)) {
            guard head.count >= 35, head[28...].starts(with: [0x01] + Array("vorbis".utf8)) else { return nil }
            self = .oggVorbis
        } else if head.count >= 8, head[4..<8].elementsEqual("ftyp".utf8) {
            self = .mp4
        } else if head.starts(with: Array("ID3".utf8)) || (head.count >= 2 && head[0] == 0xFF && head[1] & 0xE0 == 0xE0) {
            self = .mp3
        } else {
            return nil
        }
    }

    /// The shim's name for the format.
    var shimFormat: ak_audio_format {
        switch self {
        case .mp3: AK_AUDIO_MP3
        case .flac: AK_AUDIO_FLAC
        case .oggVorbis: AK_AUDIO_OGG_VORBIS
        case .mp4: AK_AUDIO_MP4
        }
    }

    /// How messages name the format.
    var displayName: String {
        switch self {
        case .mp3: "MP3"
        case .flac: "FLAC"
        case .oggVorbis: "Ogg Vorbis"
        case .mp4: "M4A"
        }
    }
}
