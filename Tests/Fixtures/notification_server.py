#!/usr/bin/python3
"""A freedesktop notification service for tests, on the session bus it is started in.

    notification_server.py DIR

It writes its pid to DIR/pid and the bus address to DIR/bus once it owns org.freedesktop.Notifications, records every
Notify call as one JSON line in DIR/notify.jsonl (app name, icon, summary, body, actions, string
hints, its id, the sender) and behaves as DIR/config.json says, read on every call:

    {"capabilities": ["actions", "body"],   what GetCapabilities answers
     "invoke": "turn-off",                  press this button, if the notification has it,
     "invoke_after": 0.5,                   this many seconds after Notify
     "keep_after_invoke": true,             and keep it shown (no NotificationClosed), as dunst, mako and lxqt do
     "close_after": 2,                      else close it (expired) after this many seconds
     "leave_after_notify": true,            exit right after answering a Notify
     "fail_notify": true,                   answer every Notify with an error (it is still recorded)
     "notify_delay": 7,                     answer Notify only this many seconds later (busy all that time)
     "allow_replacement": true,             let another service take the name over (read at start)
     "replace": true}                       take the name over from one that allows it (read at start)

Signals go to the sender only (as dunst sends them): only the process that sent the
notification can see a button pressed.
"""
import json
import os
import sys
import time

import dbus
import dbus.lowlevel
import dbus.mainloop.glib
import dbus.service
from gi.repository import GLib

NAME = "org.freedesktop.Notifications"
PATH = "/org/freedesktop/Notifications"
DIR = sys.argv[1]


def config():
    try:
        with open(os.path.join(DIR, "config.json")) as f:
            return json.load(f)
    except (OSError, ValueError):
        return {}


class Server(dbus.service.Object):
    def __init__(self, bus):
        super().__init__(bus, PATH)
        self.bus = bus
        self.last_id = 0

    def signal(self, destination, member, signature, *args):
        message = dbus.lowlevel.SignalMessage(PATH, NAME, member)
        message.set_destination(destination)
        message.append(*args, signature=signature)
        self.bus.send_message(message)
        return False

    @dbus.service.method(NAME, in_signature="", out_signature="as")
    def GetCapabilities(self):
        return config().get("capabilities", ["actions", "body"])

    @dbus.service.method(NAME, in_signature="", out_signature="ssss")
    def GetServerInformation(self):
        return ("notif-test-server", "notif", "1", "1.2")

    @dbus.service.method(NAME, in_signature="susssasa{sv}i", out_signature="u", sender_keyword="sender")
    def Notify(self, app, replaces, icon, summary, body, actions, hints, timeout, sender=None):
        self.last_id += 1
        nid = self.last_id
        record = {"id": nid, "time": time.time(), "app": str(app), "icon": str(icon), "summary": str(summary), "body": str(body),
                  "actions": [str(a) for a in actions], "sender": str(sender),
                  "hints": {str(k): str(v) for k, v in hints.items() if isinstance(v, dbus.String)}}
        with open(os.path.join(DIR, "notify.jsonl"), "a") as f:
            f.write(json.dumps(record) + "\n")
        c = config()
        if c.get("notify_delay"):
            time.sleep(c["notify_delay"])
        if c.get("fail_notify"):
            raise dbus.exceptions.DBusException("no, not now", name="org.freedesktop.DBus.Error.Failed")
        names = [str(a) for a in actions][0::2]
        if c.get("invoke") in names:
            def press():
                self.signal(sender, "ActionInvoked", "us", dbus.UInt32(nid), c["invoke"])
                if not c.get("keep_after_invoke"):
                    self.signal(sender, "NotificationClosed", "uu", dbus.UInt32(nid), dbus.UInt32(2))
                return False
            GLib.timeout_add(int(c.get("invoke_after", 0.3) * 1000), press)
        elif c.get("close_after") is not None:
            GLib.timeout_add(int(c["close_after"] * 1000), self.signal, sender, "NotificationClosed", "uu",
                             dbus.UInt32(nid), dbus.UInt32(1))
        if c.get("leave_after_notify"):
            def leave():
                self.bus.flush()
                os._exit(0)
            GLib.idle_add(leave)
        return dbus.UInt32(nid)

    @dbus.service.method(NAME, in_signature="u", out_signature="", sender_keyword="sender")
    def CloseNotification(self, nid, sender=None):
        with open(os.path.join(DIR, "closed.jsonl"), "a") as f:
            f.write(json.dumps({"id": int(nid), "sender": str(sender)}) + "\n")
        self.signal(sender, "NotificationClosed", "uu", dbus.UInt32(nid), dbus.UInt32(3))


def main():
    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    bus = dbus.SessionBus()
    server = Server(bus)
    c = config()
    name = dbus.service.BusName(NAME, bus, allow_replacement=bool(c.get("allow_replacement")),
                                replace_existing=bool(c.get("replace")), do_not_queue=True)
    with open(os.path.join(DIR, "pid"), "w") as f:
        f.write(str(os.getpid()))
    with open(os.path.join(DIR, "bus.tmp"), "w") as f:
        f.write(os.environ["DBUS_SESSION_BUS_ADDRESS"])
    os.rename(os.path.join(DIR, "bus.tmp"), os.path.join(DIR, "bus"))
    GLib.MainLoop().run()
    del server, name


main()
