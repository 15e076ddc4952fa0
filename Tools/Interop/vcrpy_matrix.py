"""The vcrpy matrix: real vcrpy cassettes, converted by `tapedeck convert --from vcr`, replayed by Tapedeck and
compared with vcrpy's own playback.

Usage: vcrpy_matrix.py TAPEDECK WORK_DIR

For each client (requests, urllib, httpx) × response coding (gzip, deflate, identity) × vcrpy's
decode_compressed_response (off, on), this records one GET against a server on 127.0.0.1 with vcrpy, plays it back
with vcrpy (the reference), converts the cassette, and replays it twice:
  fetch  `tapedeck fetch URL --cassette converted.json` (Tapedeck's client stack over the cassette);
  serve  `tapedeck serve converted.json`, asked by the same client library without vcrpy.
What is compared is the entity the application gets: the body as the client returns it, decoded per its
Content-Encoding when the client itself does not decode (urllib), so vcrpy's playback, fetch and serve are judged
on the same bytes. Prints one line per cassette and exits 1 if any conversion or replay differs.
"""

import gzip
import http.server
import json
import os
import subprocess
import sys
import threading
import urllib.request
import zlib

import httpx
import requests
import vcr

from interop_process import stop


TAPEDECK, WORK = sys.argv[1], sys.argv[2]
os.makedirs(WORK, exist_ok=True)

# httpbin's /deflate document starts with '{"deflated": true': read as raw DEFLATE it is a fixed-Huffman last block
# that ends after a few bytes, the text that an importer without a trial decode shortens.
DOCUMENTS = {
    "gzip": json.dumps({"gzipped": True, "method": "GET", "words": ["alpha", "beta", "gamma"] * 8}).encode(),
    "deflate": json.dumps({"deflated": True, "method": "GET", "origin": "127.0.0.1"}).encode(),
    "identity": json.dumps({"identity": True, "method": "GET", "text": "ünïcode"}).encode(),
}


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        coding = self.path.strip("/").split("?")[0]
        body = DOCUMENTS.get(coding)
        if body is None:
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if coding == "gzip":
            body = gzip.compress(body, mtime=0)
        elif coding == "deflate":
            body = zlib.compress(body)
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        if coding != "identity":
            self.send_header("Content-Encoding", coding)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def entity(body, coding):
    """The decoded entity: what an application reading `body` with Content-Encoding `coding` ends up with."""
    coding = (coding or "").strip().lower()
    if coding in ("gzip", "x-gzip") and body[:2] == b"\x1f\x8b":
        return gzip.decompress(body)
    if coding == "deflate":
        try:
            return zlib.decompress(body)
        except zlib.error:
            return body
    return body


def get(client, url, coding):
    """GETs `url` asking for `coding`; returns the entity the application gets."""
    headers = {"Accept-Encoding": coding}
    if client == "requests":
        return requests.get(url, headers=headers, timeout=10).content
    if client == "httpx":
        return httpx.get(url, headers=headers, timeout=10).content
    with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=10) as response:
        return entity(response.read(), response.headers.get("Content-Encoding"))


