"""The statuses generated cases cannot reach, each checked against docs/openapi.yaml.

    python3 Tools/openapi/statuses.py PENUMBRA_BINARY      (run by Tools/openapi/check.sh)

(PENUMBRA_OPENAPI_SPEC names another copy of the spec to check against.)

Schemathesis's generated requests cover the 400s, 403s, 404s and 415s, and renders; they cannot
sign a URL, send a body too large or too slow, fill the queue or pass the deadline. This starts
its own `penumbra serve` on 127.0.0.1 (one worker, a queue of one, a 1.5 s deadline, 64 KiB
bodies, the test key Tools/openapi/signing.key), makes each of those on purpose, and checks each
response with schemathesis's conformance checks (status, media type, headers, JSON body; the
image bodies with Tools/openapi/hooks.py's deserializers) and for the status it must have. The
last line says `N passed, N failed`; the exit status is 1 on any failure.
"""

import base64
import hashlib
import hmac
import json
import os
import re
import runpy
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
import zlib

import requests
import schemathesis
from schemathesis.core.transport import Response
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KEY_FILE = os.path.join(ROOT, "Tools/openapi/signing.key")
CHECKS = [status_code_conformance, content_type_conformance, response_headers_conformance, response_schema_conformance]
DEADLINE_MS = 1500

runpy.run_path(os.path.join(ROOT, "Tools/openapi/hooks.py"))  # the image deserializers
schema = schemathesis.openapi.from_path(os.environ.get("PENUMBRA_OPENAPI_SPEC") or os.path.join(ROOT, "docs/openapi.yaml"))
RENDER = schema["/v1/render"]["POST"]
SIGNED = schema["/v1/render/{signed}/{file}"]["GET"]

OVAL = {"format": "penumbra-scene", "version": 1, "size": [100, 100], "background": "#FFFFFF",
        "ops": [{"op": "setFillColor", "color": "#0000FF"}, {"op": "fill", "path": {"ellipse": [0, 0, 100, 100]}}]}
# About 4.5 s on one core of a release build: far past the deadline.
SLOW = {"format": "penumbra-scene", "version": 1, "size": [2000, 2000],
        "ops": [{"op": "setShadow", "offset": [5, 5], "blur": 100}, {"op": "setFillColor", "color": "#FF0000"}]
        + [{"op": "fill", "path": {"rect": [i, i, 1500, 1500]}} for i in range(60)]}


def png(width, height, rgba):
    """A tiny RGBA PNG."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    rows = b"".join(b"\x00" + bytes(rgba) * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def b64url(data):
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def signed_path(scene, ext="png", expires=None, key=None):
    """docs/server.md's signed URL (version 2)."""
    if key is None:
        key = open(KEY_FILE, "rb").read()
        key = key[:-1] if key.endswith(b"\n") else key
    key_id = b64url(hashlib.sha256(b"penumbra-signing-key-id\0" + key).digest())[:8]
    expires = int(time.time()) + 3600 if expires is None else expires
    file = b64url(json.dumps(scene).encode()) + "." + ext
    signature = b64url(hmac.new(key, f"penumbra-url-v2.{key_id}.{expires}.{file}".encode(), hashlib.sha256).digest())
    return f"/v1/render/{key_id}.{expires}.{signature}/{file}"


def start_server(binary, log):
    process = subprocess.Popen(
        [binary, "serve", "--host", "127.0.0.1", "--port", "0", "--backend", "cpu", "--workers", "1", "--queue", "1",
         "--timeout-ms", str(DEADLINE_MS), "--max-body-bytes", "65536", "--signing-key-file", KEY_FILE,
         "--drain-seconds", "2"], stderr=log)
    for _ in range(300):
        time.sleep(0.1)
        match = re.search(r'"message":"listening".*"port":"(\d+)"', open(log.name).read())
        if match:
            url = f"http://127.0.0.1:{match.group(1)}"
            for _ in range(300):
                try:
                    if requests.get(url + "/readyz", timeout=5).status_code == 200:
                        return process, url
                except requests.RequestException:
                    pass
                time.sleep(0.1)
        if process.poll() is not None:
            break
    process.kill()
    raise SystemExit("statuses: the server did not start or get ready:\n" + open(log.name).read()[-2000:])


class Run:
    def __init__(self, url):
        self.url, self.passed, self.failed = url, 0, 0

    def check(self, name, operation, response, statuses):
        """`response` has one of `statuses` and conforms to `operation`'s responses."""
        problems = []
        status = response.status_code if response is not None else None
        if status not in statuses:
            problems.append(f"status {status}, expected {' or '.join(map(str, statuses))}")
        if response is not None:
            try:
                case = operation.Case()
                if operation is SIGNED:  # the path parameters, from the URL sent
                    signed, file = response.request.path_url.split("?")[0].split("/")[3:5]
                    case = operation.Case(path_parameters={"signed": signed, "file": file})
                case.validate_response(response, checks=CHECKS)
            except (Exception, BaseExceptionGroup) as failure:  # a FailureGroup: every check that failed
                problems.append(str(failure).strip())
        if problems:
            self.failed += 1
            print(f"statuses: FAIL {name}: " + "\n    ".join(problems))
        else:
            self.passed += 1
            print(f"statuses: ok   {name}: {status}")

    def post(self, query="", body=None, content_type="application/json", headers=None, **kwargs):
        data = json.dumps(OVAL if body is None else body).encode() if not isinstance(body, bytes) else body
        return requests.post(self.url + "/v1/render" + query, data=data,
                             headers={"Content-Type": content_type, **(headers or {})}, timeout=30, **kwargs)

    def get(self, path, **kwargs):
        return requests.get(self.url + path, timeout=30, **kwargs)


