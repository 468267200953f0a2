import AlbumKitTesting
import Foundation

/// RAR archives with the "store" method, v4 or v5, written by a small Python writer of our
/// own: no rar tool is installable here, and CI needs RAR input too. The archives it writes
/// are checked by `7z t` (an independent reader) in ``ArchiveFormatTests``.
enum RarWriter {
    /// Writes `files` (path and bytes; nil bytes for a folder) in that order.
    static func write(_ files: [(String, Data?)], version: Int, to output: URL) throws {
        let entries: [[String: Any]] = files.map { name, data in
            var entry: [String: Any] = ["name": name]
            if let data { entry["data"] = data.base64EncodedString() }
            return entry
        }
        let spec = output.deletingLastPathComponent().appendingPathComponent(".rar-\(UUID().uuidString).json")
        try JSONSerialization.data(withJSONObject: ["output": output.path, "version": version, "entries": entries]).write(to: spec)
        defer { try? FileManager.default.removeItem(at: spec) }
        try tool("/usr/bin/env", ["python3", "-c", script, spec.path], in: output.deletingLastPathComponent())
    }

    /// Layouts from RARLAB's technote (v4: 7-byte block heads with a CRC16 = low half of
    /// CRC32; v5: CRC32, then variable-length integers), Unix host, stored files.
    private static let script = #"""
import base64, json, struct, sys, zlib
spec = json.load(open(sys.argv[1]))
entries = [(e["name"], base64.b64decode(e["data"]) if "data" in e else None) for e in spec["entries"]]
def vint(n):
    out = bytearray()
    while True:
        b = n & 0x7F; n >>= 7
        out.append(b | (0x80 if n else 0))
        if not n: return bytes(out)
def rar4():
    def block(kind, flags, body):
        head = struct.pack('<BHH', kind, flags, 7 + len(body)) + body
        return struct.pack('<H', zlib.crc32(head) & 0xFFFF) + head
    out = b'Rar!\x1a\x07\x00' + block(0x73, 0, bytes(6))
    for name, data in entries:
        folder = data is None; data = data or b''; raw = name.encode()
        body = struct.pack('<IIBIIBBHI', len(data), len(data), 3, zlib.crc32(data), 0x50210000, 20, 0x30, len(raw),
                           0o40755 if folder else 0o100644) + raw
        # 0x8000: data follows; 0x0200: the name is UTF-8; 0x00E0: a folder.
        out += block(0x74, 0x8000 | 0x0200 | (0xE0 if folder else 0), body) + data
    return out + block(0x7B, 0x4000, b'')
def rar5():
    def block(kind, flags, fields, data_size):
        head = vint(kind) + vint(flags) + vint(data_size) + fields if flags & 0x02 else vint(kind) + vint(flags) + fields
        head = vint(len(head)) + head
        return struct.pack('<I', zlib.crc32(head)) + head
    out = b'Rar!\x1a\x07\x01\x00' + block(1, 0, vint(0), 0)
    for name, data in entries:
        raw = name.encode()
        if data is None:
            fields = vint(0x01) + vint(0) + vint(0o40755) + vint(0) + vint(1) + vint(len(raw)) + raw
            out += block(2, 0x02, fields, 0)
        else:
            # File flags 0x04: a CRC32 follows; compression info 0: version 0, store, 128 KB window; host 1: Unix.
            fields = vint(0x04) + vint(len(data)) + vint(0o100644) + struct.pack('<I', zlib.crc32(data)) + vint(0) + vint(1) + vint(len(raw)) + raw
            out += block(2, 0x02, fields, len(data)) + data
    return out + block(5, 0, vint(0), 0)
open(spec["output"], "wb").write(rar4() if spec["version"] == 4 else rar5())
"""#
}
