import Foundation
import FoundationXML
import Testing

/// Where the package's own files are (Makefile, data/, scripts/).
let packageRoot: String = {
    let filePath: String = #filePath
    return URL(fileURLWithPath: filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
}()

/// `make install` puts the desktop entry, icon and shell completions next to the program and
/// `make uninstall` takes them away; the entry passes desktop-file-validate and the icon is an
/// SVG document.
@Suite struct InstallFilesTests {
    @Test func installPutsTheEntryAndIconUnderThePrefixAndUninstallRemovesThem() throws {
        let sandbox = Sandbox()
        let prefix = sandbox.path + "/prefix"
        let make = ["make", "-s", "-C", packageRoot]
        let env = ["PATH": "/usr/bin:/bin", "HOME": sandbox.path]
        let install = try run(make + ["install-files", "PREFIX=\(prefix)", "RELEASE_BIN=\(NotifBinary.path)"], environment: env)
        #expect(install.status == 0, "\(install)")
        let files = ["bin/notif": 0o755, "share/man/man1/notif.1": 0o644, "share/applications/notif.desktop": 0o644,
                     "share/icons/hicolor/scalable/apps/notif.svg": 0o644, "share/bash-completion/completions/notif": 0o644,
                     "share/zsh/vendor-completions/_notif": 0o644, "share/fish/vendor_completions.d/notif.fish": 0o644]
        for (file, mode) in files {
            #expect(permissions(prefix + "/" + file) == mode, "\(file): \(String(describing: permissions(prefix + "/" + file)))")
        }
        let entry = prefix + "/share/applications/notif.desktop"
        let validate = try run(["desktop-file-validate", entry], environment: env)
        #expect(validate.status == 0 && validate.stdout.isEmpty && validate.stderr.isEmpty, "\(validate)")
        let text = sandbox.read(entry) ?? ""
        for line in ["Exec=\(prefix)/bin/notif", "TryExec=\(prefix)/bin/notif", "Icon=notif", "Terminal=true", "Categories=Settings;", "Name=notif"] {
            #expect(text.contains("\n" + line + "\n"), "\(line) missing: \(text)")
        }
        let svg = try XMLDocument(contentsOf: URL(fileURLWithPath: prefix + "/share/icons/hicolor/scalable/apps/notif.svg"))
        let viewBox = svg.rootElement()?.attributes?.first { $0.name == "viewBox" }?.stringValue
        #expect(svg.rootElement()?.name == "svg" && viewBox == "0 0 128 128", "\(String(describing: viewBox))")

        let uninstall = try run(make + ["uninstall", "PREFIX=\(prefix)"], environment: env)
        #expect(uninstall.status == 0, "\(uninstall)")
        for file in files.keys { #expect(!FileManager.default.fileExists(atPath: prefix + "/" + file), "\(file) stayed") }
    }
}
