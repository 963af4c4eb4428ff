import Foundation
import Glibc
import Testing
import SharedLogic
import Storage
import TestSupport
@testable import LinuxGateway

/// The daemon's real sleeper against the kernel: an absolute timer on the real-time clock, file
/// change notices filtered by name, and a clock set ending the nap at once. One at a time: a
/// clock set cancels every such timer in the process.
@Suite(.serialized) struct EventSleeperTests {
    func now() -> Instant { SystemClock().now() }

    /// Runs `change` on another thread after `delay` seconds while this one naps.
    func nap(_ sleeper: EventSleeper, until wake: Instant?, changing delay: Double = 0.2, _ change: @escaping @Sendable () -> Void) -> (end: NapEnd, seconds: Double) {
        DispatchQueue.global().asyncAfter(deadline: .now() + delay, execute: change)
        let start = Date()
        let end = sleeper.nap(until: wake)
        return (end, Date().timeIntervalSince(start))
    }

    @Test(.timeLimit(.minutes(5)))
    func theTimerEndsTheNapAtItsTimeAndNotBefore() throws {
        let scratch = Scratch()
        let sleeper = try #require(EventSleeper(places: { [WatchedPlace(directory: scratch.path, names: .visible)] }))
        // The next whole second after the next one: between 1 and 2 s from now.
        let wake = now().adding(seconds: 2)
        let start = Date()
        #expect(sleeper.nap(until: wake) == .elapsed)
        let elapsed = Date().timeIntervalSince(start)
        #expect(now() >= wake && elapsed > 0.9, "woke \(elapsed) s after the start, before \(wake.seconds)")
        // A wake time already past ends the nap at once.
        #expect(sleeper.nap(until: now().adding(seconds: -30)) == .elapsed)
    }

    @Test(.timeLimit(.minutes(5)))
    func aWatchedNameEndsTheNapAndOtherNamesDoNot() throws {
        let scratch = Scratch()
        let paths = scratch.paths
        try FileIO.makeDirectory(paths.configDirectory)
        let sleeper = try #require(EventSleeper(places: { DaemonWatches.places(paths: paths, tz: "UTC") }))
        // Noise in the same directory (a lock file, a temporary file) sleeps on until the timer.
        let noise = nap(sleeper, until: now().adding(seconds: 2)) {
            _ = FileManager.default.createFile(atPath: paths.settingsLock, contents: Data("x".utf8))
            _ = FileManager.default.createFile(atPath: paths.configDirectory + "/.settings.json.tmp", contents: Data())
        }
        #expect(noise.end == .elapsed, "\(noise)")
        // settings.json renamed into place, as notif and editors write it: at once.
        let edit = nap(sleeper, until: now().adding(seconds: 30)) {
            let temp = paths.configDirectory + "/.edit"
            _ = FileManager.default.createFile(atPath: temp, contents: Data("{}".utf8))
            _ = rename(temp, paths.settingsFile)
        }
        #expect(edit.end == .changed && edit.seconds < 5, "\(edit)")
    }

    /// A waiter's end (its wait lock closed, as at its exit or death) wakes the daemon; the lock
    /// probes of `status` and of the daemon itself do not, or it would wake itself forever.
    @Test(.timeLimit(.minutes(5)))
    func aWaitersEndEndsTheNapAndALockProbeDoesNot() throws {
        let scratch = Scratch()
        let paths = scratch.paths
        try FileIO.makeDirectory(paths.stateDirectory)
        let lockPath = paths.stateFile(StateFiles.waitLock("tips-and-updates"))
        (try FileLock.tryAcquire(lockPath))?.release()   // there already, as after the first day
        nonisolated(unsafe) let held = try #require(try FileLock.tryAcquire(lockPath, announcingRelease: true))
        let sleeper = try #require(EventSleeper(places: { DaemonWatches.places(paths: paths, tz: "UTC") }))
        let probe = nap(sleeper, until: now().adding(seconds: 2)) {
            _ = FileLock.isHeld(lockPath)
            _ = try? FileLock.tryAcquire(lockPath)
        }
        #expect(probe.end == .elapsed, "\(probe)")
        let end = nap(sleeper, until: now().adding(seconds: 30)) { held.release() }
        #expect(end.end == .changed && end.seconds < 5, "\(end)")
    }

    @Test(.timeLimit(.minutes(5)))
    func theScheduleDirectoryIsWatchedBeforeAndAfterItExists() throws {
        let scratch = Scratch()
        let paths = scratch.paths
        try FileIO.makeDirectory(paths.stateDirectory)
        let sleeper = try #require(EventSleeper(places: { DaemonWatches.places(paths: paths, tz: "UTC") }))
        let entries = EmbeddedScheduler(paths: paths, owner: testOwner).directory
        #expect(sleeper.watched.contains(WatchedPlace(directory: paths.stateDirectory, names: .only(["embedded"]))))
        let made = nap(sleeper, until: now().adding(seconds: 30)) { mkdir(entries, 0o700) }
        #expect(made.end == .changed && made.seconds < 5, "\(made)")
        let written = nap(sleeper, until: now().adding(seconds: 30)) {
            _ = FileManager.default.createFile(atPath: entries + "/tips-and-updates", contents: Data("reminder=tips-and-updates\n".utf8))
        }
        #expect(written.end == .changed && written.seconds < 5, "\(written)")
        #expect(sleeper.watched.contains(WatchedPlace(directory: entries, names: .visible)))
    }

