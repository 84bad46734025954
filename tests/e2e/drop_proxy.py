"""A TCP proxy in front of the platform whose network can drop: ``drop()`` cuts every open
connection (as a phone losing its signal does: an open stream breaks mid-reply) and refuses
new ones until ``restore()``. Chromium's own offline emulation leaves an open response
alone, so the browser tests of a dropped connection go through this. ``retarget()`` sends the
connections made from then on to another server (a second web process behind a load
balancer), and ``connections`` counts the connections each server was given."""

from __future__ import annotations

import contextlib
import socket
import threading
from urllib.parse import urlsplit


class DroppingProxy:
    def __init__(self, target_url: str) -> None:
        self.target = address_of(target_url)
        self.connections: dict[tuple[str, int], int] = {}
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        self.up = True
        self._open: set[socket.socket] = set()
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def drop(self) -> None:
        with self._lock:
            self.up = False
            sockets, self._open = self._open, set()
        for sock in sockets:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()

    def retarget(self, target_url: str) -> None:
        self.target = address_of(target_url)

    def restore(self) -> None:
        self.up = True

    def close(self) -> None:
        self.drop()
        self.listener.close()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if not self.up:
                client.close()
                continue
            target = self.target
            try:
                server = socket.create_connection(target)
            except OSError:
                client.close()
                continue
            self.connections[target] = self.connections.get(target, 0) + 1
            with self._lock:
                self._open |= {client, server}
            for source, sink in ((client, server), (server, client)):
                threading.Thread(target=_pump, args=(source, sink), daemon=True).start()


def address_of(url: str) -> tuple[str, int]:
    parts = urlsplit(url)
    return (parts.hostname or "127.0.0.1", parts.port or 80)


def _pump(source: socket.socket, sink: socket.socket) -> None:
    try:
        while chunk := source.recv(65536):
            sink.sendall(chunk)
    except OSError:
        pass
    finally:
        for sock in (source, sink):
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
