"""MCP sessions through `tapedeck record` and `tapedeck serve`, judged by the official MCP Python SDK.

Usage: mcp_session.py TAPEDECK WORK_DIR

The server and the client are the SDK's own (PyPI `mcp`, pinned): FastMCP over streamable HTTP under uvicorn, with
tools that add, echo, fail (`isError`), report progress, and log a line on the session's GET stream (a message tied
to no request), and `ClientSession` over `streamablehttp_client`. Both response modes are run: answers as event
streams, and as JSON bodies.

For each mode, a script of calls (initialize, tools/list, five tool calls, one with a progress callback, two of them
at once) runs once directly against the server, which gives the reference answers, and once through
`tapedeck record --upstream` given no --match: the recorder must store `method,url,jsonrpc` and every answer through
it must equal the direct one. With the server stopped, the cassette is served by `tapedeck serve` (a fresh one per
variant, since each call is answered once) and the client asks: the whole script; a subset; the calls in reverse
order; the whole script twice (two sessions, with --allow-playback-repeats); every answer must equal the reference,
each with the caller's ids (the SDK drops an answer whose id it did not send, so a wrong id is a timeout); the log
line must arrive during the call that logged it and no other; the two sessions must be given two session ids, the
first the recorded one. Progress notifications must arrive in order with their call in the event-stream mode (in the
JSON mode this server sends none, live or replayed). Everything runs on 127.0.0.1. Prints what it found and exits 1
on any failure.
"""

import asyncio
import json
import os
import sys
import time

from mcp import ClientSession
from mcp.client.streamable_http import streamablehttp_client
from mcp.server.fastmcp import Context, FastMCP

from interop_checks import check, failures
from interop_servers import Background, Tapedeck

TAPEDECK, WORK = sys.argv[1], sys.argv[2]
os.makedirs(WORK, exist_ok=True)
SESSION_LIMIT = 60


def server_app(json_response):
    server = FastMCP("tapedeck-interop", json_response=json_response, host="127.0.0.1")

    @server.tool()
    def add(a: int, b: int) -> str:
        """Adds two numbers."""
        return f"{a} + {b} = {a + b}"

    @server.tool()
    def echo(text: str) -> str:
        """Echoes its text."""
        return f"echo: {text}"

    @server.tool()
    def fail(reason: str) -> str:
        """Always fails."""
        raise ValueError(f"failed on purpose: {reason}")

    @server.tool()
    async def note(text: str, ctx: Context) -> str:
        """Logs its text on the session's GET stream (a message tied to no request), then answers."""
        await ctx.session.send_log_message(level="info", data=f"noted: {text}")
        await asyncio.sleep(0.2)
        return "noted"

    @server.tool()
    async def slow(steps: int, ctx: Context) -> str:
        """Reports progress, step by step."""
        for step in range(1, steps + 1):
            await ctx.report_progress(step, steps, f"step {step}")
            await asyncio.sleep(0.05)
        return f"done after {steps} steps"

    return server.streamable_http_app()


def text_of(result):
    return {"error": bool(result.isError), "text": [item.text for item in result.content if getattr(item, "type", "") == "text"]}


async def call(session, name, progress):
    """One step of a script: what the SDK returned, as plain data."""
    if name == "tools":
        listed = await session.list_tools()
        return sorted(tool.name for tool in listed.tools)
    if name == "add":
        return text_of(await session.call_tool("add", {"a": 2, "b": 3}))
    if name == "echo":
        return text_of(await session.call_tool("echo", {"text": "hello"}))
    if name == "note":
        return text_of(await session.call_tool("note", {"text": "hello"}))
    if name == "fail":
        return text_of(await session.call_tool("fail", {"reason": "test"}))
    if name == "slow":
        async def on_progress(done, total, message):
            progress.append((done, total, message))
        return text_of(await session.call_tool("slow", {"steps": 3}, progress_callback=on_progress))
    if name == "both":
        added, echoed = await asyncio.gather(session.call_tool("add", {"a": 5, "b": 8}), session.call_tool("echo", {"text": "at once"}))
        return [text_of(added), text_of(echoed)]
    raise ValueError(name)


SCRIPT = ["tools", "add", "echo", "note", "fail", "slow", "both"]


