"""A custom container in Python on FastAPI and uvicorn, serving agentgen.yaml beside it.

Shaped like the reference platform's Python server (see DESIGN.md, "Facts from the reference
platform"): an unknown or undeclared class_method is answered 400; a body that decodes to a JSON
string is decoded once more (contract 4.2 rule 2); stream lines are json + "\\n" with media type
application/json; errors are FastAPI's own {"detail": ...} bodies, not agentgen's.

    /usr/bin/python3 container.py [--breakage NAME] [--host H] [--port P]

Defaults: host 0.0.0.0, port $PORT or 8080 (contract 4.2 rule 6). With --port 0 it binds a free
port. Once it accepts connections it prints "listening <port>" on stdout. Each breakage breaks
one rule, so the conformance checker must catch it (CONFORMANCE_BREAKAGE works too):

    no-second-decode   a string body is not decoded again (rule 2)
    stream-as-array    a stream is sent as one JSON array (rule 5)
    text-plain-stream  a stream is labelled text/plain (route table of 4.2)
    getattr-dispatch   getattr(agent, class_method) without the declared list (rule 8)
    no-output-wrapper  a unary answer without {"output": ...} (rule 4)
"""
import argparse
import asyncio
import datetime
import inspect
import json
import os
import socket
import sys
from typing import List, Literal, Optional

import uvicorn
from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import JSONResponse, StreamingResponse
from pydantic import BaseModel, ValidationError, confloat, conint, conlist, constr

BREAKAGES = ["none", "no-second-decode", "stream-as-array", "text-plain-stream", "getattr-dispatch", "no-output-wrapper"]
UNARY_ROUTE = "/api/reasoning_engine"
STREAM_ROUTE = "/api/stream_reasoning_engine"


# The operations' inputs, as pydantic models: what agentgen.yaml declares, checked the Python way.
class EchoInput(BaseModel):
    message: constr(min_length=1, max_length=200)
    times: conint(ge=1, le=5) = 1


class Traveller(BaseModel):
    name: constr(min_length=1, max_length=40)
    age: Optional[conint(ge=0, le=120)] = None
    tags: Optional[List[str]] = None


class TripOptions(BaseModel):
    seat: Literal["aisle", "window"]
    meals: Optional[bool] = None


