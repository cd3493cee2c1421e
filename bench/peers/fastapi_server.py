"""The FastAPI peer of bench/server-targets.mjs: the stack the reference platform builds its own
Python containers on (FastAPI on uvicorn, with httptools and uvloop when installed), doing the same
work as the other targets: parse the body (a string body is decoded once more), check the method,
validate the input with pydantic models of the same schemas, answer the same result or stream the
same events as NDJSON (application/json). Prints "PORT <n>" on stdout once it listens on 127.0.0.1;
stops on SIGTERM. Debian packages: python3-fastapi python3-uvicorn (python3-httptools python3-uvloop).
"""

import json
import os
import socket
import sys
from typing import Any, Optional, Union

import uvicorn
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response, StreamingResponse
from pydantic import BaseModel, StrictStr, ValidationError

EVENTS = int(os.environ.get("BENCH_EVENTS", "20"))


# Strict strings: pydantic would turn 5 into "5"; the other targets refuse a wrong type.
class AsyncCreateSessionInput(BaseModel):
    user_id: StrictStr
    session_id: Optional[StrictStr] = None
    state: Optional[dict[str, Any]] = None
    ttl: Optional[StrictStr] = None
    expire_time: Optional[StrictStr] = None


class AsyncStreamQueryInput(BaseModel):
    message: Union[StrictStr, dict[str, Any]]
    user_id: StrictStr
    session_id: Optional[StrictStr] = None
    session_events: Optional[list[Any]] = None
    run_config: Optional[dict[str, Any]] = None


def validated(model, value):
    """pydantic 2's model_validate, or pydantic 1's parse_obj (Debian 12 ships pydantic 1.10)."""
    return (getattr(model, "model_validate", None) or model.parse_obj)(value)


def session_for(given: AsyncCreateSessionInput) -> dict[str, Any]:
    return {"id": "s1", "app_name": "bench", "user_id": given.user_id, "state": given.state or {}, "events": [], "last_update_time": 1}


def turn(given: AsyncStreamQueryInput):
    # As many events as run_config.events asks (the peers benchmark's 20 and 1,000), else BENCH_EVENTS.
    asked = (given.run_config or {}).get("events")
    count = asked if isinstance(asked, int) else EVENTS
    for i in range(count):
        yield {
            "id": f"e{i}",
            "invocation_id": "i1",
            "author": "agent",
            "timestamp": 1700000000 + i,
            "content": {"role": "model", "parts": [{"text": f"token {i} for {given.user_id}"}]},
        }


app = FastAPI()


class Refused(Exception):
    """A request answered 400 with FastAPI's own error body."""


async def checked_input(request: Request, class_method: str, model):
    """The envelope (a string body decoded once more), its class_method, and its input by `model`."""
    try:
        body = json.loads(await request.body())
        if isinstance(body, str):
            body = json.loads(body)
        if body.get("class_method") != class_method:
            raise Refused("unknown class_method")
        return validated(model, body.get("input") or {})
    except (ValueError, ValidationError) as error:
        raise Refused(str(error)) from error


@app.exception_handler(Refused)
async def refused(_request: Request, error: Refused):
    return JSONResponse({"detail": str(error)}, status_code=400)


@app.post("/api/reasoning_engine")
async def unary(request: Request):
    given = await checked_input(request, "async_create_session", AsyncCreateSessionInput)
    return Response(json.dumps({"output": session_for(given)}, separators=(",", ":")), media_type="application/json")


@app.post("/api/stream_reasoning_engine")
async def stream(request: Request):
    given = await checked_input(request, "async_stream_query", AsyncStreamQueryInput)

    async def lines():
        for event in turn(given):
            yield json.dumps(event, separators=(",", ":")) + "\n"

    return StreamingResponse(lines(), media_type="application/json")


def main() -> None:
    # IPPROTO_TCP, as uvicorn's own bind would give: asyncio sets TCP_NODELAY only on sockets whose
    # proto is IPPROTO_TCP, and with proto 0 every small answer waited ~40 ms for a delayed ACK.
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    print(f"PORT {listener.getsockname()[1]}", flush=True)
    config = uvicorn.Config(app, log_level="warning", access_log=False)
    uvicorn.Server(config).run(sockets=[listener])


if __name__ == "__main__":
    sys.exit(main())
