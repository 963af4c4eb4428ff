import Glibc
import SharedLogic
import Storage

/// What `notif reset --entries` did in one place notif writes entries to.
public struct EntryRemoval: Sendable {
    /// `cron`, `systemd`, `embedded`, `autostart` or `configuration list`.
    public var place: String
    /// What was removed there: reminders named by the settings they belong to (or, for
    /// autostart, the files).
    public var removed: [String]
    /// Why something there could not be removed or read (then the command fails: an entry may still fire).
    public var problems: [String]
    /// Worth saying, not a failure: the scheduler's program is gone, a file there is not notif's.
    public var notes: [String]
    /// Where it looked (directories; "your crontab").
    public var lookedIn: [String]
    /// For each place where something could not be removed: the `NAME=VALUE` settings that make
    /// a retry look there again (none when a plain retry does; some when only an entry removed
    /// now named that configuration).
    public var retryWith: [[String]] = []

    /// The place of the configuration list: its problems are the list's, not an entry's.
    public static let configurationList = "configuration list"

    public init(place: String, removed: [String] = [], problems: [String] = [], notes: [String] = [], lookedIn: [String] = []) {
        self.place = place
        self.removed = removed
        self.problems = problems
        self.notes = notes
        self.lookedIn = lookedIn
    }
}

extension ReminderService {
    /// Removes every entry notif wrote for this user, of every configuration (see
    /// `ResetPlaces`), on every scheduler: every notif block in the crontab, every notif systemd
    /// timer and service with their enable links and stamps, the built-in schedules and the
    /// autostart entries of `notif daemon`; then forgets which scheduler held them and drops
    /// the configuration list's records (a list that cannot be read is a problem of its own,
    /// the last removal's, and stops nothing else). The
    /// settings are kept: `notif apply` schedules again. Under the apply lock, so no apply of
    /// this configuration runs half way through it.
    public func removeAllEntries() throws(PreferencesError) -> [EntryRemoval] {
        try underApplyLock { _ in
            var places = ResetPlaces(current: context.paths, jobHome: context.accountHome() ?? context.paths.home, trust: context.trust)
            // Every configuration an apply wrote entries for, whatever variables this run has.
            var listed = EntryRemoval(place: EntryRemoval.configurationList, lookedIn: [configurationList.path])
            var records: [ConfigurationRecord] = []
            // Held to the end: an apply of another configuration writes no entry meanwhile, so
            // every record dropped below is of entries this run found. (Not held, when it cannot
            // be taken: the list is then unreadable too, and that is said below.)
            let held = try? configurationList.lock()
            defer { held?.release() }
            do {
                let list = try configurationList.read()
                records = list.records
                for problem in list.problems {
                    listed.problems.append("\(configurationList.path), \(problem): not a configuration of notif's, so entries of a configuration only that line named may still be there; "
                        + "check it, then delete the line (or run `env XDG_CONFIG_HOME=… XDG_STATE_HOME=… notif reset --entries` with that configuration's directories)")
                }
            } catch {
                listed.problems.append("\(error); until it can be read, entries of a configuration only it names may still be there (then run `notif reset --entries` again)")
            }
            for record in records { places.add(record) }
            // A running daemon shows its state directory's built-in schedule: look there too.
            for environment in RunningDaemons.environments() {
                let daemon = places.paths(assignments: environment)
                if FileLock.isHeld(daemon.stateFile(EmbeddedScheduler.daemonLockName)) { places.add(daemon) }
            }
            // The crontab first: reading and rewriting it is one locked edit, and its blocks name configurations.
            let cron = removeCronBlocks(&places)
            // Unit files and autostart entries name configurations too; look until no new one appears.
            var scannedHomes = Set<String>(), scannedConfigs = Set<String>()
            var bases: [String: Result<[String], GatewayError>] = [:]
            while true {
                let homes = places.homes.filter { !scannedHomes.contains($0) }
                let configs = places.configHomes.filter { !scannedConfigs.contains($0) }
                if homes.isEmpty && configs.isEmpty { break }
                for home in homes {
                    scannedHomes.insert(home)
                    let gateway = systemdGateway(home: home)
                    let found = Result { () throws(GatewayError) in try gateway.everyUnitBase() }
                    bases[home] = found
                    for base in (try? found.get()) ?? [] {
                        if let command = gateway.serviceCommand(base) { places.add(assignments: CommandWords.assignments(command)) }
                    }
                }
                for config in configs {
                    scannedConfigs.insert(config)
                    if let command = Autostart.command(configHome: config) { places.add(assignments: CommandWords.assignments(command)) }
                }
            }
            var removals = [cron, removeUnits(bases, places), removeBuiltIn(places), removeAutostarts(places), listed]
            removals[1].notes += places.skippedHomes
            removals[2].notes += places.skippedStateHomes
            removals[3].notes += places.skippedConfigHomes
            let daemons = places.stateHomes.map { Posix.join($0, "notif") }
                .filter { FileLock.isHeld(Posix.join($0, EmbeddedScheduler.daemonLockName)) }
            if !daemons.isEmpty {
                removals[2].notes.append("notif daemon still runs for \(daemons.joined(separator: ", ")), with nothing left to show; stop it, or log out")
            }
            // With every entry found gone, the list's records are done with (its unreadable lines stay).
            if removals.dropLast().allSatisfy(\.problems.isEmpty) {
                forgetPlacements(places)
                do {
                    try configurationList.remove(Set(records), holding: held)
                } catch {
                    removals[4].notes.append("\(error): it still names configurations whose entries are gone (a later reset finds nothing there)")
                }
            }
            return removals
        }
    }

