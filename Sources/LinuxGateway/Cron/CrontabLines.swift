/// A crontab's lines as bytes, split on newlines and never decoded.
enum CrontabLines {
    /// Each line without its newline (a last line without one included).
    static func contents(of bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        var lines: [ArraySlice<UInt8>] = []
        var start = bytes.startIndex
        while start != bytes.endIndex {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
            lines.append(bytes[start..<end])
            start = end == bytes.endIndex ? end : end + 1
        }
        return lines
    }
}
