import CommandLineInterface
import Foundation
import Testing

/// doc/ARCHITECTURE.md names only what exists: every type, member, file, make target and notif
/// command it writes in backticks or in its diagrams is found in the package.
@Suite struct ArchitectureDocTests {
    /// Every name in the page, checked against the package's files.
    @Test func everyNameInTheArchitecturePageExists() throws {
        let page = try String(contentsOfFile: packageRoot + "/doc/ARCHITECTURE.md", encoding: .utf8)
        let package = try PackageText.load()
        let names = ArchitectureNames.of(page)
        #expect(names.count > 100, "too few names found: the page or the parser changed")
        let missing = names.filter { !package.has($0) }
        #expect(missing.isEmpty, "doc/ARCHITECTURE.md names what does not exist: \(missing.map(\.description).joined(separator: ", "))")
    }

    /// The checker itself: a made-up type, member, file, target and command are each caught.
    @Test func madeUpNamesAreCaught() throws {
        let package = try PackageText.load()
        let page = """
            `ReminderServiceX` and `SettingsApp.updateX`, `Sources/NotifApp/Nowhere.swift`, `make nowhere`, `notif nowhere`.
            ```
            PageSessionX.dispatch     pure
            ```
            """
        let missing = ArchitectureNames.of(page).filter { !package.has($0) }.map(\.description)
        #expect(missing == ["ReminderServiceX", "updateX", "Sources/NotifApp/Nowhere.swift", "make nowhere", "notif nowhere", "PageSessionX"])
        let real = ArchitectureNames.of("`ReminderService` `SettingsApp.update` `Page/PageEffects` `make man` `notif __reminder-actions` `+Delivery`")
        #expect(real.filter { !package.has($0) }.isEmpty)
    }
}

/// One name the page uses, and what kind of thing it must be.
enum ArchitectureName: Hashable, CustomStringConvertible {
    /// A capitalised Swift name (`ReminderService`): declared as a type, a case, a target, or a file's name.
    case type(String)
    /// Any other word (`deliver`, `IN_CLOSE_WRITE`): a whole word somewhere in the package.
    case word(String)
    /// A path (`Sources/Storage`, `Page/PageShell`, `+Delivery`): a file or folder.
    case path(String)
    /// `make TARGET`: a rule of the Makefile.
    case makeTarget(String)
    /// `notif COMMAND`: a command of the declaration, hidden ones included.
    case command(String)

    var description: String {
        switch self {
        case .type(let name), .word(let name), .path(let name): return name
        case .makeTarget(let target): return "make " + target
        case .command(let command): return "notif " + command
        }
    }
}

/// The names in a page: backticked spans, and the names in fenced diagrams.
enum ArchitectureNames {
    static func of(_ page: String) -> [ArchitectureName] {
        var names: [ArchitectureName] = []
        var fenced = false
        for line in page.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { fenced.toggle(); continue }
            if fenced { names += diagram(String(line)) } else { names += spans(in: String(line)).flatMap(span) }
        }
        var seen = Set<ArchitectureName>()
        return names.filter { seen.insert($0).inserted }
    }

    static func spans(in line: String) -> [String] {
        let parts = line.split(separator: "`", omittingEmptySubsequences: false)
        return stride(from: 1, to: parts.count, by: 2).map { String(parts[$0]) }
    }

    /// What one backticked span names.
    static func span(_ text: String) -> [ArchitectureName] {
        let words = text.split(separator: " ").map(String.init)
        if words.first == "make", words.count >= 2 { return words.dropFirst().map { .makeTarget($0) } }
        if words.first == "notif", words.count >= 2, !words[1].hasPrefix("-") { return [.command(words[1])] }
        let isPath = !text.contains(" ") && (text.contains("/") || text.hasPrefix("+") || text.hasSuffix(".swift"))
        // A placeholder (`Tests/<Module>Tests`, `settings.json.before-reset-<UTC>`) names no one thing.
        if text.contains("<") || text.contains("…") || text.contains("*") {
            return isPath ? [] : identifiers(withoutPlaceholders(text), prose: true)
        }
        if isPath { return [.path(text)] }
        return identifiers(text, prose: true)
    }

    static func withoutPlaceholders(_ text: String) -> String {
        var kept = "", depth = 0
        for character in text {
            if character == "<" { depth += 1 } else if character == ">", depth > 0 { depth -= 1 } else if depth == 0 { kept.append(character) }
        }
        return kept
    }

    /// A diagram line: capitalised names and `.member`s, not the prose around them or quoted words.
    static func diagram(_ line: String) -> [ArchitectureName] {
        let unquoted = line.split(separator: "\"", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 0 }.map(\.element).joined(separator: " ")
        return identifiers(unquoted, prose: false)
    }

    /// Identifiers in `text`. With `prose` every word counts; without, only capitalised names
    /// and members after a dot.
    static func identifiers(_ text: String, prose: Bool) -> [ArchitectureName] {
        var names: [ArchitectureName] = []
        let characters = Array(text)
        var index = 0
        while index < characters.count {
            guard characters[index].isLetter || characters[index] == "_" else { index += 1; continue }
            let start = index
            while index < characters.count, characters[index].isLetter || characters[index].isNumber || characters[index] == "_" {
                index += 1
            }
            let word = String(characters[start..<index])
            let afterDot = start > 0 && characters[start - 1] == "."
            let afterPlus = start > 0 && characters[start - 1] == "+"
            let capitalised = word.first!.isUppercase && word.contains { $0.isLowercase }
            if afterPlus && capitalised {
                names.append(.path("+" + word))
            } else if capitalised {
                names.append(.type(word))
            } else if prose || afterDot {
                names.append(.word(word))
            }
        }
        return names
    }
}

