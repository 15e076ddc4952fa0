# A websockets asyncio echo server on 127.0.0.1 and a free port, which it prints; used by compare-websocket*.sh.
import asyncio
from websockets.asyncio.server import serve


async def echo(ws):
    async for message in ws:
        await ws.send(message)


async def main():
    async with serve(echo, "127.0.0.1", 0) as server:
        print(server.sockets[0].getsockname()[1], flush=True)
        await asyncio.Future()

asyncio.run(main())