    private func removeCronBlocks(_ places: inout ResetPlaces) -> EntryRemoval {
        var removal = EntryRemoval(place: SchedulerKind.cron.rawValue, lookedIn: ["your crontab"])
        // Without a crontab that can be run, the crontab cannot be read: that is never "nothing
        // there" while cron is or was installed (its daemon runs, or its spool exists), since a
        // block written before (another PATH, before cron.deny) may still fire.
        if let problem = context.probe().crontabProblem {
            if context.probe().cronDaemonRunning || access("/var/spool/cron", F_OK) == 0 {
                removal.problems.append("your crontab could not be read (\(problem)), so notif's block may still be in it: "
                    + "make `crontab` runnable for you (on PATH, allowed by /etc/cron.allow and /etc/cron.deny), "
                    + "or delete the lines from `# BEGIN notif managed block` to `# END notif managed block` with `crontab -e`")
                removal.retryWith.append([])
            } else {
                removal.notes.append("\(problem): nothing of notif's can be in your crontab")
            }
            return removal
        }
        guard let gateway = gateway(for: .cron) as? CronGateway else { return removal }
        let blocks: [CrontabBlock.Found]
        do {
            blocks = try gateway.removeEveryBlock()
        } catch {
            removal.problems.append(error.message)
            removal.retryWith.append([])
            return removal
        }
        for block in blocks {
            let assignments = block.commands.map(CommandWords.assignments).first { !$0.isEmpty } ?? [:]
            places.add(assignments: assignments)
            if let settings = block.settingsPath { places.add(settingsPath: settings, assignments: assignments) }
        }
        for block in blocks {
            removal.removed += (block.ids.isEmpty ? ["an empty block"] : block.ids).map { places.describe($0, tag: block.tag) }
        }
        return removal
    }

    private func systemdGateway(home: String) -> SystemdTimerGateway {
        let probe = context.probe
        let paths = NotifPaths(home: home, configHome: Posix.join(home, ".config"), stateHome: Posix.join(home, ".local/state"))
        return SystemdTimerGateway(runner: context.runner, paths: paths, owner: context.configuration,
                                   managerRunning: { probe().systemdUserManagerRunning })
    }

    private func removeUnits(_ bases: [String: Result<[String], GatewayError>], _ places: ResetPlaces) -> EntryRemoval {
        var removal = EntryRemoval(place: SchedulerKind.systemd.rawValue)
        for home in places.homes {
            let gateway = systemdGateway(home: home)
            removal.lookedIn.append(gateway.unitDirectory)
            let problemsBefore = removal.problems.count
            defer {
                if removal.problems.count > problemsBefore { removal.retryWith.append(places.retry { $0.home == home }) }
            }
            let found: [String]
            switch bases[home] ?? .success([]) {
            case .success(let names): found = names
            case .failure(let error):
                removal.problems.append(error.message)
                continue
            }
            for base in found {
                let described = SystemdUnits.parse(unitName: base + ".timer").map { places.describe($0.id, tag: $0.tag) } ?? base
                do {
                    if try gateway.removeUnits(named: base) { removal.removed.append(described) }
                } catch {
                    removal.problems.append("\(described): \(error.message)")
                }
            }
        }
        return removal
    }

