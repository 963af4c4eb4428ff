import Glibc
import Testing
@testable import LinuxGateway

/// A recorded display is used only when this user (or root) serves it; never one over the network.
@Suite struct DisplayPeerTests {
    @Test(arguments: [(":0", 0), (":577", 577), (":1.2", 1), ("unix:3", 3), ("localhost:10.0", nil), ("host.example:0", nil),
                      ("/tmp/launch-x/org.x:0", nil), (":", nil), (":-1", nil), ("", nil)] as [(String, Int?)])
    func onlyADisplayOfThisMachineHasANumber(display: String, number: Int?) {
        #expect(DisplayPeer.localDisplayNumber(display) == number)
    }

    @Test func everySocketThatServesItMustBeTheUsersOrRoots() {
        let uid: uid_t = 1000
        func problem(_ name: String, _ value: String, _ listeners: [String: uid_t]) -> String? {
            DisplayPeer.problem(name, value, runtimeDirectory: "/run/user/1000", uid: uid) { path, abstract in listeners[(abstract ? "@" : "") + path] }
        }
        #expect(problem("DISPLAY", ":5", [:]) == "nothing serves it now")
        #expect(problem("DISPLAY", ":5", ["@/tmp/.X11-unix/X5": 1000, "/tmp/.X11-unix/X5": 1000]) == nil)
        #expect(problem("DISPLAY", ":5", ["/tmp/.X11-unix/X5": 0]) == nil, "root's X server")
        #expect(problem("DISPLAY", ":5", ["@/tmp/.X11-unix/X5": 1001, "/tmp/.X11-unix/X5": 1000]) == "it is served by another user (uid 1001)",
                "an X client tries the abstract name first")
        #expect(problem("DISPLAY", "localhost:5", ["/tmp/.X11-unix/X5": 1000])?.contains("notif never uses one over the network") == true)
        #expect(problem("WAYLAND_DISPLAY", "wayland-0", ["/run/user/1000/wayland-0": 1000]) == nil)
        #expect(problem("WAYLAND_DISPLAY", "/tmp/w", ["/tmp/w": 1002]) == "it is served by another user (uid 1002)")
    }
}
