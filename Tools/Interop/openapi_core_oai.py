"""openapi-core judges the answers of `tapedeck serve --openapi`, on the OpenAPI Initiative's example documents.

Usage: openapi_core_oai.py TAPEDECK DOCUMENT...

For each document: serve it with `tapedeck serve --openapi` on 127.0.0.1; for each operation, build a request from
the document (examples where it gives them, else the simplest value its schema allows: required parameters, the
request body, credentials for its first security requirement), ask openapi-core whether that request is valid, and
send the valid ones: once as they are, and once per documented status and media type (`Prefer: code=N` and
`Accept: TYPE`). openapi-core must then
accept every answer (status, headers, media type, body against its schema). A request openapi-core calls invalid is
not sent and is counted as skipped (a limit of this harness, not of the mock). Prints one line per document, the
rejected answers with openapi-core's reason, and exits 1 if any answer was rejected.
"""

import base64
import http.client
import json
import os
import re
import subprocess
import sys
from urllib.parse import urlencode, urlsplit

import yaml
from openapi_core import OpenAPI
from openapi_core.contrib.werkzeug import WerkzeugOpenAPIRequest, WerkzeugOpenAPIResponse
from werkzeug.test import EnvironBuilder
from werkzeug.wrappers import Request, Response

from interop_process import stop


METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
SAMPLE_STRINGS = {"date-time": "2024-01-02T03:04:05Z", "date": "2024-01-02", "uuid": "9b2f9e1c-3d4e-4f5a-8b6c-7d8e9f0a1b2c",
                  "email": "someone@example.com", "uri": "https://example.com/", "ipv4": "192.0.2.1", "byte": "dGFwZWRlY2s="}


def resolve(node, root):
    while isinstance(node, dict) and "$ref" in node:
        target = root
        for part in node["$ref"].lstrip("#/").split("/"):
            target = target[part.replace("~1", "/").replace("~0", "~")]
        node = target
    return node


def sample(schema, root, depth=0):
    """A value `schema` accepts: its example, default or first enum value, else the simplest one of its type."""
    schema = resolve(schema or {}, root)
    for key in ("example", "default"):
        if key in schema:
            return schema[key]
    if schema.get("enum"):
        return schema["enum"][0]
    if "allOf" in schema:
        merged = {}
        for part in schema["allOf"]:
            value = sample(part, root, depth + 1)
            if isinstance(value, dict):
                merged.update(value)
            else:
                return value
        return merged
    for key in ("oneOf", "anyOf"):
        if schema.get(key):
            return sample(schema[key][0], root, depth + 1)
    kind = schema.get("type") or ("object" if "properties" in schema else "string")
    if kind == "object":
        return {name: sample(schema.get("properties", {}).get(name), root, depth + 1)
                for name in schema.get("required", [])
                if not resolve(schema.get("properties", {}).get(name) or {}, root).get("readOnly") and depth < 8}
    if kind == "array":
        return [sample(schema.get("items"), root, depth + 1) for _ in range(max(1, schema.get("minItems", 1)))]
    if kind in ("integer", "number"):
        low = schema.get("minimum", 1)
        return int(low) + (1 if schema.get("exclusiveMinimum") is True else 0) if kind == "integer" else float(low) + 0.5
    if kind == "boolean":
        return True
    text = SAMPLE_STRINGS.get(schema.get("format"), "tapedeck")
    return (text * 8)[:max(schema.get("minLength", 0), min(len(text), schema.get("maxLength", len(text))))]


def parameter_value(parameter, root):
    if "example" in parameter:
        return parameter["example"]
    examples = parameter.get("examples") or {}
    for example in examples.values():
        example = resolve(example, root)
        if "value" in example:
            return example["value"]
    return sample(parameter.get("schema"), root)