    @Test(.timeLimit(.minutes(5)))
    func aZoneFileOrLinkReplacedEndsTheNap() throws {
        let scratch = Scratch()
        let zoneFile = scratch.path + "/zone"
        _ = FileManager.default.createFile(atPath: zoneFile, contents: FileManager.default.contents(atPath: "/usr/share/zoneinfo/UTC"))
        // TZ naming a file: its directory, for its name.
        let named = try #require(EventSleeper(places: { DaemonWatches.places(paths: scratch.paths, tz: zoneFile) }))
        let replaced = nap(named, until: now().adding(seconds: 30)) {
            _ = FileManager.default.createFile(atPath: zoneFile + ".new", contents: FileManager.default.contents(atPath: "/usr/share/zoneinfo/Asia/Tokyo"))
            _ = rename(zoneFile + ".new", zoneFile)
        }
        #expect(replaced.end == .changed && replaced.seconds < 5, "\(replaced)")
        // A link like /etc/localtime, watched itself: pointed elsewhere (a new link renamed over it).
        let link = scratch.path + "/localtime"
        _ = symlink("/usr/share/zoneinfo/UTC", link)
        let linked = try #require(EventSleeper(places: { [WatchedPlace(file: link)] }))
        let relinked = nap(linked, until: now().adding(seconds: 30)) {
            _ = symlink("/usr/share/zoneinfo/Asia/Tokyo", link + ".new")
            _ = rename(link + ".new", link)
        }
        #expect(relinked.end == .changed && relinked.seconds < 5, "\(relinked)")
    }

    /// A change made while the caller looks (before the first nap, or between two) ends the next
    /// nap at once: the places are watched from the start and again as each nap ends, a file
    /// replaced meanwhile included.
    @Test(.timeLimit(.minutes(5)))
    func aChangeMadeBetweenNapsEndsTheNextOne() throws {
        let scratch = Scratch()
        let paths = scratch.paths
        try FileIO.makeDirectory(paths.configDirectory)
        let link = scratch.path + "/localtime"
        _ = symlink("/usr/share/zoneinfo/UTC", link)
        let sleeper = try #require(EventSleeper(places: { DaemonWatches.places(paths: paths, tz: "UTC") + [WatchedPlace(file: link)] }))
        func napped() -> (end: NapEnd, seconds: Double) {
            let start = Date()
            return (sleeper.nap(until: now().adding(seconds: 30)), Date().timeIntervalSince(start))
        }
        @Sendable func relink(to zone: String) {
            _ = symlink("/usr/share/zoneinfo/" + zone, link + ".new")
            _ = rename(link + ".new", link)
        }
        // Made and looked at; settings.json renamed into place before the first nap.
        _ = FileManager.default.createFile(atPath: paths.configDirectory + "/.edit", contents: Data("{}".utf8))
        _ = rename(paths.configDirectory + "/.edit", paths.settingsFile)
        let first = napped()
        #expect(first.end == .changed && first.seconds < 5, "a write before the first nap was lost: \(first)")
        // The link replaced, which ends a nap; replaced again while the caller looks.
        let replaced = nap(sleeper, until: now().adding(seconds: 30)) { relink(to: "Asia/Tokyo") }
        #expect(replaced.end == .changed && replaced.seconds < 5, "\(replaced)")
        relink(to: "Europe/Paris")
        let again = napped()
        #expect(again.end == .changed && again.seconds < 5, "the replaced link was not watched again before the next look: \(again)")
    }

    /// Setting the clock (to the time it already says: the machine's time does not move) cancels
    /// the absolute timer, so a jump or a resume from suspend is noticed at once.
    @Test(.enabled(if: getuid() == 0, "setting the clock needs root"), .timeLimit(.minutes(5)))
    func settingTheClockEndsTheNapAtOnce() throws {
        let scratch = Scratch()
        let sleeper = try #require(EventSleeper(places: { [WatchedPlace(directory: scratch.path, names: .visible)] }))
        let result = withClockLock {
            nap(sleeper, until: now().adding(seconds: 30)) {
                var time = timespec()
                clock_gettime(CLOCK_REALTIME, &time)
                clock_settime(CLOCK_REALTIME, &time)
            }
        }
        #expect(result.end == .clockChanged && result.seconds < 5, "\(result)")
    }
}

/// In the suite, which runs one at a time: its clock set would cancel this timer too.
extension EventSleeperTests {
    /// Without inotify (its instances used up) the sleeper still runs: a nap ends by `blindNap`
    /// at the latest, however far the wake, so the daemon sees changes by looking; signals count.
    @Test(.timeLimit(.minutes(5)))
    func withNoNoticesANapEndsByItsLongestAndSignalsStillCount() throws {
        let sleeper = try #require(EventSleeper(places: { [] }, notices: nil))
        #expect(sleeper.blind)
        sleeper.blindNap = 2
        // A wake 40 s away, and none at all: each nap ends by 2 s (the first, well before 40 s).
        let start = Date()
        #expect(sleeper.nap(until: SystemClock().now().adding(seconds: 40)) == .elapsed)
        let first = Date().timeIntervalSince(start)
        #expect(first > 0.5 && first < 30, "a nap of at most 2 s took \(first) s")
        #expect(sleeper.nap(until: nil) == .elapsed)
        sleeper.blindNap = 3600
        raise(SIGHUP)   // to this thread, which blocks it since the sleeper was made
        #expect(sleeper.nap(until: nil) == .changed)
    }
}
