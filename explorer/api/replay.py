"""Replaying a recorded session: a read-only service that answers what was recorded, offline.

`ReplayTransport` is an httpx transport: a request is matched on its method, path and query (the
query's order aside) with the recorded requests, and gets the recorded answer (the next one, when
the same request was recorded more than once; the last one again after that). Credentials are not
checked: a token redacted in the recording is accepted as any other. Anything not recorded gets an
error document in the API's own shape, `404 NOT_IN_RECORDING`, naming the file; a token request
not recorded (a recording of an API key's session) gets a token, so the session can start, and a
root not recorded (a folder of answers) is a document linking every recorded GET under it.

A recording is a HAR file, or a folder of `.http` files (recording.py reads both), the test fixtures'
format: `STATUS_METHOD_path_with_underscores_N.http`, each a status line, headers and the body.
"""

from __future__ import annotations

import base64
from collections import Counter, defaultdict, deque
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import httpx

from explorer.api.local_paths import is_dir
from explorer.api.recording import Recording, RecordingError, path_and_query, read_http_folder, read_recording

TOKEN_PATHS = ("/api/oauth/token", "/api/oauth/revoke")
DROPPED_HEADERS = {"content-encoding", "content-length", "transfer-encoding", "connection"}


@dataclass(frozen=True)
class Answer:
    """One recorded answer: status, headers (without those of the transfer), body."""

    status: int
    headers: list[tuple[str, str]]
    body: bytes


class ReplayTransport(httpx.AsyncBaseTransport):
    """Answers requests from a recording; what it does not hold is 404 NOT_IN_RECORDING."""

    def __init__(self, answers: dict[tuple[str, str, str], list[Answer]], source: str, root: str = "") -> None:
        self.answers = {key: deque(found) for key, found in answers.items()}
        self.source = source
        self.root = urlsplit(root)  # the recorded session's API root: listed when it was not recorded

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        """The recorded answer to `request`, or what a replay says instead."""
        await request.aread()
        path, query = path_and_query(str(request.url))
        found = self.answers.get((request.method, path, query))
        if found:
            answer = found.popleft() if len(found) > 1 else found[0]
            return httpx.Response(answer.status, headers=answer.headers, content=answer.body, request=request)
        if request.method == "GET" and path.rstrip("/") == self.root.path.rstrip("/"):
            return httpx.Response(200, json=self.root_document(), request=request)
        if request.method == "POST" and path == TOKEN_PATHS[0]:
            token = {"access_token": "replay", "token_type": "Bearer", "expires_in": 3600}
            return httpx.Response(200, json=token, request=request)
        if request.method == "POST" and path == TOKEN_PATHS[1]:
            return httpx.Response(200, request=request)
        target = request.url.raw_path.decode("ascii", "replace")
        document = {
            "detail": f"{request.method} {target} is not in the recording {self.source}.",
            "error": 404,
            "errorCode": "NOT_IN_RECORDING",
            "parameters": [request.method, target],
            "reason": "Not Found",
        }
        return httpx.Response(404, json=document, request=request)

    def root_document(self) -> dict[str, object]:
        """The root of a recording that holds none: a link to every recorded GET under it."""
        origin = f"{self.root.scheme}://{self.root.netloc}"
        base = self.root.path.rstrip("/")
        links = [
            {"href": f"{origin}{path}" + (f"?{query}" if query else ""), "rel": path.removeprefix(base + "/")}
            for method, path, query in sorted(self.answers)
            if method == "GET" and path.startswith(base + "/")
        ]
        answers = sum(len(given) for given in self.answers.values())
        # `answers`: every answer recorded, of any method; `linked`: the URLs GETs were recorded at, once each.
        return {"links": links, "recording": self.source, "answers": answers, "linked": len(links)}


def answers_of(recording: Recording) -> dict[tuple[str, str, str], list[Answer]]:
    """The recorded answers by (method, path, query), in the order they were given."""
    answers: dict[tuple[str, str, str], list[Answer]] = defaultdict(list)
    for entry in recording.entries:
        try:
            request, response = entry["request"], entry["response"]
            method, url, status = str(request["method"]).upper(), str(request["url"]), int(response["status"])
            headers = [
                (str(h["name"]), str(h["value"]))
                for h in response.get("headers", [])
                if isinstance(h, dict) and str(h.get("name", "")).lower() not in DROPPED_HEADERS
            ]
            content = response.get("content") or {}
            text = content.get("text") or ""
            body = base64.b64decode(text) if content.get("encoding") == "base64" else str(text).encode("utf-8")
        except (KeyError, TypeError, ValueError, AttributeError):
            continue  # an entry without what a replay needs: passed over
        path, query = path_and_query(url)
        answers[(method, path, query)].append(Answer(status, headers, body))
    return answers


def load(source: Path) -> tuple[Recording, ReplayTransport]:
    """The recording at `source` (a HAR file, or a folder of .http files) and a transport answering from it."""
    recording = read_http_folder(source) if is_dir(source) else read_recording(source)
    return recording, ReplayTransport(answers_of(recording), source.name, base_url_of(recording))


def base_url_of(recording: Recording) -> str:
    """Where the recorded session was: the base URL explorer kept, else the root most requests were under."""
    if recording.base_url:
        return recording.base_url
    roots: Counter[str] = Counter()
    for entry in recording.entries:
        request = entry.get("request")
        parts = urlsplit(str(request.get("url", "")) if isinstance(request, dict) else "")
        segments = parts.path.split("/")
        if len(segments) > 3 and segments[1] == "api" and segments[2] not in ("oauth", "private"):
            roots[f"{parts.scheme}://{parts.netloc}/{'/'.join(segments[1:4])}"] += 1
    if not roots:
        raise RecordingError("The recording holds no request under /api/…: nothing to replay")
    return roots.most_common(1)[0][0]
