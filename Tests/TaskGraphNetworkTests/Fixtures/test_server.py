#!/usr/bin/env python3
"""HTTP server for the download tests: 127.0.0.1, an ephemeral port printed on the first line of
stdout. Exits when stdin closes (the test process ended) or after 10 minutes, whichever is first.

Usage: test_server.py [--files DIR] [--lifetime SECONDS]
  --files DIR           the directory /slow-file serves from (default: none, /slow-file is 404)
  --lifetime SECONDS    exit after this long even if stdin stays open (default 600)

Routes:
  /bytes/N              N bytes of the pattern i % 251, with Content-Length
  /status/CODE          that status, a short body
  /flaky/KEY            500 twice for each KEY, then 200 "recovered after 2 failures\n"
  /busy/KEY             503 with Retry-After: 1 once for each KEY, then 200 "ready\n"
  /redirect-once        302 to /bytes/100
  /redirect-loop        302 to itself
  /redirect-file        302 to file:///etc/passwd
  /drip/N/MS            Content-Length N, one byte every MS milliseconds
  /short                Content-Length 100, sends 40 bytes, closes
  /stream/N             N bytes with no Content-Length, ended by closing the connection
  /auth                 200 "welcome\n" with "Authorization: Bearer s3cret", else 401
  /slow-file/MS/NAME    the file NAME in --files DIR (no "/" in NAME), in 16 chunks with MS
                        milliseconds before each, with Content-Length: a download lasting 16 * MS
  /versioned/KEY/MODE   the content of KEY ("first\n" until changed) with the validators MODE
                        names: both, etag, last-modified or none; ETag "vN" and Last-Modified a
                        minute later for each version N. 304 to a matching If-None-Match (else
                        If-Modified-Since not before Last-Modified). Counted per KEY.
  /set/KEY/TEXT         makes TEXT and a newline the content of KEY, as a new version
  /count/KEY            how many requests /versioned/KEY/... has had, as text
"""
import argparse
import email.utils
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

counters = {}
counters_lock = threading.Lock()
files_directory = None
versions = {}  # KEY -> (version, content), under counters_lock


def current_version(key):
    with counters_lock:
        return versions.get(key, (1, b"first\n"))


def set_version(key, content):
    with counters_lock:
        version, _ = versions.get(key, (1, b"first\n"))
        versions[key] = (version + 1, content)


def count(key):
    with counters_lock:
        counters[key] = counters.get(key, 0) + 1
        return counters[key]


def pattern(n):
    return bytes(i % 251 for i in range(n))


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def reply(self, status, body=b"", headers=()):
        self.send_response(status)
        self.send_header("Content-Length", str(len(body)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        parts = self.path.strip("/").split("/")
        route, args = parts[0], parts[1:]
        try:
            if route == "bytes":
                self.reply(200, pattern(int(args[0])))
            elif route == "status":
                self.reply(int(args[0]), b"status body\n")
            elif route == "flaky":
                if count("flaky/" + args[0]) <= 2:
                    self.reply(500, b"broken\n")
                else:
                    self.reply(200, b"recovered after 2 failures\n")
            elif route == "busy":
                if count("busy/" + args[0]) <= 1:
                    self.reply(503, b"busy\n", [("Retry-After", "1")])
                else:
                    self.reply(200, b"ready\n")
            elif route == "redirect-once":
                self.reply(302, headers=[("Location", "/bytes/100")])
            elif route == "redirect-loop":
                self.reply(302, headers=[("Location", "/redirect-loop")])
            elif route == "redirect-file":
                self.reply(302, headers=[("Location", "file:///etc/passwd")])
            elif route == "drip":
                self.drip(int(args[0]), int(args[1]) / 1000)
            elif route == "short":
                self.send_response(200)
                self.send_header("Content-Length", "100")
                self.send_header("Connection", "close")
                self.end_headers()
                self.wfile.write(pattern(40))
                self.close_connection = True
            elif route == "stream":
                self.send_response(200)
                self.send_header("Connection", "close")
                self.end_headers()
                remaining = int(args[0])
                while remaining > 0:
                    chunk = min(remaining, 65536)
                    self.wfile.write(pattern(chunk))
                    remaining -= chunk
                self.close_connection = True
            elif route == "slow-file":
                self.slow_file(int(args[0]) / 1000, "/".join(args[1:]))
            elif route == "versioned":
                self.versioned(args[0], args[1])
            elif route == "set":
                set_version(args[0], args[1].encode() + b"\n")
                self.reply(200, b"set\n")
            elif route == "count":
                with counters_lock:
                    self.reply(200, str(counters.get("versioned/" + args[0], 0)).encode())
            elif route == "auth":
                if self.headers.get("Authorization") == "Bearer s3cret":
                    self.reply(200, b"welcome\n")
                else:
                    self.reply(401, b"who are you?\n")
            else:
                self.reply(404, b"no such route\n")
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True

    def versioned(self, key, mode):
        count("versioned/" + key)
        version, content = current_version(key)
        etag = '"v%d"' % version
        modified = 1_700_000_000 + 60 * version
        headers = []
        if mode in ("both", "etag"):
            headers.append(("ETag", etag))
        if mode in ("both", "last-modified"):
            headers.append(("Last-Modified", email.utils.formatdate(modified, usegmt=True)))
        if_none_match = self.headers.get("If-None-Match")
        if_modified_since = self.headers.get("If-Modified-Since")
        if mode in ("both", "etag") and if_none_match is not None:
            not_modified = if_none_match == etag
        elif mode in ("both", "last-modified") and if_modified_since is not None:
            since = email.utils.parsedate_to_datetime(if_modified_since).timestamp()
            not_modified = modified <= since
        else:
            not_modified = False
        self.reply(304 if not_modified else 200, b"" if not_modified else content, headers)

    def drip(self, length, interval):
        self.send_response(200)
        self.send_header("Content-Length", str(length))
        self.end_headers()
        for _ in range(length):
            self.wfile.write(b"x")
            self.wfile.flush()
            time.sleep(interval)

    def slow_file(self, interval, name):
        if files_directory is None or not name or "/" in name or name.startswith("."):
            self.reply(404, b"no such file\n")
            return
        try:
            with open(os.path.join(files_directory, name), "rb") as file:
                body = file.read()
        except OSError:
            self.reply(404, b"no such file\n")
            return
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        chunks = 16
        for index in range(chunks):
            time.sleep(interval)
            self.wfile.write(body[len(body) * index // chunks:len(body) * (index + 1) // chunks])
            self.wfile.flush()


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        # A client that aborts a transfer (the cancellation tests) resets its connection: quiet.
        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)


def exit_when_stdin_closes():
    sys.stdin.buffer.read()
    os._exit(0)


def main():
    global files_directory
    parser = argparse.ArgumentParser(description="HTTP server for the download tests.")
    parser.add_argument("--files", help="the directory /slow-file serves from")
    parser.add_argument("--lifetime", type=float, default=600, help="seconds before exiting anyway")
    arguments = parser.parse_args()
    files_directory = arguments.files
    server = Server(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    threading.Thread(target=exit_when_stdin_closes, daemon=True).start()
    threading.Timer(arguments.lifetime, lambda: os._exit(0)).start()
    server.serve_forever()


if __name__ == "__main__":
    main()
