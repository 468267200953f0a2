/// A whole number a service writes as a number or as text (`"score": 100` or `"100"`,
/// Discogs' `"qty": "2"`); anything else decodes as nil rather than failing the answer.
struct LenientInt: Decodable, Sendable, Hashable {
    let value: Int?

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int.self) {
            value = number
        } else if let text = try? container.decode(String.self) {
            value = Int(text)
        } else {
            value = nil
        }
    }
}

/// An identifier a service writes as a number or as text (the Cover Art Archive's image ids).
struct LenientText: Decodable, Sendable, Hashable {
    let value: String?

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            value = text
        } else if let number = try? container.decode(Int.self) {
            value = String(number)
        } else {
            value = nil
        }
    }
}
