"""Schemathesis against `tapedeck serve --openapi`, on the OpenAPI Initiative's example documents.

Usage: schemathesis_oai.py TAPEDECK SCHEMATHESIS DOCUMENT...

For each document: serve it with `tapedeck serve --openapi` on 127.0.0.1, then run Schemathesis (a fixed seed, a
bounded number of examples per operation) with the checks an OpenAPI mock must pass: not_a_server_error,
content_type_conformance, response_schema_conformance and response_headers_conformance. The base URL keeps the path
of the document's first server (its variables at their defaults), which the mock serves under. Prints one line per
document and exits 1 if any check failed.
"""

import os
import re
import subprocess
import sys
import tempfile
from urllib.parse import urlsplit

import yaml

from interop_process import stop


CHECKS = "not_a_server_error,content_type_conformance,response_schema_conformance,response_headers_conformance"


def base_path(document):
    servers = document.get("servers") or [{"url": "/"}]
    url = servers[0].get("url", "/")
    for name, variable in (servers[0].get("variables") or {}).items():
        url = url.replace("{" + name + "}", str(variable.get("default", "")))
    return urlsplit(url if "://" in url else "http://host" + url).path.rstrip("/")


def main():
    tapedeck, schemathesis = sys.argv[1], sys.argv[2]
    documents = [os.path.abspath(path) for path in sys.argv[3:]]
    # Schemathesis keeps its state (.schemathesis, .hypothesis) in the working folder: a temporary one.
    scratch = tempfile.TemporaryDirectory()
    failed = []
    for path in documents:
        with open(path) as file:
            document = yaml.safe_load(file)
        server = subprocess.Popen([tapedeck, "serve", "--openapi", path, "--port", "0"], stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True)
        try:
            line = server.stdout.readline()
            found = re.search(r"on (http://127\.0\.0\.1:\d+)", line)
            if found is None:
                raise RuntimeError(f"tapedeck serve --openapi {path} did not start: {line}")
            run = subprocess.run([schemathesis, "run", path, "--url", found.group(1) + base_path(document), "--checks", CHECKS,
                                  "--max-examples", "30", "--seed", "1", "--no-color"], capture_output=True, text=True, timeout=600,
                                 cwd=scratch.name)
        finally:
            stop(server)
        summary = re.search(r"(\d+) generated, (\d+) passed(?:, (\d+) failed)?", run.stdout)
        name = path.rsplit("/", 1)[-1]
        print(f"{'ok  ' if run.returncode == 0 else 'FAIL'} {name:28} {summary.group(0) if summary else 'no summary'}")
        if run.returncode != 0:
            failed.append(name)
            print(run.stdout[-4000:])
    print(f"Schemathesis: {len(documents) - len(failed)} of {len(documents)} OpenAPI example documents pass {CHECKS}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
