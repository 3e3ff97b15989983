#!/usr/bin/env python3
"""The hostile-client attacks against a real `penumbra serve`, measured.

Starts the server (CPU backend, 2 workers, 10 s deadline, 127.0.0.1, a free
port), then for each attack of Tests/HostileScenes (and the ones made here:
text of 100,000 combining marks, a GIF announcing 100 frames of 2000 x 2000)
sends it, and reports: the status and the time it took; how long after that
answer a small render waits for a worker (the worker being free again); the
peak resident set while it ran (VmHWM, reset before each attack) and the
resident set two seconds after it, against the baseline after start-up.

    Tools/bench/attacks.py [--binary .build/release/penumbra] [--rounds 3]
    Tools/bench/attacks.py --deadlines [--rounds 10]

With --deadlines it measures instead how soon a worker is free after a deadline:
one worker, a 1 s deadline, the long attacks (the backdrop blur, the dashed
strokes without a geometry budget, twenty texts of 100,000 combining marks),
and after each 504 a small render that must wait for that worker.

Only loopback traffic; the server is stopped (SIGTERM) at the end, and how
long its shutdown took is reported too.
"""
import argparse
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCENES = os.path.join(ROOT, "Tests", "HostileScenes")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_kb(pid, field="VmRSS"):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def reset_peak(pid):
    try:
        with open(f"/proc/{pid}/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        pass


def post(port, body, content_type="application/json", timeout=60):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    started = time.monotonic()
    conn.request("POST", "/v1/render?format=png", body=body, headers={"Content-Type": content_type})
    response = conn.getresponse()
    data = response.read()
    conn.close()
    return response.status, time.monotonic() - started, data


def heap_in_use_mb(port):
    """The allocator's bytes in use (penumbra_heap_in_use_bytes of /metrics), in MiB."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", "/metrics")
    text = conn.getresponse().read().decode()
    for line in text.splitlines():
        if line.startswith("penumbra_heap_in_use_bytes"):
            return float(line.split()[-1]) / (1 << 20)
    return float("nan")


SMALL = json.dumps({"format": "penumbra-scene", "version": 1, "size": [16, 16],
                    "ops": [{"op": "fill", "path": {"rect": [2, 2, 8, 8]}}]}).encode()


def gif(frames, side):
    s = bytes([side & 255, side >> 8])
    out = b"GIF89a" + s + s + bytes([0x80, 0, 0, 0, 0, 0, 255, 255, 255])
    out += bytes([0x21, 0xFF, 11]) + b"NETSCAPE2.0" + bytes([3, 1, 0, 0, 0])
    for _ in range(frames):
        out += bytes([0x21, 0xF9, 4, 0, 10, 0, 0, 0]) + bytes([0x2C, 0, 0, 0, 0]) + s + s + bytes([0])
        out += bytes([2, 2, 0x4C, 0x01, 0])
    return out + bytes([0x3B])


def multipart(scene, files):
    boundary = "penumbraattack"
    parts = [f'--{boundary}\r\nContent-Disposition: form-data; name="scene"\r\n\r\n'.encode() + scene + b"\r\n"]
    for name, data in files.items():
        parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="{name}"\r\n'
                     f'Content-Type: application/octet-stream\r\n\r\n'.encode() + data + b"\r\n")
    return b"".join(parts) + f"--{boundary}--\r\n".encode(), f"multipart/form-data; boundary={boundary}"


def attacks():
    def scene(name):
        with open(os.path.join(SCENES, name), "rb") as f:
            return f.read(), "application/json"
    marks = "a" + "\u0301" * 99_999
    text = json.dumps({"format": "penumbra-scene", "version": 1, "size": [200, 100], "ops": [
        {"op": "drawText", "text": marks, "at": [10, 50], "font": {"family": "DejaVu Sans", "size": 20}}]}).encode()
    gif_scene = json.dumps({"format": "penumbra-scene", "version": 1, "size": [10, 10], "images": {"a": "part:anim"},
                            "ops": [{"op": "drawImage", "image": "a", "rect": [0, 0, 10, 10]}]}).encode()
    return [
        ("254-byte layer with a far shadow", *scene("shadow-layer-far-offset.json")),
        ("layer with shadow offset 8000", *scene("shadow-layer-offset-8000.json")),
        ("layer that must hold a far shadow", *scene("shadow-layer-unbounded.json")),
        ("1,000 strokes of 1e-9 dashes", *scene("dash-billion.json")),
        ("backdrop blur 256 over 4000 x 4000", *scene("backdrop-256.json")),
        ("a + 99,999 combining marks", text, "application/json"),
        ("GIF of 100 frames of 2000 x 2000", *multipart(gif_scene, {"anim": gif(100, 2000)})),
        ("64 nested layers on 10 MP", *scene("nested-layers-10mp.json")),
        ("a 100 MP render (not an attack: memory handed back)", json.dumps({
            "format": "penumbra-scene", "version": 1, "size": [10000, 10000], "background": "#FFFFFF",
            "ops": [{"op": "setFillColor", "color": "#3366CC"}, {"op": "fill", "path": {"ellipse": [100, 100, 9800, 9800]}}]}).encode(),
         "application/json"),
    ]


def start(binary, *flags):
    port = free_port()
    server = subprocess.Popen([binary, "serve", "--host", "127.0.0.1", "--port", str(port), "--backend", "cpu",
                               "--drain-seconds", "5", *flags], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(300):
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
            conn.request("GET", "/readyz")
            if conn.getresponse().status == 200:
                break
        except OSError:
            pass
        time.sleep(0.1)
    return server, port


def deadlines(binary, rounds):
    """One worker, a 1 s deadline and no geometry budget to speak of: each long attack is cut at
    its deadline, and a small render sent the moment the 504 arrives waits for that worker."""
    server, port = start(binary, "--workers", "1", "--timeout-ms", "1000", "--max-geometry-points", str(1 << 40),
                         "--max-path-segments", str(1 << 40))
    text_ops = [{"op": "drawText", "text": "a" + chr(0x300 + 1 + i) * 99_999, "at": [10, 50],
                 "font": {"family": "DejaVu Sans", "size": 20}} for i in range(20)]
    cases = [("backdrop blur 256 over 4000 x 4000", open(os.path.join(SCENES, "backdrop-256.json"), "rb").read()),
             ("1,000 strokes of 1e-9 dashes", open(os.path.join(SCENES, "dash-billion.json"), "rb").read()),
             ("20 x (a + 99,999 combining marks)", json.dumps({"format": "penumbra-scene", "version": 1,
                                                              "size": [200, 100], "ops": text_ops}).encode())]
    waits = []
    try:
        _, small_alone, _ = post(port, SMALL)
        print(f"one worker, 1 s deadline; a small render alone takes {small_alone * 1000:.1f} ms")
        print("| attack | status | answer (s) | next small render waits (ms) |")
        print("| --- | --- | --- | --- |")
        for name, body in cases:
            for _ in range(rounds):
                status, seconds, _ = post(port, body)
                _, small, _ = post(port, SMALL)
                waits.append(small * 1000)
                print(f"| {name} | {status} | {seconds:.2f} | {small * 1000:.1f} |")
                sys.stdout.flush()
        waits.sort()
        p99 = waits[min(len(waits) - 1, int(len(waits) * 0.99 + 0.999) - 1)]
        print(f"worker free again: median {waits[len(waits) // 2]:.1f} ms, p99 {p99:.1f} ms, max {waits[-1]:.1f} ms "
              f"over {len(waits)} deadlines")
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=60)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "penumbra"))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--deadlines", action="store_true", help="measure the time from a deadline to a free worker")
    args = parser.parse_args()
    if args.deadlines:
        deadlines(args.binary, args.rounds)
        return
    server, port = start(args.binary, "--workers", "2", "--timeout-ms", "10000")
    try:
        for _ in range(5):
            post(port, SMALL)
        baseline = rss_kb(server.pid)
        print(f"baseline resident set after start-up and 5 small renders: {baseline / 1024:.0f} MiB, "
              f"heap in use {heap_in_use_mb(port):.1f} MiB")
        print("| attack | status | answer (s) | next small render waits (ms) | peak RSS (MiB) | RSS 2 s after (MiB) | heap in use after (MiB) |")
        print("| --- | --- | --- | --- | --- | --- | --- |")
        for name, body, content_type in attacks():
            for _ in range(args.rounds):
                reset_peak(server.pid)
                status, seconds, data = post(port, body, content_type)
                _, small, _ = post(port, SMALL)
                peak = rss_kb(server.pid, "VmHWM")
                time.sleep(2)
                after = rss_kb(server.pid)
                detail = ""
                if status >= 400:
                    try:
                        detail = " " + json.loads(data).get("error", "")[:60]
                    except ValueError:
                        pass
                print(f"| {name} | {status}{detail} | {seconds:.2f} | {small * 1000:.1f} | {peak / 1024:.0f} | {after / 1024:.0f} "
                      f"| {heap_in_use_mb(port):.1f} |")
                sys.stdout.flush()
        started = time.monotonic()
        server.send_signal(signal.SIGTERM)
        code = server.wait(timeout=60)
        print(f"SIGTERM: exited {code} after {time.monotonic() - started:.2f} s")
    finally:
        if server.poll() is None:
            server.kill()


if __name__ == "__main__":
    main()
