"""Out of process as in process: an SSE stream and a GraphQL API through `tapedeck record` and `tapedeck serve`.

Usage: sse_graphql.py TAPEDECK WORK_DIR

Servers and clients from PyPI, none of them the project's own: uvicorn + Starlette + sse-starlette send server-sent
events, strawberry-graphql answers GraphQL (graphql_library.py: batching on, and automatic persisted queries in a
small ASGI layer in front of it, since strawberry has none), httpx + httpx-sse are the clients. Everything runs on
127.0.0.1.

SSE: five events 0.3 s apart, read once directly and once through `tapedeck record --upstream`; each event must reach
the client through the recorder within 50 ms of its live time (times counted from the response head), and the
cassette must keep the body's chunks. The cassette served with `tapedeck serve --pacing 1` must deliver each event
within 50 ms of its recorded chunk time, and with `--pacing 0` all at once (the last within 100 ms of the head).

GraphQL: a stateful API (queries with variables, mutations and the queries that read what they changed, a GET
query, a batch, persisted queries by hash, an error) asked once directly and once, from the same initial state,
through `tapedeck record` given no --match: the recorder must store the GraphQL rule in the cassette's `replay` and
say so in a `note:` on stderr, and the answers through it must equal the direct ones. With the server stopped, the
cassette is served by `tapedeck serve` (restarted for each pass, since each interaction answers once) and asked
(a) in the recorded order, (b) reversed, (c) reversed with every document laid out anew and every JSON object's
members in another order; each answer must equal (status and parsed JSON) the live answer recorded for the same
operation, and requests with variables never recorded must get a 404 with X-Tapedeck-Unmatched. A control pass
serves (c) under `--match method,host,path,body` instead: every reformatted POST must then go unmatched, which shows
that (c) sends other bytes than were recorded.
Prints what it measured and exits 1 on any failure.
"""

import asyncio
import hashlib
import json
import os
import sys
import time

import graphql
import httpx
import httpx_sse
from sse_starlette.sse import EventSourceResponse
from starlette.applications import Starlette
from starlette.routing import Route

import graphql_library
from interop_checks import check, failures
from interop_servers import Background, Tapedeck


TAPEDECK, WORK = sys.argv[1], sys.argv[2]
os.makedirs(WORK, exist_ok=True)
EVENTS, SPACING = 5, 0.3
TOLERANCE, AT_ONCE = 0.050, 0.100


# ---------------------------------------------------------------------------------------------------------- processes

def record(upstream, cassette):
    return Tapedeck(TAPEDECK, ["record", "--upstream", upstream, "--cassette", cassette, "--listen", "127.0.0.1:0", "--mode", "all"],
                    r"through (http://127\.0\.0\.1:\d+)")


def serve(cassette, *options):
    return Tapedeck(TAPEDECK, ["serve", cassette, "--port", "0", *options], r" on (http://127\.0\.0\.1:\d+)")


# ---------------------------------------------------------------------------------------------------------------- SSE

async def ticker(request):
    async def events():
        for number in range(1, EVENTS + 1):
            await asyncio.sleep(SPACING)
            yield {"event": "tick", "id": str(number), "data": json.dumps({"n": number, "text": f"event {number}"})}
    return EventSourceResponse(events(), ping=60)


def read_events(url):
    """Reads the stream; returns the head's time after the request was sent and each event's time after the head."""
    with httpx.Client(timeout=httpx.Timeout(10.0)) as client:
        sent = time.perf_counter()
        with httpx_sse.connect_sse(client, "GET", url) as source:
            head = time.perf_counter()
            source.response.raise_for_status()
            arrivals = [(event.data, time.perf_counter() - head) for event in source.iter_sse()]
    return head - sent, arrivals


def chunk_times(interaction, datas):
    """The recorded time (after the head) of the chunk that completes each event, found by the event's data line."""
    body = interaction["response"]["body"]
    text = body.get("text") if body.get("encoding") == "utf8" else None
    chunks = interaction["response"].get("chunks")
    if text is None or not chunks:
        return None
    raw = text.encode()
    ends, position = [], 0
    for data in datas:
        start = raw.index(f"data: {data}".encode(), position)
        end = min(i for i in (raw.find(b"\r\n\r\n", start), raw.find(b"\n\n", start)) if i >= 0)
        ends.append(end)
        position = end
    times, offset, index = [], 0, 0
    for end in ends:
        while offset + chunks[index][0] <= end:
            offset += chunks[index][0]
            index += 1
        times.append(chunks[index][1])
    return times


