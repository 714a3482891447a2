#!/usr/bin/env python3
"""A loopback CRL distribution point, for SigilHTTP's tests only.

Usage: crl_server.py DIRECTORY
Prints the port it listens on (127.0.0.1), then serves until stdin closes: GET /<name> returns
the file DIRECTORY/<name> (re-read on every request, so a test can replace a CRL) with
Content-Type application/pkix-crl, or 404. GET /__count returns how many CRL requests it served.
"""
import os, sys, threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

DIRECTORY = sys.argv[1]
COUNT = [0]


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_GET(self):
        if self.path == "/__count":
            body = str(COUNT[0]).encode()
        else:
            COUNT[0] += 1
            name = os.path.basename(self.path)
            file = os.path.join(DIRECTORY, name)
            if not name or not os.path.isfile(file):
                self.send_response(404)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            with open(file, "rb") as f:
                body = f.read()
        self.send_response(200)
        self.send_header("Content-Type", "application/pkix-crl")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
threading.Thread(target=server.serve_forever, daemon=True).start()
print(server.server_address[1], flush=True)
sys.stdin.read()
server.shutdown()
