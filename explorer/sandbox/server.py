"""Serving the sandbox over the network with uvicorn: for `explorer sandbox`, tests and benchmarks."""

from __future__ import annotations

import copy
import errno
import logging
import socket
import threading
import time
from typing import Any

import uvicorn
from uvicorn.config import LOGGING_CONFIG

from explorer.sandbox.tls import TLSFiles


class OneLine(logging.Filter):
    """A server error logged as one line, its traceback left out: no traceback reaches the terminal."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            record.msg = f"{record.getMessage().rstrip()}: {type(error).__name__}: {error}".rstrip(": ")
            record.args = ()
            record.exc_info = record.exc_text = None
        return True


def log_config() -> dict[str, Any]:
    settings = copy.deepcopy(LOGGING_CONFIG)
    settings["filters"] = {"one_line": {"()": OneLine}}
    for handler in settings["handlers"].values():
        handler["filters"] = ["one_line"]
    return settings


def config(app: Any, tls: TLSFiles | None = None, *, quiet: bool = False) -> uvicorn.Config:
    return uvicorn.Config(
        app,
        lifespan="off",
        # The sandbox's access list must judge the real peer, never a forwarded header.
        proxy_headers=False,
        # The app writes Date itself (spec 4.4); the service sends no Server header.
        server_header=False,
        date_header=False,
        log_config=log_config(),
        log_level="warning" if quiet else "info",
        access_log=not quiet,
        ssl_certfile=str(tls.certificate) if tls else None,
        ssl_keyfile=str(tls.key) if tls else None,
        timeout_graceful_shutdown=2,
    )


def bind(host: str, port: int) -> socket.socket:
    """A listening socket, so the port is known (and a clash reported) before serving starts."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # IPPROTO_TCP explicitly: asyncio turns Nagle off (TCP_NODELAY) only on sockets that say so,
    # and without it every keep-alive response waits ~40 ms for a delayed ACK.
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


def cannot_listen(error: OSError, host: str, port: int, free: str = "") -> str:
    """Why `bind(host, port)` failed, with the flag that fixes it: the host for an unknown name or an
    address this computer does not have, --port for one in use, a port above 1023 for a refusal.
    `free` adds how to get any free port (`0 picks a free one`) to the advice about --port."""
    where = f"cannot listen on {host}:{port}"
    choose = f"Choose another port with --port{f' ({free})' if free else ''}."
    if isinstance(error, socket.gaierror):
        return f"{where}: no host is known by the name {host}. Check --host (such as 127.0.0.1, or 0.0.0.0 for all)."
    if error.errno == errno.EADDRNOTAVAIL:
        return f"{where}: {host} is not an address of this computer. Check --host (such as 127.0.0.1)."
    if error.errno == errno.EADDRINUSE:
        return f"{where}: the port is in use already. {choose}"
    if error.errno == errno.EACCES:
        return f"{where}: permission denied. Choose a port above 1023 with --port."
    return f"{where}: {error.strerror or error}. Check --host, or {choose[0].lower()}{choose[1:]}"


def url_of(host: str, port: int, tls: bool) -> str:
    url_host = "127.0.0.1" if host in ("0.0.0.0", "") else ("[::1]" if host == "::" else host)
    if ":" in url_host and not url_host.startswith("["):
        url_host = f"[{url_host}]"
    return f"{'https' if tls else 'http'}://{url_host}:{port}"


class ServerThread:
    """The sandbox on a loopback port in a background thread, for tests and benchmarks.

    with ServerThread(create_app()) as server:
        httpx.get(server.url + "/api/service/v1.0")
    """

    def __init__(self, app: Any, host: str = "127.0.0.1", tls: TLSFiles | None = None) -> None:
        self.sock = bind(host, 0)
        self.url = url_of(host, self.sock.getsockname()[1], tls is not None)
        self.server = uvicorn.Server(config(app, tls, quiet=True))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)

    def __enter__(self) -> ServerThread:
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the sandbox server did not start")
            time.sleep(0.005)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(5)
        self.sock.close()
