"""What the interop scripts share about the servers they start: an ASGI app under uvicorn in a thread, and a
`tapedeck` process whose output is read by threads. Everything listens on 127.0.0.1."""

import queue
import re
import socket
import subprocess
import threading
import time

import uvicorn

from interop_process import stop


class Background:
    """An ASGI app served by uvicorn on a free port of 127.0.0.1, in a thread of this process."""

    def __init__(self, app, lifespan="off"):
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", 0))
        listener.listen(64)
        self.base = f"http://127.0.0.1:{listener.getsockname()[1]}"
        self.server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan=lifespan, ws="none"))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [listener]}, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 15
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("uvicorn did not start within 15 s")
            time.sleep(0.02)

    def stop(self):
        self.server.should_exit = True
        self.thread.join(timeout=15)


class Tapedeck:
    """A `tapedeck` process whose stdout and stderr are read by threads, so every wait on them is bounded."""

    def __init__(self, binary, arguments, address_pattern, timeout=20):
        self.arguments = arguments
        self.process = subprocess.Popen([binary, *arguments], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        text=True)
        self.stdout, self.stderr, self.lines = [], [], queue.Queue()
        self.readers = [threading.Thread(target=self._read, args=(stream, sink), daemon=True)
                        for stream, sink in ((self.process.stdout, self.stdout), (self.process.stderr, self.stderr))]
        for reader in self.readers:
            reader.start()
        deadline = time.monotonic() + timeout
        self.base = None
        while self.base is None and time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=0.2)
            except queue.Empty:
                if self.process.poll() is not None:
                    break
                continue
            found = re.search(address_pattern, line)
            if found:
                self.base = found.group(1)
        if self.base is None:
            self.stop()
            raise RuntimeError(f"tapedeck {' '.join(arguments)} printed no address within {timeout} s:\n{self.output()}")

    def _read(self, stream, sink):
        for line in stream:
            sink.append(line)
            if sink is self.stdout:
                self.lines.put(line)

    def stop(self):
        stop(self.process)
        for reader in self.readers:  # the last lines, up to the end of both pipes
            reader.join(timeout=10)

    def output(self):
        return "".join(self.stdout) + "".join(self.stderr)