def sse():
    print("== SSE: 5 events 0.3 s apart (uvicorn + sse-starlette → httpx-sse) ==")
    server = Background(Starlette(routes=[Route("/events", ticker)]))
    cassette = os.path.join(WORK, "sse.json")
    try:
        live_head, live = read_events(f"{server.base}/events")
        recorder = record(server.base, cassette)
        try:
            proxied_head, proxied = read_events(f"{recorder.base}/events")
        finally:
            recorder.stop()
    finally:
        server.stop()
    check(recorder.process.returncode == 0, f"tapedeck record ended with status {recorder.process.returncode}:\n{recorder.output()}")
    check(len(live) == EVENTS, f"direct: {len(live)} events, expected {EVENTS}")
    check([d for d, _ in proxied] == [d for d, _ in live], f"through record: events {[d for d, _ in proxied]} differ from direct")
    with open(cassette) as file:
        interactions = json.load(file)["interactions"]
    check(len(interactions) == 1, f"sse.json holds {len(interactions)} interactions, expected 1")
    recorded = chunk_times(interactions[0], [d for d, _ in live]) if interactions else None
    check(recorded is not None, "sse.json's interaction has no `chunks` (or its body is not text)")
    chunks = interactions[0]["response"].get("chunks") or [] if interactions else []

    played = {}
    for pacing in ("1", "0"):
        server = serve(cassette, "--pacing", pacing)
        try:
            played[pacing] = read_events(f"{server.base}/events")
        finally:
            server.stop()
        check(server.process.returncode == 0, f"tapedeck serve --pacing {pacing} ended with status {server.process.returncode}")
    paced, at_once = played["1"][1], played["0"][1]
    check([d for d, _ in paced] == [d for d, _ in live], "serve --pacing 1: events differ from the recording")
    check([d for d, _ in at_once] == [d for d, _ in live], "serve --pacing 0: events differ from the recording")

    print(f"response head after the request: direct {live_head * 1000:.1f} ms, record {proxied_head * 1000:.1f} ms, "
          f"serve --pacing 1 {played['1'][0] * 1000:.1f} ms, --pacing 0 {played['0'][0] * 1000:.1f} ms")
    print(f"cassette: {len(chunks)} chunks, sizes {[c[0] for c in chunks]}")
    print("seconds after the response head; Δ in ms: record − direct, pacing 1 − recorded chunk")
    print(f"{'event':>5} {'direct':>7} {'record':>7} {'Δ':>6} {'chunk':>7} {'pacing 1':>8} {'Δ':>6} {'pacing 0':>8}")
    for index in range(EVENTS):
        direct = live[index][1] if index < len(live) else float("nan")
        through = proxied[index][1] if index < len(proxied) else float("nan")
        chunk = recorded[index] if recorded and index < len(recorded) else float("nan")
        replayed = paced[index][1] if index < len(paced) else float("nan")
        instant = at_once[index][1] if index < len(at_once) else float("nan")
        delta, replay_delta = (through - direct) * 1000, (replayed - chunk) * 1000
        print(f"{index + 1:>5} {direct:>7.3f} {through:>7.3f} {delta:>+6.1f} {chunk:>7.3f} {replayed:>8.3f} {replay_delta:>+6.1f} "
              f"{instant:>8.3f}")
        check(abs(through - direct) <= TOLERANCE,
              f"event {index + 1} reached the client through record {delta:+.1f} ms from its live time (limit ±50 ms)")
        check(abs(replayed - chunk) <= TOLERANCE,
              f"event {index + 1} served with --pacing 1 {replay_delta:+.1f} ms from its recorded time (limit ±50 ms)")
    last = at_once[-1][1] if at_once else float("inf")
    check(last <= AT_ONCE, f"serve --pacing 0: the last event came {last * 1000:.1f} ms after the head (limit 100 ms)")
    print(f"serve --pacing 0: last event {last * 1000:.1f} ms after the head")


# ------------------------------------------------------------------------------------------------------------ GraphQL

BOOK = "query Book($id: Int!) { book(id: $id) { id title author year averageStars tags } }"
TOP_RATED = "query TopRated($min: Float!) { topRated(min: $min) { title averageStars } }"
TOP_RATED_HASH = hashlib.sha256(TOP_RATED.encode()).hexdigest()
STATS = "query Stats { stats { count totalStars authors } }"


