"""Pact out, judged by Pact's verifier against the live provider the recording came from.

Usage: pact_live.py TAPEDECK WORK_DIR

Starts a provider on 127.0.0.1 whose answers are partly deterministic (a user, a text page, content negotiation on
Accept, gzip when Accept-Encoding asks for it) and partly vary per call (a UUID request id, ids and times made per
call); records a client session through `tapedeck record` (a recording reverse proxy), each request twice; exports
the cassette with `tapedeck convert --to pact`, with `--no-matchers` and by default (matchers on); and runs Pact's
reference verifier (pact-verify.sh) against the same live provider. Expected: without matchers every deterministic interaction passes
and only the varying ones fail; with matchers every interaction passes. Then the contract with matchers is served
by `tapedeck serve --pact` (Pact in) and verified again: every interaction passes. Exits 1 otherwise.
"""

import gzip
import http.server
import json
import os
import re
import subprocess
import sys
import threading
import uuid
from datetime import datetime, timezone
from itertools import count

import requests

from interop_process import stop


TAPEDECK, WORK = sys.argv[1], sys.argv[2]
HERE = os.path.dirname(os.path.abspath(__file__))
os.makedirs(WORK, exist_ok=True)
serial = count(1000)

# Paths whose answers vary from call to call; the others answer the same bytes every time.
VARYING = {"/orders", "/orders/latest", "/session"}


class Provider(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, status, body, content_type, headers=()):
        if "gzip" in (self.headers.get("Accept-Encoding") or ""):
            body = gzip.compress(body, mtime=0)
            headers = list(headers) + [("Content-Encoding", "gzip"), ("Vary", "Accept-Encoding")]
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def json(self, status, value, headers=()):
        self.answer(status, json.dumps(value).encode(), "application/json", headers)

    def do_GET(self):
        path = self.path.split("?")[0]
        if path == "/users/1":
            self.json(200, {"id": 1, "name": "Ada", "roles": ["admin", "ops"], "active": True})
        elif path == "/page":
            if "application/json" in (self.headers.get("Accept") or ""):
                self.json(200, {"title": "Home"})
            else:
                self.answer(200, b"<h1>Home</h1>", "text/html; charset=utf-8")
        elif path == "/text":
            self.answer(200, "plain text, ünïcode\n".encode(), "text/plain; charset=utf-8")
        elif path == "/orders/latest":
            self.json(200, {"id": next(serial), "uuid": str(uuid.uuid4()), "total": 12.5,
                            "created": datetime.now(timezone.utc).isoformat(timespec="milliseconds")},
                      [("X-Request-Id", str(uuid.uuid4()))])
        elif path == "/session":
            self.json(200, {"token": uuid.uuid4().hex, "user": {"id": 1, "name": "Ada"}},
                      [("X-Request-Id", str(uuid.uuid4()))])
        else:
            self.json(404, {"error": "not found"})

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        sent = json.loads(self.rfile.read(length) or b"{}")
        if self.path == "/orders":
            self.json(201, {"id": next(serial), "item": sent.get("item"), "orderId": str(uuid.uuid4()),
                            "createdAt": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")})
        else:
            self.json(404, {"error": "not found"})


def session(base):
    """The client session recorded: every request twice, as a test suite run twice would."""
    client = requests.Session()
    for _ in range(2):
        client.get(f"{base}/users/1")
        client.get(f"{base}/page", headers={"Accept": "application/json"})
        client.get(f"{base}/page", headers={"Accept": "text/html"})
        client.get(f"{base}/text", headers={"Accept-Encoding": "identity"})
        client.get(f"{base}/orders/latest")
        client.get(f"{base}/session")
        client.post(f"{base}/orders", json={"item": "book"})


def record(upstream, cassette):
    proxy = subprocess.Popen([TAPEDECK, "record", "--upstream", upstream, "--cassette", cassette, "--listen", "127.0.0.1:0",
                              "--mode", "all"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    base = None
    for _ in range(50):
        line = proxy.stdout.readline()
        found = re.search(r"through (http://127\.0\.0\.1:\d+)", line or "")
        if found:
            base = found.group(1)
            break
    if base is None:
        proxy.kill()
        raise RuntimeError("tapedeck record printed no address")
    try:
        session(base)
    finally:
        proxy.terminate()
        proxy.wait(timeout=30)


def verify(contract, upstream):
    """Runs Pact's verifier; returns its exit status and the descriptions of the interactions that failed."""
    result = subprocess.run(["bash", os.path.join(HERE, "pact-verify.sh"), contract, upstream, "provider"],
                            capture_output=True, text=True)
    if result.returncode == 2:
        raise RuntimeError(f"the Pact verifier could not be installed:\n{result.stderr}")
    failed = sorted(set(re.findall(r"^\d+\) Verifying a pact between \S+ and provider - (.+)$", result.stdout, re.M)))
    return result.returncode, failed, result.stdout


def main():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Provider)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    upstream = f"http://127.0.0.1:{server.server_address[1]}"
    cassette = os.path.join(WORK, "recorded.json")
    record(upstream, cassette)
    ok = True
    for matchers in (False, True):
        contract = os.path.join(WORK, f"contract{'-matchers' if matchers else ''}.json")
        arguments = [TAPEDECK, "convert", cassette, "--to", "pact", "--consumer", "client", "--provider", "provider", "-o", contract]
        if not matchers:
            arguments.append("--no-matchers")
        converted = subprocess.run(arguments, capture_output=True, text=True)
        if converted.returncode != 0:
            print(f"FAIL convert{'' if matchers else ' --no-matchers'}: {converted.stderr}")
            ok = False
            continue
        with open(contract) as file:
            descriptions = [interaction["description"] for interaction in json.load(file)["interactions"]]
        status, failed, report = verify(contract, upstream)
        varying = [d for d in descriptions if d.split(" ")[1].split("?")[0] in VARYING]
        unexpected = [d for d in failed if matchers or d not in varying]
        passed = len(descriptions) - len(failed)
        print(f"{'with' if matchers else 'without'} matchers: {passed} of {len(descriptions)} interactions pass Pact's verifier"
              f" ({len(descriptions) - len(varying)} deterministic, {len(varying)} varying); failed: {failed or 'none'}")
        if unexpected or (matchers and status != 0):
            print(report)
            ok = False
        if matchers:
            # Pact in: the same contract served as stubs by `tapedeck serve --pact`, judged by the same verifier.
            stubs = subprocess.Popen([TAPEDECK, "serve", "--pact", contract, "--port", "0"], stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True)
            try:
                line = stubs.stdout.readline()
                served = re.search(r"on (http://127\.0\.0\.1:\d+)", line)
                if served is None:
                    raise RuntimeError(f"tapedeck serve --pact did not start: {line}")
                status, failed, report = verify(contract, served.group(1))
                print(f"served by tapedeck serve --pact: {len(descriptions) - len(failed)} of {len(descriptions)} interactions pass "
                      f"Pact's verifier; failed: {failed or 'none'}")
                if status != 0:
                    print(report)
                    ok = False
            finally:
                stop(stubs)
    server.shutdown()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