def build_request(document, server_url, path, method, item, operation):
    """The request (method, path with query, headers, body) the operation asks for, or the reason there is none."""
    parameters = {}
    for parameter in item.get("parameters", []) + operation.get("parameters", []):
        parameter = resolve(parameter, document)
        parameters[(parameter["name"], parameter["in"])] = parameter
    url_path, query, headers, body = path, [], {}, None
    for (name, place), parameter in parameters.items():
        if place != "path" and not parameter.get("required"):
            continue
        value = parameter_value(parameter, document)
        if place == "path":
            url_path = url_path.replace("{" + name + "}", ",".join(map(str, value)) if isinstance(value, list) else str(value))
        elif place == "query":
            for element in value if isinstance(value, list) else [value]:
                query.append((name, str(element).lower() if isinstance(element, bool) else str(element)))
        elif place == "header":
            headers[name] = str(value)
        elif place == "cookie":
            headers["Cookie"] = f"{name}={value}"
    security = operation.get("security", document.get("security")) or []
    for scheme_name in (security[0] if security else {}):
        scheme = resolve(document["components"]["securitySchemes"][scheme_name], document)
        if scheme["type"] == "apiKey" and scheme["in"] == "header":
            headers[scheme["name"]] = "key"
        elif scheme["type"] == "apiKey" and scheme["in"] == "query":
            query.append((scheme["name"], "key"))
        elif scheme["type"] == "http" and scheme.get("scheme", "").lower() == "basic":
            headers["Authorization"] = "Basic " + base64.b64encode(b"user:password").decode()
        elif scheme["type"] in ("http", "oauth2", "openIdConnect"):
            headers["Authorization"] = "Bearer token"
        else:
            return f"security scheme {scheme['type']} in {scheme.get('in')}"
    request_body = resolve(operation.get("requestBody"), document)
    if request_body:
        media_type, media = next(iter(request_body.get("content", {}).items()))
        value = media.get("example", sample(media.get("schema"), document))
        if media_type == "application/json" or media_type.endswith("+json"):
            body = json.dumps(value).encode()
        elif media_type == "application/x-www-form-urlencoded":
            body = urlencode(value if isinstance(value, dict) else {}).encode()
        elif media_type.startswith("text/"):
            body = str(value).encode()
        else:
            return f"request body of type {media_type}"
        headers["Content-Type"] = media_type
    target = url_path + ("?" + urlencode(query) if query else "")
    return method.upper(), target, headers, body


def werkzeug_request(server_url, request):
    method, target, headers, body = request
    base = urlsplit(server_url)
    path, _, query = target.partition("?")
    builder = EnvironBuilder(method=method, base_url=f"{base.scheme}://{base.netloc}{base.path}", path=path,
                             query_string=query, headers=headers, data=body)
    return WerkzeugOpenAPIRequest(Request(builder.get_environ()))


def send(port, base_path, request, extra_headers):
    method, target, headers, body = request
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request(method, base_path + target, body=body, headers={**headers, **extra_headers})
        answer = connection.getresponse()
        return answer.status, answer.getheaders(), answer.read()
    finally:
        connection.close()


def server_url(document):
    server = (document.get("servers") or [{"url": "http://localhost/"}])[0]
    url = server["url"]
    for name, variable in (server.get("variables") or {}).items():
        url = url.replace("{" + name + "}", str(variable.get("default", "")))
    return url if "://" in url else "http://localhost" + url


def check(tapedeck, path):
    with open(path) as file:
        document = yaml.safe_load(file)
    openapi = OpenAPI.from_file_path(path)
    url = server_url(document)
    base_path = urlsplit(url).path.rstrip("/")
    server = subprocess.Popen([tapedeck, "serve", "--openapi", path, "--port", "0"], stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
    answers, skipped, rejected = 0, [], []
    try:
        line = server.stdout.readline()
        found = re.search(r"on http://127\.0\.0\.1:(\d+)", line)
        if found is None:
            raise RuntimeError(f"tapedeck serve --openapi {path} did not start: {line}")
        port = int(found.group(1))
        for template, item in (document.get("paths") or {}).items():
            item = resolve(item, document)
            for method in METHODS:
                if method not in item:
                    continue
                operation = item[method]
                label = f"{method.upper()} {template}"
                request = build_request(document, url, template, method, item, operation)
                if isinstance(request, str):
                    skipped.append(f"{label}: {request}")
                    continue
                try:
                    openapi.validate_request(werkzeug_request(url, request))
                except Exception as error:  # openapi-core's verdict on the harness's request
                    skipped.append(f"{label}: openapi-core calls the request invalid: {error}")
                    continue
                variants = [{}]
                for code, answer in (operation.get("responses") or {}).items():
                    if code.isdigit():
                        media_types = list((resolve(answer, document).get("content") or {}).keys())
                        variants += [{"Prefer": f"code={code}", **({"Accept": media} if media else {})} for media in media_types or [None]]
                for prefer in variants:
                    status, headers, body = send(port, base_path, request, prefer)
                    answers += 1
                    response = WerkzeugOpenAPIResponse(Response(response=body, status=status, headers=headers))
                    try:
                        openapi.validate_response(werkzeug_request(url, request), response)
                    except Exception as error:
                        reasons = "; ".join(str(cause) for cause in getattr(error, "schema_errors", []) or [])
                        rejected.append(f"{label} {prefer or ''} -> {status}: {type(error).__name__}: {error} {reasons}"[:800])
    finally:
        stop(server)
    return answers, skipped, rejected


def main():
    tapedeck = sys.argv[1]
    failed = 0
    total = 0
    for path in sys.argv[2:]:
        answers, skipped, rejected = check(tapedeck, os.path.abspath(path))
        total += answers
        failed += len(rejected)
        name = path.rsplit("/", 1)[-1]
        print(f"{'ok  ' if not rejected else 'FAIL'} {name:28} {answers} answers, {len(rejected)} rejected, {len(skipped)} operations skipped")
        for line in skipped:
            print(f"     skipped {line}")
        for line in rejected:
            print(f"     rejected {line}")
    print(f"openapi-core: accepted {total - failed} of {total} answers to valid requests")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
