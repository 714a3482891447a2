#!/usr/bin/env python3
"""A loopback stand-in for Apple's App Store Server API, for SigilHTTP's tests only.

Usage: apple_api_server.py PUBLIC_KEY_PEM ISSUER BUNDLE_ID
Prints the port it listens on (127.0.0.1), then serves until stdin closes.

Every request's bearer token is checked independently of Sigil: header {alg ES256, kid, typ JWT},
claims iss / aud appstoreconnect-v1 / bid / iat / exp (exp - iat <= 3600), and the ES256
signature with the openssl CLI (raw r||s converted to DER here). A bad token gets 401. Each request
is logged (method, path, query, body, token verdict); GET /__log returns the log as JSON.
Routes follow Apple's documented paths and bodies; a few identifiers script failures:
  missing -> 404 errorCode 4040010; error400 -> 400 {"errorCode":4000006,...}; unknown -> 400 errorCode 9990000;
  retryable -> 500 errorCode 5000001; ratelimit -> first 429 (Retry-After: 1) then 200;
  ratelimitlong -> 429 Retry-After: 120; slow -> 3 s delay; drop -> connection closed unanswered;
  big -> a 5 MB body.
"""
import base64, json, os, subprocess, sys, tempfile, threading, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit, parse_qsl

PUBLIC_KEY, ISSUER, BUNDLE = sys.argv[1], sys.argv[2], sys.argv[3]
LOG = []
LOCK = threading.Lock()
RATE = {"count": 0}


def b64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def der_integer(value):
    value = value.lstrip(b"\0") or b"\0"
    if value[0] & 0x80:
        value = b"\0" + value
    return b"\x02" + bytes([len(value)]) + value


def check_token(authorization):
    if not authorization or not authorization.startswith("Bearer "):
        return "no bearer token"
    parts = authorization[7:].split(".")
    if len(parts) != 3:
        return "not three parts"
    header, claims, signature = json.loads(b64url(parts[0])), json.loads(b64url(parts[1])), b64url(parts[2])
    if header.get("alg") != "ES256" or header.get("typ") != "JWT" or not header.get("kid"):
        return "bad header %r" % header
    if claims.get("iss") != ISSUER or claims.get("aud") != "appstoreconnect-v1" or claims.get("bid") != BUNDLE:
        return "bad claims %r" % claims
    if not isinstance(claims.get("iat"), int) or not isinstance(claims.get("exp"), int) or not 0 < claims["exp"] - claims["iat"] <= 3600:
        return "bad times %r" % claims
    if len(signature) != 64:
        return "signature is not 64 bytes"
    body = der_integer(signature[:32]) + der_integer(signature[32:])
    der = b"\x30" + bytes([len(body)]) + body
    with tempfile.NamedTemporaryFile(delete=False) as sig, tempfile.NamedTemporaryFile(delete=False) as data:
        sig.write(der)
        data.write((parts[0] + "." + parts[1]).encode())
    try:
        result = subprocess.run(["openssl", "dgst", "-sha256", "-verify", PUBLIC_KEY, "-signature", sig.name, data.name],
                                capture_output=True)
    finally:
        os.unlink(sig.name)
        os.unlink(data.name)
    return None if result.returncode == 0 else "signature does not verify"


