#!/usr/bin/env python3
"""A loopback static file server, for the Scripts/get-vectors download test only.

Usage: static_server.py DIRECTORY
Prints the port it listens on (127.0.0.1), then serves until stdin closes: GET /<path> returns the
file DIRECTORY/<path> (no directory listings, nothing outside DIRECTORY), or 404.
"""
import os, sys, threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import unquote

ROOT = os.path.realpath(sys.argv[1])


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_GET(self):
        path = os.path.realpath(os.path.join(ROOT, unquote(self.path.split("?", 1)[0]).lstrip("/")))
        if not path.startswith(ROOT + os.sep) or not os.path.isfile(path):
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        with open(path, "rb") as f:
            body = f.read()
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
threading.Thread(target=server.serve_forever, daemon=True).start()
sys.stdin.read()
server.shutdown()
