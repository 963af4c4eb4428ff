// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "notif",
    products: [
        .executable(name: "notif", targets: ["notif"]),
    ],
    targets: [
        .target(name: "SharedLogic"),
        .target(name: "Storage", dependencies: ["SharedLogic"]),
        .target(name: "CLinuxEvents"),
        .target(name: "LinuxGateway", dependencies: ["SharedLogic", "Storage", "CLinuxEvents"]),
        .target(name: "AccountClient", dependencies: ["SharedLogic", "Storage", "LinuxGateway"]),
        .target(name: "SettingsUI", dependencies: ["SharedLogic"]),
        .target(name: "CommandLineInterface", dependencies: ["SharedLogic"]),
        .target(name: "CNcursesw", linkerSettings: [.linkedLibrary("ncursesw"), .linkedLibrary("tinfo")]),
        .target(name: "CursesTerminal", dependencies: ["CNcursesw", "SettingsUI"]),
        // The wiring: commands, page effects, presenter; `notif`'s main.swift only calls it.
        .target(name: "NotifApp", dependencies: ["SharedLogic", "Storage", "LinuxGateway", "AccountClient", "SettingsUI", "CursesTerminal", "CommandLineInterface"]),
        .executableTarget(name: "notif", dependencies: ["NotifApp"]),
        // Prints doc/notif.1 from the command-line declaration (`make man`).
        .executableTarget(name: "notif-manual", dependencies: ["CommandLineInterface"]),
        .target(name: "TestSupport", dependencies: ["SharedLogic"], path: "Tests/TestSupport"),
        .testTarget(name: "SharedLogicTests", dependencies: ["SharedLogic", "TestSupport"]),
        .testTarget(name: "StorageTests", dependencies: ["Storage", "SharedLogic"]),
        .testTarget(name: "LinuxGatewayTests", dependencies: ["LinuxGateway", "Storage", "SharedLogic", "TestSupport"]),
        .testTarget(name: "SettingsUITests", dependencies: ["SettingsUI", "SharedLogic", "TestSupport"], exclude: ["Snapshots"]),
        .testTarget(name: "AccountClientTests", dependencies: ["AccountClient", "LinuxGateway", "SharedLogic", "Storage"]),
        .testTarget(name: "CommandLineInterfaceTests", dependencies: ["CommandLineInterface", "SharedLogic", "LinuxGateway", "TestSupport"]),
        .testTarget(name: "CursesTerminalTests", dependencies: ["CursesTerminal", "CNcursesw", "SettingsUI"]),
        .testTarget(name: "NotifAppTests", dependencies: ["NotifApp", "TestSupport", "SharedLogic", "Storage", "LinuxGateway", "AccountClient", "SettingsUI", "CommandLineInterface", "CursesTerminal"]),
        .testTarget(name: "EndToEndTests", dependencies: ["notif", "LinuxGateway", "TestSupport"]),
    ]
)