/// The package's text: Sources, Tests, Package.swift, the Makefile, debian/ and scripts/.
struct PackageText {
    let files: [String]
    /// Short strings in quotes: D-Bus members and interfaces.
    let quoted: Set<String>
    let declaredTypes: Set<String>
    let makeTargets: Set<String>
    let words: Set<String>

    static func load() throws -> PackageText {
        let root = packageRoot
        var files: [String] = []
        var text = ""
        for folder in ["Sources", "Tests", "debian", "scripts"] {
            let base = root + "/" + folder
            guard let walk = FileManager.default.enumerator(atPath: base) else { continue }
            for case let relative as String in walk {
                files.append(folder + "/" + relative)
                // Not this file, whose made-up names must stay unknown.
                guard !relative.contains("Snapshots/"), !relative.hasPrefix("Fixtures/"),
                      !relative.hasSuffix("ArchitectureDocTests.swift") else { continue }
                let full = base + "/" + relative
                var isFolder: ObjCBool = false
                guard FileManager.default.fileExists(atPath: full, isDirectory: &isFolder), !isFolder.boolValue,
                      let contents = try? String(contentsOfFile: full, encoding: .utf8) else { continue }
                text += contents + "\n"
            }
        }
        let makefile = try String(contentsOfFile: root + "/Makefile", encoding: .utf8)
        text += try String(contentsOfFile: root + "/Package.swift", encoding: .utf8) + makefile
        // Byte-wise: the text is a few megabytes, and Character-wise scanning takes seconds.
        let bytes = Array(text.utf8)
        func isWordByte(_ byte: UInt8) -> Bool {
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F || byte >= 0x80
        }
        var words = Set<String>(), quoted = Set<String>(), declared = Set<String>()
        let keywords: Set<String> = ["struct", "enum", "class", "protocol", "actor", "typealias", "extension", "case"]
        var previousWord = ""
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x22 || byte == 0x27 {   // a short quoted string on one line: `"Notify"`, `'NameOwnerChanged'`
                var end = index + 1
                while end < bytes.count, end - index < 80, bytes[end] != byte, bytes[end] != 0x0A { end += 1 }
                if end < bytes.count, bytes[end] == byte { quoted.insert(String(decoding: bytes[(index + 1)..<end], as: UTF8.self)) }
                index += 1
                continue
            }
            guard isWordByte(byte) else {
                if byte != 0x20 && byte != 0x09 { previousWord = byte == 0x3A && previousWord == "name" ? "name:" : "" }
                index += 1
                continue
            }
            var end = index
            while end < bytes.count, isWordByte(bytes[end]) { end += 1 }
            let word = String(decoding: bytes[index..<end], as: UTF8.self)
            words.insert(word)
            if keywords.contains(previousWord) || previousWord == "name:" { declared.insert(word) }
            previousWord = word
            index = end
        }
        for file in files where file.hasSuffix(".swift") {
            let name = file.split(separator: "/").last!.dropLast(".swift".count)
            declared.insert(String(name.split(separator: "+").first ?? name))
        }
        let targets = Set(makefile.split(separator: "\n").compactMap { line -> String? in
            guard let colon = line.firstIndex(of: ":"), !line.hasPrefix("\t"), !line.contains("=") else { return nil }
            return String(line[..<colon])
        }.flatMap { $0.split(separator: " ").map(String.init) })
        return PackageText(files: files, quoted: quoted, declaredTypes: declared, makeTargets: targets, words: words)
    }

    func has(_ name: ArchitectureName) -> Bool {
        switch name {
        // A D-Bus member or interface name (`Notify`) is a string the code sends or matches.
        case .type(let type): return declaredTypes.contains(type) || quoted.contains(type)
        case .word(let word): return words.contains(word)
        case .makeTarget(let target): return makeTargets.contains(target)
        case .command(let command): return NotifCommandLine.declaration.commands.contains { $0.name == command }
        case .path(let path):
            let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
            if trimmed.hasPrefix("/") { return FileManager.default.fileExists(atPath: trimmed) }
            if trimmed.hasPrefix("+") { return files.contains { $0.hasSuffix(trimmed + ".swift") } }
            let candidates = [trimmed, trimmed + ".swift"]
            return files.contains { file in candidates.contains { file == $0 || file.hasSuffix("/" + $0) } }
                || FileManager.default.fileExists(atPath: packageRoot + "/" + trimmed)
        }
    }
}
