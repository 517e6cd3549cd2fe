"""A webhook receiver for the change-event tests (test_events.py, the console's event-sinks
test): a real HTTP server on loopback, in the test's process."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Receiver:
    """A webhook endpoint: answers `status` (settable) and keeps what it accepted, in order."""

    def __init__(self) -> None:
        self.status = 200
        self.delay = 0.0
        self.accepted: list[dict] = []  # {"event", "headers", "body"}
        self.refused = 0
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                time.sleep(receiver.delay)
                with receiver.lock:
                    status = receiver.status
                    if status == 200:
                        receiver.accepted.append({"event": json.loads(body),
                                                  "headers": dict(self.headers), "body": body})
                    else:
                        receiver.refused += 1
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/hook"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def events(self) -> list[dict]:
        with self.lock:
            return [a["event"] for a in self.accepted]

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
