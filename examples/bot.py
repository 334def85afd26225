#!/usr/bin/env python3
"""A 414 Club bot in about 60 lines, on the public bot API only (docs/BOT_API.md).

    python examples/bot.py http://localhost:8000 c414_yourtoken [table_id]

Sits at the table (if given), waits for its match, then follows its seat's stream and answers
every view with a legal action: it passes claim windows, follows with a pass, leads its
longest play (fewest turns) and returns the first card it may. Standard library only.
"""

import json
import sys
import time
import urllib.error
import urllib.request
import uuid


class Api:
    def __init__(self, base: str, token: str) -> None:
        self.base, self.token = base.rstrip("/") + "/api/v1", token

    def request(self, method: str, path: str, body: dict | None = None, timeout: float = 30):
        data = None if body is None else json.dumps(body).encode()
        headers = {"Authorization": f"Bearer {self.token}", "Content-Type": "application/json"}
        req = urllib.request.Request(self.base + path, data, headers, method=method)
        return urllib.request.urlopen(req, timeout=timeout)

    def call(self, method: str, path: str, body: dict | None = None) -> dict:
        try:
            with self.request(method, path, body) as response:
                return json.load(response)
        except urllib.error.HTTPError as error:  # every error is JSON: {"code", "message"}
            return json.load(error)

    def stream(self, match_id: int):
        with self.request("GET", f"/matches/{match_id}/stream", timeout=60) as response:
            for line in response:
                yield json.loads(line)


def choose(seat: dict) -> dict | None:
    """The action to send for a ``view`` line, or None when the seat has nothing to do."""
    legal = seat["legal_actions"]
    passes = [a for a in legal if a["action"] == "pass"]
    plays = sorted((a for a in legal if a["action"] == "play"), key=lambda a: -len(a["cards"]))
    if passes:  # a claim window, or following a play: let it go
        return passes[0]
    return plays[0] if plays else (legal[0] if legal else None)


def play(base: str, token: str, table_id: int | None = None) -> dict:
    """Sit (if ``table_id``), play the seat's match to its end; returns the stream's last line."""
    api = Api(base, token)
    if table_id is not None:
        print("sit:", api.call("POST", f"/tables/{table_id}/sit", {}))
    while not (seats := [s for s in api.call("GET", "/me")["seats"] if s["match"]]):
        time.sleep(0.5)  # waiting for the host to start the match
    match_id = seats[0]["match"]
    for line in api.stream(match_id):
        if line["type"] == "end":
            return line
        if line["type"] == "view" and (action := choose(line)):
            body = {**action, "version": line["version"], "client_id": uuid.uuid4().hex}
            api.call("POST", f"/matches/{match_id}/actions", body)  # a refusal: the next view
    return {"type": "end", "reason": "stream closed"}


if __name__ == "__main__":
    end = play(sys.argv[1], sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else None)
    print("end:", json.dumps(end))
    sys.exit(0 if end.get("reason") == "match_over" else 1)