    private func removeBuiltIn(_ places: ResetPlaces) -> EntryRemoval {
        var removal = EntryRemoval(place: SchedulerKind.embedded.rawValue)
        for stateHome in places.stateHomes {
            let scheduler = EmbeddedScheduler(paths: NotifPaths(home: places.jobHome, configHome: "/", stateHome: stateHome),
                                              owner: context.configuration)
            removal.lookedIn.append(scheduler.directory)
            let result = scheduler.removeEveryEntry()
            removal.removed += result.removed.map { name in
                let (id, tag) = EmbeddedEntry.parse(fileName: name)
                return places.describe(id, tag: tag)
            }
            removal.problems += result.problems
            if !result.problems.isEmpty { removal.retryWith.append(places.retry { $0.stateHome == stateHome }) }
        }
        return removal
    }

    private func removeAutostarts(_ places: ResetPlaces) -> EntryRemoval {
        var removal = EntryRemoval(place: "autostart")
        for configHome in places.configHomes {
            let paths = NotifPaths(home: places.jobHome, configHome: configHome, stateHome: "/")
            let path = Autostart.path(in: paths)
            removal.lookedIn.append(Posix.directory(of: path))
            do {
                switch try Autostart.removeIfNotifs(paths: paths) {
                case .removed: removal.removed.append(path)
                case .absent: break
                case .notNotifs: removal.notes.append("\(path) was not written by notif: left alone")
                }
            } catch {
                removal.problems.append(error.description)
                removal.retryWith.append(places.retry { $0.configHome == configHome })
            }
        }
        return removal
    }

    /// With every entry gone, nothing notif kept for them is needed any more: no state
    /// directory's record of where entries are (`scheduler`, `scheduler-TAG`) is true, the
    /// session recorded for delivery (`session.env`) has no entry to serve, and the directories
    /// that held entries go when they are empty (`embedded/`, the unit directory and its
    /// `timers.target.wants`, the stamp directory, `autostart/`). The settings and the delivery
    /// log stay: this is about entries.
    private func forgetPlacements(_ places: ResetPlaces) {
        for stateHome in places.stateHomes {
            let state = StateFiles(paths: NotifPaths(home: places.jobHome, configHome: "/", stateHome: stateHome))
            let names = (try? FileIO.names(in: state.paths.stateDirectory)) ?? []
            for name in names where name == StateFiles.schedulerFile || name == StateFiles.sessionFile
                || (name.hasPrefix(StateFiles.schedulerFile + "-") && ShortHash.isHash(name.dropFirst(StateFiles.schedulerFile.count + 1))) {
                // Only the user's own regular files (what notif writes), never a link or another's file.
                let status = (try? FileStatus.of(state.paths.stateFile(name), followLinks: false)) ?? nil
                if status?.kind == .file && status?.owner == geteuid() { _ = try? state.remove(name) }
            }
            removeIfEmpty(Posix.join(state.paths.stateDirectory, "embedded"))
        }
        for home in places.homes {
            let gateway = systemdGateway(home: home)
            removeIfEmpty(Posix.join(gateway.unitDirectory, "timers.target.wants"))
            removeIfEmpty(Posix.join(gateway.unitDirectory, "default.target.wants"))
            removeIfEmpty(gateway.unitDirectory)
            removeIfEmpty(Posix.directory(of: gateway.unitDirectory))
            removeIfEmpty(gateway.stampDirectory)
        }
        for configHome in places.configHomes {
            removeIfEmpty(Posix.join(configHome, "autostart"))
        }
    }

    /// rmdir: only an empty directory goes (anything in it, or a failure, leaves it as it is).
    private func removeIfEmpty(_ directory: String) {
        _ = rmdir(directory)
    }
}
