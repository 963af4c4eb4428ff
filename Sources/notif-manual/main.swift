import CommandLineInterface

// doc/notif.1, from the same declaration the command line is parsed with.
print(NotifCommandLine.declaration.manPage, terminator: "")