async def session_run(url, steps):
    """Runs `steps` in one session; returns {step: answer}, with the log messages that arrived during each step
    (from the session's GET stream) as {"logs of STEP": [...]} and the session's id as {"session": id}, and the progress
    notifications seen."""
    answers, progress, logs = {}, [], []

    async def on_log(params):
        logs.append(params.data)

    async with streamablehttp_client(f"{url}/mcp", timeout=20, sse_read_timeout=30) as (read, write, session_id):
        async with ClientSession(read, write, logging_callback=on_log) as session:
            await session.initialize()
            answers["session"] = session_id()
            for step in steps:
                before = len(logs)
                answers[step] = await call(session, step, progress)
                answers[f"logs of {step}"] = logs[before:]
    return answers, progress


def run(url, steps):
    try:
        return asyncio.run(asyncio.wait_for(session_run(url, steps), SESSION_LIMIT))
    except BaseException as error:  # a timeout here is what a dropped answer (a wrong id) looks like
        return {"error": f"{type(error).__name__}: {error}"}, []


def judge(label, answers, progress, reference, reference_progress):
    if "error" in answers and isinstance(answers["error"], str):
        check(False, f"{label}: the session failed: {answers['error']}")
        return
    for step, answer in answers.items():
        if step != "session":
            check(answer == reference[step], f"{label}: {step} answered {answer!r}, live {reference[step]!r}")
    if "slow" in answers:
        check(progress == reference_progress, f"{label}: progress {progress}, live {reference_progress}")


def mode(json_response):
    name = "json" if json_response else "event-stream"
    print(f"== {name} responses")
    server = Background(server_app(json_response), lifespan="on")
    cassette = os.path.join(WORK, f"mcp-{name}.json")
    try:
        reference, reference_progress = run(server.base, SCRIPT)
        if not check("error" not in reference or not isinstance(reference["error"], str), f"{name}: the live session failed: {reference}"):
            return
        check(len(reference_progress) == 3 or json_response, f"{name}: live progress {reference_progress}")
        check(reference.get("logs of note") == ["noted: hello"] and not any(reference[f"logs of {step}"] for step in SCRIPT if step != "note"),
              f"{name}: live, the log line came outside its call: {[(step, reference[f'logs of {step}']) for step in SCRIPT]}")
        recorder = Tapedeck(TAPEDECK, ["record", "--upstream", server.base, "--cassette", cassette, "--listen", "127.0.0.1:0",
                                       "--mode", "all"], r"through (http://127\.0\.0\.1:\d+)")
        try:
            proxied, proxied_progress = run(recorder.base, SCRIPT)
            recorded_session = proxied.get("session")
        finally:
            recorder.stop()
        judge(f"{name} through record", proxied, proxied_progress, reference, reference_progress)
        check(recorder.process.returncode == 0, f"{name}: tapedeck record ended with {recorder.process.returncode}:\n{recorder.output()}")
        check("stored match rules method,url,jsonrpc" in recorder.output(), f"{name}: no note that the jsonrpc rule was stored:\n{recorder.output()}")
    finally:
        server.stop()
    with open(cassette) as file:
        stored = json.load(file)
    check(stored.get("replay", {}).get("match") == ["method", "url", "jsonrpc"], f"{name}: stored rules {stored.get('replay')}")
    print(f"     recorded {len(stored['interactions'])} interactions")
    variants = [
        ("whole script", SCRIPT, []),
        ("a subset", ["echo", "slow"], []),
        ("reversed", list(reversed(SCRIPT)), []),
    ]
    for label, steps, options in variants:
        served = Tapedeck(TAPEDECK, ["serve", cassette, "--port", "0", *options], r" on (http://127\.0\.0\.1:\d+)")
        try:
            started = time.monotonic()
            answers, progress = run(served.base, steps)
            print(f"     {label}: {len(steps)} steps in {time.monotonic() - started:.2f} s")
        finally:
            served.stop()
        judge(f"{name} served, {label}", answers, progress, reference, reference_progress)
    served = Tapedeck(TAPEDECK, ["serve", cassette, "--port", "0", "--allow-playback-repeats"], r" on (http://127\.0\.0\.1:\d+)")
    sessions = []
    try:
        for run_number in (1, 2):
            answers, progress = run(served.base, SCRIPT)
            judge(f"{name} served twice, run {run_number}", answers, progress, reference, reference_progress)
            sessions.append(answers.get("session"))
    finally:
        served.stop()
    check(sessions[0] == recorded_session, f"{name}: the first served session is {sessions[0]}, recorded {recorded_session}")
    check(len(set(sessions)) == 2, f"{name}: two served sessions were both given {sessions[0]}")


mode(json_response=False)
mode(json_response=True)
if failures:
    print(f"mcp-session: {len(failures)} failure(s)")
    sys.exit(1)
print("mcp-session: every check passed")