class PlanTripInput(BaseModel):
    user_id: constr(regex=r"^u-[0-9]{3}$")
    email: constr(regex=r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
    start: datetime.date
    class_: Literal["economy", "business"]
    version: Literal[2]
    budget: confloat(gt=0, le=5000, multiple_of=0.5)
    travellers: conlist(Traveller, min_items=1, max_items=4)
    options: TripOptions
    note: Optional[str] = None

    class Config:
        fields = {"class_": "class"}


class CountInput(BaseModel):
    n: conint(ge=2, le=50)


class ChatInput(BaseModel):
    user_id: constr(min_length=1)
    message: constr(min_length=1)
    session_id: Optional[str] = None


class Agent:
    """The agent application: one method per declared operation, called with input as keyword arguments."""

    def echo(self, message, times=1):
        return {"echo": " ".join([message] * times)}

    async def plan_trip(self, user_id, travellers, budget, **_):
        return {"id": "6f1c2b8e-0d5a-4c7e-9a43-2b1d8e5f7a90", "user_id": user_id, "travellers": len(travellers), "total": budget}

    def count(self, n):
        # A synchronous generator (rule 5 accepts both kinds).
        for i in range(n):
            yield {"i": i}

    async def chat(self, user_id, message, session_id=None):
        for n, text in enumerate(["thinking about: " + message, "done"]):
            await asyncio.sleep(0.01)
            yield {"id": "e%d" % n, "author": "python-agent", "content": {"role": "model", "parts": [{"text": text}]}}


# The declared classMethods: name -> (api_mode, input model).
DECLARED = {
    "echo": ("", EchoInput),
    "plan_trip": ("async", PlanTripInput),
    "count": ("stream", CountInput),
    "chat": ("async_stream", ChatInput),
}
ROUTE_OF_MODE = {"": UNARY_ROUTE, "async": UNARY_ROUTE, "stream": STREAM_ROUTE, "async_stream": STREAM_ROUTE}


def build_app(breakage: str) -> FastAPI:
    app = FastAPI()
    agent = Agent()

    async def envelope(request: Request):
        raw = await request.body()
        try:
            body = json.loads(raw)
            if isinstance(body, str) and breakage != "no-second-decode":
                body = json.loads(body)
        except ValueError as error:
            raise HTTPException(status_code=400, detail="Invalid JSON: %s" % error)
        if not isinstance(body, dict):
            raise HTTPException(status_code=400, detail="The request body must be a JSON object.")
        name = body.get("class_method")
        if not isinstance(name, str):
            raise HTTPException(status_code=400, detail="class_method is missing.")
        arguments = body.get("input")
        if arguments is None:
            arguments = {}
        if not isinstance(arguments, dict):
            raise HTTPException(status_code=400, detail="input must be a JSON object.")
        return name, arguments

    def lookup(name: str, route: str):
        if breakage == "getattr-dispatch":
            # The mistake under test: any attribute of the agent is callable by name.
            method = getattr(agent, name, None)
            if method is None:
                raise HTTPException(status_code=400, detail="Method %s not found." % name)
            mode, model = DECLARED.get(name, ("" if route == UNARY_ROUTE else "stream", None))
            return method, mode, model
        if name not in DECLARED:
            raise HTTPException(status_code=400, detail="Method %s not found. Available methods: %s" % (name, ", ".join(DECLARED)))
        mode, model = DECLARED[name]
        return getattr(agent, name), mode, model

    async def call(name: str, route: str, arguments: dict):
        """The result of a sync or async method, or the generator of a stream method."""
        method, mode, model = lookup(name, route)
        if ROUTE_OF_MODE[mode] != route:
            raise HTTPException(status_code=400, detail="%s is served on %s" % (name, ROUTE_OF_MODE[mode]))
        if model is not None:
            try:
                arguments = model.parse_obj(arguments).dict(exclude_none=True)
            except ValidationError as error:
                raise HTTPException(status_code=400, detail=json.loads(error.json()))
            if "class_" in arguments:
                arguments["class"] = arguments.pop("class_")
        result = method(**arguments)
        if inspect.iscoroutine(result):
            result = await result
        return result

    @app.post(UNARY_ROUTE)
    async def unary(request: Request):
        name, arguments = await envelope(request)
        result = await call(name, UNARY_ROUTE, arguments)
        if breakage == "no-output-wrapper":
            return JSONResponse(result)
        return JSONResponse({"output": result})

    @app.post(STREAM_ROUTE)
    async def stream(request: Request):
        name, arguments = await envelope(request)
        produced = await call(name, STREAM_ROUTE, arguments)

        async def events():
            if hasattr(produced, "__aiter__"):
                async for event in produced:
                    yield event
            elif hasattr(produced, "__iter__") and not isinstance(produced, (str, bytes, dict)):
                for event in produced:
                    yield event
            else:
                yield produced

        if breakage == "stream-as-array":
            return JSONResponse([event async for event in events()])

        async def lines():
            try:
                async for event in events():
                    yield json.dumps(event) + "\n"
            except Exception as error:  # after the first line the status is sent: the error is the last line
                yield json.dumps({"error": str(error)}) + "\n"

        media_type = "text/plain" if breakage == "text-plain-stream" else "application/json"
        return StreamingResponse(lines(), media_type=media_type)

    # The runtime's liveness checks request / and /health (google/adk-js PR #440); adk-python's
    # api_server answers /health with {"status": "ok"}.
    @app.get("/")
    @app.get("/health")
    async def liveness():
        return JSONResponse({"status": "ok"})

    return app


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--breakage", default=os.environ.get("CONFORMANCE_BREAKAGE", "none"), choices=BREAKAGES)
    parser.add_argument("--host", default="0.0.0.0")
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8080")))
    args = parser.parse_args()

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((args.host, args.port))
    sock.listen(128)  # connections queue from here on, so "listening" is true when printed
    server = uvicorn.Server(uvicorn.Config(build_app(args.breakage), log_level="warning", timeout_keep_alive=2))
    print("listening %d" % sock.getsockname()[1], flush=True)
    server.run(sockets=[sock])


if __name__ == "__main__":
    sys.exit(main())