def post(name, query, variables=None, operation=None, extensions=None):
    payload = {}
    if query is not None:
        payload["query"] = query
    if operation:
        payload["operationName"] = operation
    if variables is not None:
        payload["variables"] = variables
    if extensions is not None:
        payload["extensions"] = extensions
    return {"name": name, "kind": "post", "payload": payload}


def persisted(name, variables, with_document):
    extensions = {"persistedQuery": {"version": 1, "sha256Hash": TOP_RATED_HASH}}
    return post(name, TOP_RATED if with_document else None, variables, "TopRated", extensions)


# The operations, in the order recorded: every request differs from every other, so each has one live answer.
OPERATIONS = [
    post("hello Ada", "query Hello($name: String!) { hello(name: $name) }", {"name": "Ada"}, "Hello"),
    post("hello Grace", "query Hello($name: String!) { hello(name: $name) }", {"name": "Grace"}, "Hello"),
    post("book 1", BOOK, {"id": 1}),
    post("book 2", BOOK, {"id": 2}),
    post("books by author", "query BooksBy($author: String, $limit: Int) { books(author: $author, limit: $limit) { id title } }",
         {"author": "Ursula K. Le Guin", "limit": 5}, "BooksBy"),
    post("search", "query Search($term: String!) { search(term: $term) { title year } }", {"term": "dark"}),
    post("stats before", STATS, None, "Stats"),
    post("aliases + fragment", "query Pair { a: book(id: 1) { ...Card } b: book(id: 4) { ...Card } } fragment Card on Book { title stars }"),
    {"name": "GET titles", "kind": "get",
     "payload": {"query": "query Titles($limit: Int) { books(limit: $limit) { title } }", "operationName": "Titles",
                 "variables": {"limit": 3}}},
    persisted("persisted, hash alone, unknown", {"min": 4.5}, False),
    persisted("persisted, registered", {"min": 4.5}, True),
    persisted("persisted, hash alone", {"min": 4.0}, False),
    post("mutation addBook", "mutation AddBook($input: BookInput!) { addBook(input: $input) { id title author year tags } }",
         {"input": {"title": "Parable of the Sower", "author": "Octavia E. Butler", "year": 1993, "tags": ["sf", "climate"]}},
         "AddBook"),
    post("mutation rateBook", "mutation Rate($id: Int!, $stars: Int!) { rateBook(id: $id, stars: $stars) { id averageStars stars } }",
         {"id": 5, "stars": 5}, "Rate"),
    post("mutation addTag", "mutation Tag($id: Int!, $tag: String!) { addTag(id: $id, tag: $tag) { id tags } }",
         {"id": 2, "tag": "classic"}, "Tag"),
    post("book 5 (added)", BOOK, {"id": 5}),
    post("stats after", "query StatsAfter { stats { count totalStars authors } }", {}, "StatsAfter"),
    post("error: strictBook 99", "query Strict($id: Int!) { strictBook(id: $id) { title } }", {"id": 99}, "Strict"),
    {"name": "batch", "kind": "batch", "payload": [
        {"query": "query Hello($name: String!) { hello(name: $name) }", "variables": {"name": "Batch"}},
        {"query": BOOK, "variables": {"id": 2}, "operationName": "Book"},
        {"query": "query BooksBy($author: String) { books(author: $author) { title tags } }",
         "variables": {"author": "Ursula K. Le Guin"}}]},
]

# Requests the recording never saw: a recorded document with variables never recorded.
UNRECORDED = [
    post("book 7 (never recorded)", BOOK, {"id": 7}),
    post("hello Nobody (never recorded)", "query Hello($name: String!) { hello(name: $name) }", {"name": "Nobody"}, "Hello"),
]


def relaid(document):
    """The same document laid out anew: printed by graphql-core, every line ended with an (ignored) comma, blank lines
    and a comment added."""
    printed = graphql.print_ast(graphql.parse(document))
    text = "# laid out anew\n" + "\n\n".join(f"{line}," if line.strip() not in ("{", "}") else line
                                             for line in printed.replace("  ", "\t").split("\n")) + "\n"
    check(graphql.print_ast(graphql.parse(text)) == printed, f"relaid document is not the same document: {text!r}")
    check(graphql.strip_ignored_characters(text) == graphql.strip_ignored_characters(document),
          f"relaid document differs after stripping ignored characters: {text!r}")
    return text