def raw(url, head, body, wait):
    """Sends a request head and part of its body over a socket, then waits for the response."""
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=wait + 10) as connection:
        connection.sendall(head + body)
        data = b""
        while b"\r\n\r\n" not in data or len(data) < data.index(b"\r\n\r\n") + 4 + content_length(data):
            chunk = connection.recv(65536)
            if not chunk:
                break
            data += chunk
    head_text, _, content = data.partition(b"\r\n\r\n")
    lines = head_text.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers.setdefault(name.strip().lower(), []).append(value.strip())
    request = requests.Request("POST", url + "/v1/render").prepare()
    return Response(status_code=int(lines[0].split()[1]), headers=headers, content=content, request=request,
                    elapsed=0.0, verify=False)


def content_length(data):
    match = re.search(rb"(?i)\r\ncontent-length:\s*(\d+)", data[: data.index(b"\r\n\r\n") + 2])
    return int(match.group(1)) if match else 0


def main(binary):
    log = tempfile.NamedTemporaryFile("w+", prefix="penumbra-statuses-", suffix=".log", delete=False)
    process, url = start_server(binary, log)
    run = Run(url)
    try:
        # 200 in each format, and from a multipart form with an image part; 304.
        for query, media_type in [("", "image/png"), ("?format=jpeg&quality=80", "image/jpeg"),
                                  ("?format=webp&scale=0.5&time=1&backend=cpu", "image/webp")]:
            response = run.post(query)
            run.check(f"POST {media_type}", RENDER, response, [200])
        scene = {"format": "penumbra-scene", "version": 1, "size": [8, 8], "images": {"dot": "part:dot"},
                 "ops": [{"op": "drawImage", "image": "dot", "rect": [0, 0, 8, 8]}]}
        response = requests.post(url + "/v1/render", timeout=30, files={
            "scene": ("scene.json", json.dumps(scene), "application/json"), "dot": ("dot.png", png(2, 2, [255, 0, 0, 255]), "image/png")})
        run.check("POST multipart with an image part", RENDER, response, [200])
        etag = run.post().headers.get("ETag", "")
        run.check("POST If-None-Match: its ETag", RENDER, run.post(headers={"If-None-Match": etag}), [304])
        # Refusals.
        run.check("POST a scene the decoder rejects", RENDER, run.post(body={"format": "penumbra-scene"}), [400])
        run.check("POST a repeated query parameter", RENDER, run.post("?format=png&format=png"), [400])
        run.check("POST a multipart form without scene", RENDER,
                  requests.post(url + "/v1/render", files={"x": ("x", b"1")}, timeout=30), [400])
        run.check("POST text/plain", RENDER, run.post(content_type="text/plain"), [415])
        run.check("POST backend=gpu on a CPU server", RENDER, run.post("?backend=gpu"), [503])
        run.check("POST a body over --max-body-bytes", RENDER, run.post(body=b"x" * 70000), [413])
        run.check("POST a render past the deadline", RENDER, run.post(body=SLOW), [504])
        # Three slow renders at once on one worker with a queue of one: one is refused.
        responses = []
        threads = [threading.Thread(target=lambda: responses.append(run.post(body=SLOW))) for _ in range(3)]
        for thread in threads:
            thread.start()
            time.sleep(0.05)
        for thread in threads:
            thread.join()
        refused = [r for r in responses if r.status_code == 429]
        run.check("POST with the queue full", RENDER, refused[0] if refused else responses[-1], [429])
        # A body that stops arriving: 408 at the deadline.
        head = (f"POST /v1/render HTTP/1.1\r\nHost: {url[7:]}\r\nContent-Type: application/json\r\n"
                "Content-Length: 1000\r\n\r\n").encode()
        run.check("POST a body cut short", RENDER, raw(url, head, b'{"format":', DEADLINE_MS / 1000), [408])

        # Signed URLs.
        path = signed_path(OVAL)
        response = run.get(path)
        run.check("GET a signed URL", SIGNED, response, [200])
        run.check("GET a signed URL, If-None-Match", SIGNED,
                  run.get(path, headers={"If-None-Match": response.headers.get("ETag", "")}), [304])
        run.check("GET a signed URL as JPEG", SIGNED, run.get(signed_path(OVAL, "jpg")), [200])
        run.check("GET a signed URL with a query", SIGNED, run.get(path + "?format=png"), [400])
        run.check("GET a signed URL, changed", SIGNED, run.get(path.replace(".png", ".jpg")), [403])
        run.check("GET a URL signed with another key", SIGNED, run.get(signed_path(OVAL, key=b"another key of 16+ bytes")), [403])
        run.check("GET an expired signed URL", SIGNED, run.get(signed_path(OVAL, expires=1000)), [410])
        run.check("GET a signed URL of another extension", SIGNED, run.get(path[:-4] + ".gif"), [404])
        run.check("GET a signed URL of the first format", SIGNED, run.get("/v1/render/" + "A" * 43 + "/e30.png"), [403])
        run.check("GET a signed URL of a rejected scene", SIGNED, run.get(signed_path({"format": "penumbra-scene"})), [400])
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            status = process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            status = "killed after 15 s"
        if status != 0:
            run.failed += 1
            print(f"statuses: FAIL the server exited {status} after SIGTERM, not 0 (its log: {log.name})")
        elif '"unexpected error"' in open(log.name).read():
            run.failed += 1
            print(f"statuses: FAIL the server logged unexpected errors (its log: {log.name})")
        else:
            os.unlink(log.name)
    print(f"{run.passed} passed, {run.failed} failed")
    return 1 if run.failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build/debug/penumbra")))
