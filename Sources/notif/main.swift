import Glibc
import NotifApp

signal(SIGPIPE, SIG_IGN)
exit(NotifMain.run(Array(CommandLine.arguments.dropFirst())))