def reversed_members(value):
    if isinstance(value, dict):
        return {key: reversed_members(value[key]) for key in reversed(list(value))}
    if isinstance(value, list):
        return [reversed_members(item) for item in value]
    return value


def reformatted_payload(payload):
    """variables (members reversed), extensions, operationName, then the query laid out anew. A document sent with
    its persisted-query hash keeps its text: the hash is of that text, and a client that lays it out anew sends a
    new hash, a request never recorded."""
    out = {}
    for key in ("variables", "extensions", "operationName", "query"):
        if key not in payload:
            continue
        value = payload[key]
        if key == "query" and value is not None and "extensions" not in payload:
            value = relaid(value)
        out[key] = reversed_members(value)
    return out


def send(client, base, operation, reformat):
    payload = operation["payload"]
    if operation["kind"] == "get":
        fields = reformatted_payload(payload) if reformat else payload
        params = [(key, json.dumps(value, separators=(",", ":")) if key == "variables" else value)
                  for key, value in fields.items()]
        response = client.get(f"{base}/graphql", params=params)
    else:
        if operation["kind"] == "batch":
            body = [reformatted_payload(item) for item in payload] if reformat else payload
        else:
            body = reformatted_payload(payload) if reformat else payload
        content = json.dumps(body, indent=2 if reformat else None).encode()
        response = client.post(f"{base}/graphql", content=content, headers={"Content-Type": "application/json"})
    try:
        value = response.json()
    except ValueError:
        value = response.text
    return response.status_code, value, response.headers


def session(base, operations, reformat=False):
    with httpx.Client(timeout=httpx.Timeout(10.0)) as client:
        return [send(client, base, operation, reformat)[:2] for operation in operations]


def graphql_differential():
    print(f"== GraphQL: {len(OPERATIONS)} operations (strawberry-graphql on uvicorn → httpx) ==")
    cassette = os.path.join(WORK, "graphql.json")
    server = Background(graphql_library.app())
    try:
        direct = session(server.base, OPERATIONS)
    finally:
        server.stop()
    server = Background(graphql_library.app())  # the same initial state, for the recording
    try:
        recorder = record(server.base, cassette)
        try:
            live = session(recorder.base, OPERATIONS)
        finally:
            recorder.stop()
    finally:
        server.stop()
    check(recorder.process.returncode == 0, f"tapedeck record ended with status {recorder.process.returncode}:\n{recorder.output()}")
    same = sum(d == l for d, l in zip(direct, live))
    check(same == len(OPERATIONS), f"through record, {same} of {len(OPERATIONS)} answers equal the direct ones: "
          + str([o["name"] for o, d, l in zip(OPERATIONS, direct, live) if d != l]))
    check(all(status == 200 for status, _ in live), f"live statuses: {[status for status, _ in live]}")
    scenario(live)
    notes = [line.strip() for line in recorder.stderr if line.startswith("note:")]
    about = [line for line in notes if "graphql" in line.lower()]
    check(len(about) == 1, f"tapedeck record printed {len(about)} note: lines about the GraphQL rule, expected 1; "
          f"stderr:\n{''.join(recorder.stderr)}")
    with open(cassette) as file:
        stored = json.load(file)
    rules = stored.get("replay", {}).get("match")
    check(rules is not None and "graphql" in rules, f"graphql.json stores replay rules {stored.get('replay')!r}, expected a graphql rule")
    check(len(stored["interactions"]) == len(OPERATIONS),
          f"graphql.json holds {len(stored['interactions'])} interactions, expected {len(OPERATIONS)}")
    print("batch: strawberry's batching (a JSON array body); persisted queries: Apollo's APQ protocol by a layer here"
          " (strawberry has none)")
    print(f"record: stored replay {json.dumps(stored.get('replay'))}; {len(stored['interactions'])} interactions")
    for line in notes:
        print(f"record said: {line[:160]}{'…' if len(line) > 160 else ''}")

    rows = []
    forward, backward = list(range(len(OPERATIONS))), list(reversed(range(len(OPERATIONS))))
    for label, order, reformat in (("a recorded order", forward, False), ("b reversed", backward, False),
                                   ("c reversed, reformatted", backward, True)):
        answers, refused, served = replay_pass(cassette, order, reformat)
        right = [index for index in order if answers[index][:2] == live[index]]
        wrong = [index for index in order if answers[index][:2] != live[index]]
        unanswered = sum(status == 404 and headers.get("X-Tapedeck-Unmatched") == "1" for status, _, headers in refused)
        summary = next((line.strip() for line in served.stdout if line.startswith("Cassette:")), "(no summary)")
        rows.append((label, len(right), len(order), unanswered, len(UNRECORDED), summary))
        check(not wrong, f"{label}: wrong answers: "
              + "; ".join(f"{OPERATIONS[i]['name']}: got {answers[i][:2]!r}, recorded {live[i]!r}" for i in wrong)[:3000])
        check(unanswered == len(UNRECORDED), f"{label}: unrecorded requests got {[(s, dict(h)) for s, _, h in refused]}")
        check(served.process.returncode == 0, f"{label}: tapedeck serve ended with status {served.process.returncode}")
        expected = f"Cassette: {len(OPERATIONS)} of {len(OPERATIONS)} interaction(s) played, {len(UNRECORDED)} request(s) unmatched."
        check(summary == expected, f"{label}: serve said {summary!r}, expected {expected!r}")
        warnings = [line.strip() for line in served.stderr if line.strip()]
        if warnings:
            print(f"serve ({label}) stderr: {' | '.join(warnings)[:400]}")
    print(f"{'pass':<26} {'right':>7} {'unrecorded → 404 unmatched':>27}  serve's summary")
    for label, right, total, unanswered, asked, summary in rows:
        print(f"{label:<26} {right:>3}/{total:<3} {unanswered:>13}/{asked:<13}  {summary}")

    # Control: the bytes of (c) are not the recorded ones, so matching on the body leaves every POST unmatched.
    answers, _, served = replay_pass(cassette, backward, True, "--match", "method,host,path,body")
    posts = [index for index in backward if OPERATIONS[index]["kind"] != "get"]
    unmatched = sum(answers[index][0] == 404 and answers[index][2].get("X-Tapedeck-Unmatched") == "1" for index in posts)
    print(f"control, (c) under --match method,host,path,body: {unmatched} of {len(posts)} reformatted POSTs unmatched")
    check(unmatched == len(posts), f"control: only {unmatched} of {len(posts)} reformatted POSTs went unmatched under "
          "--match method,host,path,body; pass (c) does not send other bytes than were recorded")


