"""Records the vcrpy fixture cassettes of Tests/TapedeckCLITests/Fixtures/VCR with real vcrpy and requests against
a loopback server started here (127.0.0.1, a free port). Run through make-vcr-fixtures.sh, which installs vcrpy.

Each cassette exercises one part of vcrpy's format that `tapedeck convert --from vcr` must read:
  vcrpy-plain.yaml       text, JSON, form and binary bodies both ways, a query, repeated headers, a 404, a HEAD;
  vcrpy-compressed.yaml  gzip and deflate (zlib) responses with Content-Encoding: decoded text through requests, the
                         compressed bytes as !!binary through urllib;
  vcrpy-decoded.yaml     the same responses with decode_compressed_response=True (decoded, no Content-Encoding).
"""
import gzip, http.server, json, os, sys, threading, zlib

import urllib.request

import requests, vcr

OUT = sys.argv[1]
BINARY = bytes(range(256)) * 4


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, status, body, headers=()):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def read_body(self):
        return self.rfile.read(int(self.headers.get("Content-Length") or 0))

    def do_HEAD(self):
        self.do_GET()

    def do_GET(self):
        path = self.path.split("?")[0]
        if path == "/text":
            self.answer(200, "plain text, with ünïcode\n".encode(), [("Content-Type", "text/plain; charset=utf-8")])
        elif path == "/json":
            query = self.path.partition("?")[2]
            self.answer(200, json.dumps({"query": query, "items": [1, 2, 3], "ok": True}).encode(),
                        [("Content-Type", "application/json")])
        elif path == "/binary":
            self.answer(200, BINARY, [("Content-Type", "application/octet-stream")])
        elif path == "/cookies":
            self.answer(200, b"two cookies", [("Content-Type", "text/plain"), ("Set-Cookie", "a=1; Path=/"),
                                              ("Set-Cookie", "b=2; Path=/")])
        elif path == "/gzip":
            document = json.dumps({"compressed": "gzip", "words": ["alpha", "beta", "gamma"] * 20}).encode()
            self.answer(200, gzip.compress(document, mtime=0), [("Content-Type", "application/json"),
                                                               ("Content-Encoding", "gzip")])
        elif path == "/deflate":
            document = ("deflated text " * 40).encode()
            self.answer(200, zlib.compress(document), [("Content-Type", "text/plain"), ("Content-Encoding", "deflate")])
        else:
            self.answer(404, b'{"error":"not found"}', [("Content-Type", "application/json")])

    def do_POST(self):
        body = self.read_body()
        kind = self.headers.get("Content-Type", "")
        self.answer(201, json.dumps({"received": len(body), "type": kind}).encode(), [("Content-Type", "application/json")])

    def do_PUT(self):
        body = self.read_body()
        self.answer(200, body, [("Content-Type", "application/octet-stream")])


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
threading.Thread(target=server.serve_forever, daemon=True).start()
base = f"http://127.0.0.1:{server.server_address[1]}"


def record(name, calls, **options):
    path = os.path.join(OUT, name)
    if os.path.exists(path):
        os.remove(path)
    with vcr.use_cassette(path, record_mode="all", **options):
        session = requests.Session()
        for call in calls:
            call(session)
    print(f"wrote {path}")


def plain(session):
    session.get(f"{base}/text")
    session.get(f"{base}/json", params={"page": "2", "q": "a b"}, headers={"Accept": "application/json"})
    session.post(f"{base}/users", json={"name": "Ada", "tags": ["x", "y"]})
    session.post(f"{base}/login", data={"user": "ada", "remember": "yes"})
    session.put(f"{base}/upload", data=BINARY[:64], headers={"Content-Type": "application/octet-stream"})
    session.get(f"{base}/binary")
    session.get(f"{base}/cookies")
    session.get(f"{base}/missing")
    session.head(f"{base}/text")


def compressed(session):
    # requests (urllib3) hands vcrpy the decoded body, which it stores as text beside Content-Encoding; urllib
    # (http.client) hands it the bytes on the wire, which it stores as !!binary.
    session.get(f"{base}/gzip", headers={"Accept-Encoding": "gzip"})
    session.get(f"{base}/deflate", headers={"Accept-Encoding": "deflate"})
    for path, coding in (("/gzip", "gzip"), ("/deflate", "deflate")):
        request = urllib.request.Request(f"{base}{path}?client=urllib", headers={"Accept-Encoding": coding})
        with urllib.request.urlopen(request) as response:
            response.read()


record("vcrpy-plain.yaml", [plain])
record("vcrpy-compressed.yaml", [compressed])
record("vcrpy-decoded.yaml", [compressed], decode_compressed_response=True)
server.shutdown()
