#!/usr/bin/python3
"""Drives a headless GNOME Shell over its session bus: `shot FILE` takes a screenshot,
`move X Y...` puts the pointer at each point in turn and `click X Y...` also presses the left
button at the last one. The virtual monitor is 1280x800."""
import sys
import time
from gi.repository import Gio, GLib

bus = Gio.bus_get_sync(Gio.BusType.SESSION)
HEIGHT = 800


def call(name, path, interface, method, signature=None, values=None):
    parameters = GLib.Variant(signature, values) if signature else None
    return bus.call_sync(name, path, interface, method, parameters, None, 0, 10000, None)


def shot(path):
    # The shell answers only a few well-known names: take the one its own tool uses.
    call('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus', 'RequestName', '(su)', ('org.gnome.Screenshot', 4))
    ok, written = call('org.gnome.Shell.Screenshot', '/org/gnome/Shell/Screenshot', 'org.gnome.Shell.Screenshot',
                       'Screenshot', '(bbs)', (False, False, path)).unpack()
    if not ok:
        sys.exit('no screenshot')


def pointer(points, press):
    """Visits each (x, y) in turn, resting on each, and presses the left button on the last one."""
    remote = 'org.gnome.Mutter.RemoteDesktop'
    session = call(remote, '/org/gnome/Mutter/RemoteDesktop', remote, 'CreateSession').unpack()[0]
    iface = remote + '.Session'
    call(remote, session, iface, 'Start')
    # Without a screen cast only relative motion is allowed: first far past the bottom-left
    # corner (wherever the pointer was; the top-left one is the overview's hot corner), then
    # along the bottom edge and up to the first point, then from point to point.
    call(remote, session, iface, 'NotifyPointerMotionRelative', '(dd)', (-100000.0, 100000.0))
    time.sleep(0.1)
    x, y = 0, HEIGHT - 1
    for (to_x, to_y) in points:
        call(remote, session, iface, 'NotifyPointerMotionRelative', '(dd)', (float(to_x - x), float(to_y - y)))
        x, y = to_x, to_y
        time.sleep(0.8)   # a banner under the pointer opens, with an animation
    if press:
        call(remote, session, iface, 'NotifyPointerButton', '(ib)', (0x110, True))   # BTN_LEFT
        time.sleep(0.05)
        call(remote, session, iface, 'NotifyPointerButton', '(ib)', (0x110, False))
        time.sleep(0.2)
    call(remote, session, iface, 'Stop')


if __name__ == '__main__':
    command = sys.argv[1] if len(sys.argv) > 1 else ''
    if command == 'shot' and len(sys.argv) == 3:
        shot(sys.argv[2])
    elif command in ('move', 'click') and len(sys.argv) > 2 and len(sys.argv) % 2 == 0:
        numbers = [int(word) for word in sys.argv[2:]]
        pointer(list(zip(numbers[0::2], numbers[1::2])), command == 'click')
    else:
        sys.exit('usage: gnome_shell.py shot FILE | move X Y [X Y...] | click X Y [X Y...] (pressed at the last point)')