def history_page(revision, key):
    if revision in (None, ""):
        return {"revision": "r1", "hasMore": True, "bundleId": BUNDLE, "appAppleId": 1234, "environment": "Sandbox", key: ["t1", "t2"]}
    if revision == "r1":
        return {"revision": "r2", "hasMore": False, "bundleId": BUNDLE, "appAppleId": 1234, "environment": "Sandbox", key: ["t3"]}
    return None


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def reply(self, status, payload=None, headers=None):
        data = b"" if payload is None else (payload if isinstance(payload, bytes) else json.dumps(payload).encode())
        self.send_response(status)
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def handle_any(self):
        url = urlsplit(self.path)
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        if url.path == "/__log":
            with LOCK:
                return self.reply(200, LOG)
        verdict = check_token(self.headers.get("Authorization"))
        with LOCK:
            LOG.append({"method": self.command, "path": url.path, "query": parse_qsl(url.query, keep_blank_values=True),
                        "body": body.decode() if body else None, "token": verdict or "ok",
                        "contentType": self.headers.get("Content-Type")})
        if verdict:
            return self.reply(401, {"errorMessage": verdict})
        segments = url.path.strip("/").split("/")
        last = segments[-1]
        query = dict(parse_qsl(url.query))
        for name in (last, segments[-2] if len(segments) > 1 else ""):
            if name == "error400":
                return self.reply(400, {"errorCode": 4000006, "errorMessage": "Invalid transaction id."})
            if name == "missing":
                return self.reply(404, {"errorCode": 4040010, "errorMessage": "Transaction id not found."})
            if name == "unknown":
                return self.reply(400, {"errorCode": 9990000, "errorMessage": "Testing error."})
            if name == "retryable":
                return self.reply(500, {"errorCode": 5000001, "errorMessage": "An unknown retryable error occurred."})
            if name == "ratelimit":
                with LOCK:
                    RATE["count"] += 1
                    first = RATE["count"] % 2 == 1
                if first:
                    return self.reply(429, {"errorCode": 4290000, "errorMessage": "Rate limit exceeded."}, {"Retry-After": "1"})
                return self.reply(200, {"signedTransactionInfo": "after-retry"})
            if name == "ratelimitlong":
                return self.reply(429, {"errorCode": 4290000, "errorMessage": "Rate limit exceeded."}, {"Retry-After": "120"})
            if name == "slow":
                time.sleep(3)
                return self.reply(200, {"signedTransactionInfo": "slow"})
            if name == "drop":
                self.close_connection = True
                self.connection.shutdown(2)
                return
            if name == "big":
                return self.reply(200, b'{"signedTransactionInfo":"' + b"x" * 5_000_000 + b'"}')
        p = url.path
        if p.startswith("/inApps/v1/transactions/appTransactions/"):
            return self.reply(200, {"signedAppTransactionInfo": "app-" + last})
        if p.endswith("/appAccountToken") and self.command == "PUT":
            return self.reply(200)
        if p.endswith("/finish") and self.command == "POST":
            return self.reply(200)
        if p.startswith("/inApps/v1/transactions/consumption/") or p.startswith("/inApps/v2/transactions/consumption/"):
            return self.reply(202)
        if p.startswith("/inApps/v1/transactions/"):
            return self.reply(200, {"signedTransactionInfo": "signed-" + last})
        if p.startswith("/inApps/v2/history/") or p.startswith("/inApps/v1/history/"):
            page = history_page(query.get("revision"), "signedTransactions")
            return self.reply(200, page) if page else self.reply(400, {"errorCode": 4000005, "errorMessage": "Invalid request revision."})
        if p.startswith("/inApps/v2/refund/lookup/"):
            page = history_page(query.get("revision"), "signedTransactions")
            return self.reply(200, {k: page[k] for k in ("revision", "hasMore", "signedTransactions")})
        if p.startswith("/inApps/v1/subscriptions/extend/mass/"):
            return self.reply(200, {"requestIdentifier": last, "complete": True, "completeDate": 1698148900000, "succeededCount": 30, "failedCount": 2})
        if p == "/inApps/v1/subscriptions/extend/mass":
            return self.reply(200, {"requestIdentifier": json.loads(body)["requestIdentifier"]})
        if p.startswith("/inApps/v1/subscriptions/extend/"):
            return self.reply(200, {"originalTransactionId": last, "webOrderLineItemId": "9993", "success": True, "effectiveDate": 1698148900000})
        if p.startswith("/inApps/v1/subscriptions/"):
            return self.reply(200, {"environment": "Sandbox", "bundleId": BUNDLE, "appAppleId": 5454545, "data": [
                {"subscriptionGroupIdentifier": "g1", "lastTransactions": [
                    {"status": 1, "originalTransactionId": last, "signedTransactionInfo": "st", "signedRenewalInfo": "sr"}]}]})
        if p.startswith("/inApps/v1/lookup/"):
            return self.reply(200, {"status": 0, "signedTransactions": ["o1"]})
        if p == "/inApps/v1/notifications/test":
            return self.reply(200, {"testNotificationToken": "ce3af791-365e-4c60-841b-1674b43c1609"})
        if p.startswith("/inApps/v1/notifications/test/"):
            return self.reply(200, {"signedPayload": "sp", "sendAttempts": [{"attemptDate": 1698148900000, "sendAttemptResult": "SUCCESS"}]})
        if p == "/inApps/v1/notifications/history":
            token = query.get("paginationToken")
            if token is None:
                return self.reply(200, {"paginationToken": "p2", "hasMore": True, "notificationHistory": [{"signedPayload": "n1", "sendAttempts": []}]})
            if token == "p2":
                return self.reply(200, {"paginationToken": "p3", "hasMore": False, "notificationHistory": [{"signedPayload": "n2", "sendAttempts": []}]})
            return self.reply(400, {"errorCode": 4000014, "errorMessage": "Invalid pagination token."})
        return self.reply(404, {"errorCode": 4040010, "errorMessage": "Transaction id not found."})

    do_GET = do_POST = do_PUT = do_DELETE = handle_any


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
print(server.server_address[1], flush=True)
threading.Thread(target=server.serve_forever, daemon=True).start()
sys.stdin.read()
server.shutdown()