def replay_pass(cassette, order, reformat, *options):
    """Serves the cassette afresh, sends the unrecorded requests (while every interaction is still unplayed), then
    the operations in `order`; returns the answers (status, JSON, headers) by operation index, the unrecorded
    requests' answers, and the stopped serve."""
    served = serve(cassette, *options)
    try:
        with httpx.Client(timeout=httpx.Timeout(10.0)) as client:
            refused = [send(client, served.base, operation, reformat) for operation in UNRECORDED]
            answers = {index: send(client, served.base, OPERATIONS[index], reformat) for index in order}
    finally:
        served.stop()
    return answers, refused, served


def scenario(live):
    """The live answers show the API did what the operations are for (so a replay that matches them means something)."""
    by_name = {operation["name"]: answer for operation, (_, answer) in zip(OPERATIONS, live)}

    def data(name):
        answer = by_name[name]
        return answer.get("data") if isinstance(answer, dict) else None

    code = lambda name: ((by_name[name].get("errors") or [{}])[0].get("extensions") or {}).get("code")  # noqa: E731
    check(data("stats before")["stats"]["count"] == 4 and data("stats after")["stats"]["count"] == 5,
          "live: addBook did not change the library's count")
    check(data("book 5 (added)")["book"]["title"] == "Parable of the Sower", "live: the added book is not read back")
    check(data("mutation rateBook")["rateBook"]["stars"] == [5], "live: rateBook did not rate the added book")
    check(code("persisted, hash alone, unknown") == "PERSISTED_QUERY_NOT_FOUND", "live: an unknown hash was not refused")
    check(data("persisted, registered")["topRated"] and data("persisted, hash alone")["topRated"]
          and data("persisted, hash alone") != data("persisted, registered"), "live: persisted queries did not run by hash")
    check(by_name["error: strictBook 99"].get("errors") and data("error: strictBook 99") is None,
          "live: the error operation answered without an error")
    batch = by_name["batch"]
    check(isinstance(batch, list) and len(batch) == 3 and all("data" in item for item in batch),
          f"live: the batch was not answered as a batch: {batch!r}")


def main():
    started = time.monotonic()
    sse()
    graphql_differential()
    print(f"{'FAIL' if failures else 'ok'}: {len(failures)} failure(s) in {time.monotonic() - started:.1f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