def serve(cassette):
    """Starts `tapedeck serve` on a free port; returns the process and its base URL."""
    process = subprocess.Popen([TAPEDECK, "serve", cassette, "--port", "0", "--host", "127.0.0.1"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    for _ in range(50):
        line = process.stdout.readline()
        if not line:
            break
        if line.startswith("Serving cassette"):
            return process, line.rsplit(" ", 1)[1].strip().rstrip("/")
    process.kill()
    raise RuntimeError(f"tapedeck serve did not start: {process.stderr.read()}")


# A cassette written by hand with YAML anchors, aliases and `<<` merges, which vcrpy reads with PyYAML: the second
# interaction's request headers merge a list of two mappings and override one merged header, and its response is the
# first's, aliased. The listed mappings share no key: which of them wins one is the merge type's rule (the earlier,
# as Tapedeck reads it), but PyYAML 6.0.4 drops a repeated merged key by object identity, so the later wins for keys
# Python does not intern ("X-Trace") and the earlier for those it does ("x"). Tapedeck's unit tests pin the rule.
MERGED_CASSETTE = """\
interactions:
- request:
    body: '{"id": 1}'
    headers: &headers
      Accept:
      - application/json
      Content-Type: &json
      - application/json
      X-Trace:
      - first
    method: POST
    uri: http://127.0.0.1:8080/items?page=1
  response: &created
    body:
      string: '{"id": 1, "name": "one"}'
    headers:
      Content-Type: *json
      X-Served-By:
      - one
    status:
      code: 201
      message: Created
- request:
    body: null
    headers:
      <<: [{X-Extra: [x]}, *headers]
      Accept:
      - text/plain
    method: GET
    uri: http://127.0.0.1:8080/items/1
  response: *created
version: 1
"""


def check_merged_cassette():
    """Converts MERGED_CASSETTE and compares every interaction with what vcrpy's own YAML serializer reads: method,
    URI, status and both header lists, in order. Returns the problems found."""
    from vcr.serializers import yamlserializer

    path = os.path.join(WORK, "merged.yaml")
    with open(path, "w") as out:
        out.write(MERGED_CASSETTE)
    conversion = subprocess.run([TAPEDECK, "convert", path, "--from", "vcr"], capture_output=True, text=True)
    if conversion.returncode != 0:
        return [f"convert failed: {conversion.stderr.strip()}"]
    converted = json.loads(conversion.stdout)["interactions"]
    expected = yamlserializer.deserialize(MERGED_CASSETTE)["interactions"]
    if len(converted) != len(expected):
        return [f"{len(converted)} interactions, vcrpy reads {len(expected)}"]

    def pairs(headers):
        return [[name, value] for name, values in headers.items() for value in values]

    problems = []
    for index, (ours, theirs) in enumerate(zip(converted, expected)):
        for what, got, want in (
            ("method", ours["request"]["method"], theirs["request"]["method"]),
            ("uri", ours["request"]["url"], theirs["request"]["uri"]),
            ("status", ours["response"]["status"], theirs["response"]["status"]["code"]),
            ("request headers", ours["request"]["headers"], pairs(theirs["request"]["headers"])),
            ("response headers", ours["response"]["headers"], pairs(theirs["response"]["headers"])),
        ):
            if got != want:
                problems.append(f"interaction {index} {what}: tapedeck {got}, vcrpy {want}")
    return problems


def main():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    failures = 0
    total = 0
    for client in ("requests", "urllib", "httpx"):
        for coding in DOCUMENTS:
            for decode in (False, True):
                total += 1
                name = f"{client}-{coding}-{'decoded' if decode else 'raw'}"
                yaml_path = os.path.join(WORK, name + ".yaml")
                converted = os.path.join(WORK, name + ".json")
                for path in (yaml_path, converted):
                    if os.path.exists(path):
                        os.remove(path)
                url = f"{base}/{coding}"
                with vcr.use_cassette(yaml_path, record_mode="all", decode_compressed_response=decode):
                    get(client, url, coding)
                with vcr.use_cassette(yaml_path, record_mode="none", decode_compressed_response=decode):
                    expected = get(client, url, coding)
                problems = []
                conversion = subprocess.run([TAPEDECK, "convert", yaml_path, "--from", "vcr", "-o", converted],
                                            capture_output=True, text=True)
                if conversion.returncode != 0:
                    problems.append(f"convert failed: {conversion.stderr.strip()}")
                else:
                    fetched = subprocess.run([TAPEDECK, "fetch", url, "--cassette", converted, "-H", f"Accept-Encoding: {coding}"],
                                             capture_output=True)
                    if fetched.returncode != 0:
                        problems.append(f"fetch failed: {fetched.stderr.decode(errors='replace').strip()}")
                    elif fetched.stdout != expected:
                        problems.append(f"fetch gave {fetched.stdout[:60]!r}, vcrpy {expected[:60]!r}")
                    process, served_base = serve(converted)
                    try:
                        served = get(client, f"{served_base}/{coding}", coding)
                        if served != expected:
                            problems.append(f"serve gave {served[:60]!r}, vcrpy {expected[:60]!r}")
                    except Exception as error:  # noqa: BLE001 (any client failure is a finding)
                        problems.append(f"serve: {type(error).__name__}: {error}")
                    finally:
                        stop(process)
                failures += bool(problems)
                print(f"{'FAIL' if problems else 'ok  '} {name:28} {len(expected):4} bytes  {'; '.join(problems)}")
    problems = check_merged_cassette()
    total += 1
    failures += bool(problems)
    print(f"{'FAIL' if problems else 'ok  '} {'anchors-and-merges':28} {'; '.join(problems)}")
    server.shutdown()
    print(f"vcrpy matrix: {total - failures} of {total} cassettes convert and replay as vcrpy plays them back")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
