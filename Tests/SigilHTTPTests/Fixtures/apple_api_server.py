#!/usr/bin/env python3
"""A loopback stand-in for Apple's App Store Server API, for SigilHTTP's tests only.

Usage: apple_api_server.py PUBLIC_KEY_PEM ISSUER BUNDLE_ID [JWKS_FILE TEAM_ID CLIENT_ID]
Prints the port it listens on (127.0.0.1), then serves until stdin closes.

Three of Apple's services on one port:
  App Store Server API + Retention Messaging (/inApps/...) and External Purchase Server API
  (/externalPurchase/v1/reports...): bearer token checked as below;
  Sign in with Apple (/auth/token, /auth/revoke, /auth/keys): the form body's client_secret is
  checked the same way (iss TEAM_ID, aud https://appleid.apple.com, sub CLIENT_ID, lifetime at most
  15777000 s); /auth/keys serves JWKS_FILE, re-read on every request so a test can rotate keys;
  the id_token returned is the content of JWKS_FILE + ".idtoken" when that file exists.

Every request's bearer token is checked independently of Sigil: header {alg ES256, kid, typ JWT},
claims iss / aud appstoreconnect-v1 / bid / iat / exp (exp - iat <= 3600), and the ES256
signature with the openssl CLI (raw r||s converted to DER here). A bad token gets 401. Each request
is logged (method, path, query, body, token verdict); GET /__log returns the log as JSON.
DeviceCheck (/v1/query_two_bits, /v1/update_two_bits, /v1/validate_device_token) and App Attest's
/v1/attestationData: token {alg ES256, kid} with iss TEAM_ID (else ISSUER) and a recent iat, checked
by openssl; bits kept per device token; receipts "asked-too-early" -> 304, "retention-over" -> 404.
Routes follow Apple's documented paths and bodies; a few identifiers script failures:
  missing -> 404 errorCode 4040010; error400 -> 400 {"errorCode":4000006,...}; unknown -> 400 errorCode 9990000;
  retryable -> 500 errorCode 5000001; ratelimit -> first 429 (Retry-After: 1) then 200;
  ratelimitlong -> 429 Retry-After: 120; slow -> 3 s delay; drop -> connection closed unanswered;
  big -> a 5 MB body.
Two environments on one port: a path under /sandbox (a client whose base URL ends in /sandbox) is
the sandbox API, any other the production API; each log entry names its "environment".
  sandboxonly -> 404 errorCode 4040010 in production, answered as usual in the sandbox.
"""
import base64, json, os, re, subprocess, sys, tempfile, threading, time, uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit, parse_qsl, unquote

PUBLIC_KEY, ISSUER, BUNDLE = sys.argv[1], sys.argv[2], sys.argv[3]
JWKS_FILE, TEAM, CLIENT = (sys.argv[4], sys.argv[5], sys.argv[6]) if len(sys.argv) > 6 else (None, None, None)
LOG = []
STATE = {"images": {}, "messages": {}, "defaults": {}, "realtime": None, "reports": {}, "bits": {}}
UUID_RE = re.compile(r"^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$")
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
    return check_jwt(authorization[7:], {"iss": ISSUER, "aud": "appstoreconnect-v1", "bid": BUNDLE}, 3600)


def check_device_token(authorization):
    # DeviceCheck and App Attest data: header {alg ES256, kid}, claims iss (the team: TEAM_ID when
    # given, else ISSUER) and iat within an hour of now, no exp required; the signature by openssl.
    if not authorization or not authorization.startswith("Bearer "):
        return "no bearer token"
    parts = authorization[7:].split(".")
    if len(parts) != 3:
        return "not three parts"
    header, claims = json.loads(b64url(parts[0])), json.loads(b64url(parts[1]))
    if header.get("alg") != "ES256" or not header.get("kid"):
        return "bad header %r" % header
    if claims.get("iss") != (TEAM or ISSUER) or not isinstance(claims.get("iat"), int) or abs(claims["iat"] - time.time()) > 3600:
        return "bad claims %r" % claims
    return verify_es256(parts)


def verify_es256(parts):
    signature = b64url(parts[2])
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


def check_jwt(token, expected, max_lifetime):
    parts = token.split(".")
    if len(parts) != 3:
        return "not three parts"
    header, claims = json.loads(b64url(parts[0])), json.loads(b64url(parts[1]))
    if header.get("alg") != "ES256" or header.get("typ") != "JWT" or not header.get("kid"):
        return "bad header %r" % header
    if any(claims.get(k) != v for k, v in expected.items()):
        return "bad claims %r" % claims
    if not isinstance(claims.get("iat"), int) or not isinstance(claims.get("exp"), int) or not 0 < claims["exp"] - claims["iat"] <= max_lifetime:
        return "bad times %r" % claims
    return verify_es256(parts)


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
        environment = "production"
        if url.path.startswith("/sandbox/"):
            environment = "sandbox"
            url = url._replace(path=url.path[len("/sandbox"):])
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        if url.path == "/__log":
            with LOCK:
                return self.reply(200, LOG)
        if url.path.startswith("/auth/"):
            return self.sign_in_with_apple(url, body)
        if url.path.startswith("/v1/"):
            return self.device_check(url.path, body)
        verdict = check_token(self.headers.get("Authorization"))
        with LOCK:
            LOG.append({"method": self.command, "path": url.path, "query": parse_qsl(url.query, keep_blank_values=True),
                        "body": body.decode("utf-8", "replace") if body else None, "token": verdict or "ok",
                        "contentType": self.headers.get("Content-Type"), "environment": environment})
        if verdict:
            return self.reply(401, {"errorMessage": verdict})
        segments = url.path.strip("/").split("/")
        last = segments[-1]
        query = dict(parse_qsl(url.query))
        for name in (last, segments[-2] if len(segments) > 1 else ""):
            if name == "error400":
                return self.reply(400, {"errorCode": 4000006, "errorMessage": "Invalid transaction id."})
            if name == "missing" or (name == "sandboxonly" and environment == "production"):
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
        if p.startswith("/inApps/v1/messaging/"):
            return self.retention_messaging(p[len("/inApps/v1/messaging/"):], query, body)
        if p.startswith("/advancedCommerce/v1/"):
            return self.advanced_commerce(p[len("/advancedCommerce/v1/"):], body)
        if p.startswith("/externalPurchase/v1/reports"):
            return self.external_purchase(p, body)
        return self.reply(404, {"errorCode": 4040010, "errorMessage": "Transaction id not found."})

    def device_check(self, path, body):
        # DeviceCheck (query/update two bits, validate device token) and App Attest's
        # attestationData refresh, with their tokens checked as check_device_token says.
        verdict = check_device_token(self.headers.get("Authorization"))
        with LOCK:
            LOG.append({"method": self.command, "path": path, "query": [], "body": body.decode("utf-8", "replace") if body else None,
                        "token": verdict or "ok", "contentType": self.headers.get("Content-Type")})
        if verdict:
            return self.reply_text(401, "Unable to verify authorization token")
        if path == "/v1/attestationData":
            try:
                receipt = base64.b64decode(body, validate=True)
            except Exception:
                return self.reply_text(400, "Malformed receipt")
            if receipt == b"asked-too-early":
                return self.reply_text(304, "")
            if receipt == b"retention-over":
                return self.reply_text(404, "")
            return self.reply_text(200, base64.b64encode(b"refreshed:" + receipt).decode())
        try:
            request = json.loads(body)
            token, transaction, stamp = request["device_token"], request["transaction_id"], request["timestamp"]
            uuid.UUID(transaction)
            base64.b64decode(token, validate=True)
            assert isinstance(stamp, int) and abs(stamp / 1000 - time.time()) < 3600
        except Exception:
            return self.reply_text(400, "Missing or incorrectly formatted device token payload")
        if token == base64.b64encode(b"unknown-device").decode():
            return self.reply_text(400, "Missing or incorrectly formatted device token payload")
        if path == "/v1/validate_device_token":
            return self.reply_text(200, "")
        if path == "/v1/update_two_bits":
            if not isinstance(request.get("bit0"), bool) or not isinstance(request.get("bit1"), bool):
                return self.reply_text(400, "Missing or incorrectly formatted bits")
            with LOCK:
                STATE["bits"][token] = (request["bit0"], request["bit1"])
            return self.reply_text(200, "")
        if path == "/v1/query_two_bits":
            with LOCK:
                bits = STATE["bits"].get(token)
            if bits is None:
                return self.reply_text(200, "Failed to find bit state")
            return self.reply(200, {"bit0": bits[0], "bit1": bits[1], "last_update_time": time.strftime("%Y-%m", time.gmtime())})
        return self.reply_text(404, "Not found")

    def reply_text(self, status, text):
        data = text.encode()
        self.send_response(status)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def advanced_commerce(self, rest, body):
        # Apple's six server operations: POST, a JSON body with requestInfo.requestReferenceId (a
        # UUID), answered with the signed data of the changed transaction.
        parts = rest.split("/")
        operations = {("subscription", "cancel"), ("subscription", "revoke"), ("subscription", "changeMetadata"),
                      ("subscription", "changePrice"), ("subscription", "migrate"), ("transaction", "requestRefund")}
        if len(parts) != 3 or (parts[0], parts[1]) not in operations or self.command != "POST":
            return self.reply(404, {"errorCode": 4040001, "errorMessage": "Not found."})
        try:
            request = json.loads(body)
            uuid.UUID(request["requestInfo"]["requestReferenceId"])
        except Exception:
            return self.reply(400, {"errorCode": 4000000, "errorMessage": "Malformed payload."})
        signed = {"signedTransactionInfo": "ac-" + parts[1] + "-" + parts[2]}
        if parts[0] == "subscription":
            signed["signedRenewalInfo"] = "ac-renewal-" + parts[2]
        return self.reply(200, signed)

    def retention_messaging(self, rest, query, body):
        parts, method = rest.split("/"), self.command
        if parts == ["image", "list"] and method == "GET":
            return self.reply(200, {"imageIdentifiers": [{"imageIdentifier": k, "imageState": "PENDING", "imageSize": v}
                                                         for k, v in sorted(STATE["images"].items())]})
        if len(parts) == 2 and parts[0] == "image":
            ident = parts[1]
            if not UUID_RE.match(ident) or ident != ident.upper():
                return self.reply(400, {"errorCode": 4000000, "errorMessage": "image identifier must be an upper-case UUID"})
            if method == "PUT":
                if self.headers.get("Content-Type") != "image/png" or not body.startswith(b"\x89PNG\r\n\x1a\n"):
                    return self.reply(400, {"errorCode": 4000161, "errorMessage": "Invalid image."})
                if query.get("imageSize", "FULL_SIZE") not in ("FULL_SIZE", "BULLET_POINT"):
                    return self.reply(400, {"errorCode": 4000216, "errorMessage": "Invalid image size."})
                if ident in STATE["images"]:
                    return self.reply(409, {"errorCode": 4090000, "errorMessage": "Image already exists."})
                STATE["images"][ident] = query.get("imageSize", "FULL_SIZE")
                return self.reply(200)
            if method == "DELETE":
                if STATE["images"].pop(ident, None) is None:
                    return self.reply(404, {"errorCode": 4040014, "errorMessage": "Image not found."})
                return self.reply(200)
        if parts == ["message", "list"] and method == "GET":
            return self.reply(200, {"messageIdentifiers": [{"messageIdentifier": k, "messageState": "PENDING"} for k in sorted(STATE["messages"])]})
        if len(parts) == 2 and parts[0] == "message":
            ident = parts[1]
            if method == "PUT":
                doc = json.loads(body)
                if len(doc.get("header", "")) > 66:
                    return self.reply(400, {"errorCode": 4000162, "errorMessage": "Header too long."})
                STATE["messages"][ident] = doc
                return self.reply(200)
            if method == "DELETE":
                if STATE["messages"].pop(ident, None) is None:
                    return self.reply(404, {"errorCode": 4040015, "errorMessage": "Message not found."})
                return self.reply(200)
        if len(parts) == 3 and parts[0] == "default":
            key = (unquote(parts[1]), unquote(parts[2]))
            if method == "PUT":
                STATE["defaults"][key] = json.loads(body)["messageIdentifier"]
                return self.reply(200)
            if method == "DELETE":
                STATE["defaults"].pop(key, None)
                return self.reply(200)
            if method == "GET":
                if key not in STATE["defaults"]:
                    return self.reply(404, {"errorCode": 4040020, "errorMessage": "Default message not found."})
                return self.reply(200, {"messageIdentifier": STATE["defaults"][key]})
        if parts == ["realtime", "url"]:
            if method == "PUT":
                STATE["realtime"] = json.loads(body)["realtimeURL"]
                return self.reply(200)
            if method == "DELETE":
                STATE["realtime"] = None
                return self.reply(200)
            if STATE["realtime"] is None:
                return self.reply(404, {"errorCode": 4040021, "errorMessage": "Realtime URL not found."})
            return self.reply(200, {"realtimeURL": STATE["realtime"]})
        config = {"maxConcurrentRequests": 10, "totalRequests": 100, "totalDuration": 60000, "responseTimeThreshold": 500, "successRateThreshold": 95}
        if parts == ["performanceTest"] and method == "POST":
            return self.reply(200, {"config": config, "requestId": "perf-" + json.loads(body)["originalTransactionId"]})
        if len(parts) == 3 and parts[:2] == ["performanceTest", "result"]:
            return self.reply(200, {"config": config, "target": STATE["realtime"] or "", "result": "FAIL", "successRate": 50, "numPending": 0,
                                    "responseTimes": {"average": 1, "p50": 1, "p90": 2, "p95": 3, "p99": 4},
                                    "failures": {"TIMED_OUT": 3, "SOMETHING_NEW": 2}})
        return self.reply(404, {"errorCode": 4040015, "errorMessage": "Message not found."})

    def external_purchase(self, path, body):
        rest = path[len("/externalPurchase/v1/reports"):]
        if rest == "" and self.command == "PUT":
            report = json.loads(body)
            errors = []
            if not UUID_RE.match(report.get("requestIdentifier", "")):
                errors.append({"field": "requestIdentifier", "error": "OmittedFieldError"})
            status, items = report.get("status"), report.get("lineItems")
            if status not in ("LINE_ITEM", "NO_LINE_ITEM", "UNRECOGNIZED_TOKEN", "DUPLICATE_TOKEN"):
                errors.append({"field": "status", "error": "UnknownEnumError"})
            if status == "LINE_ITEM" and not items:
                errors.append({"field": "lineItems", "error": "MissingLineItemsForStatusError"})
            if status != "LINE_ITEM" and items is not None:
                errors.append({"field": "lineItems", "error": "LineItemsNotAllowedForStatusError"})
            for item in items or []:
                if item.get("eventType") == "BUY" and item.get("amountTaxInclusive") != item.get("amountTaxExclusive", 0) + item.get("taxAmount", 0):
                    errors.append({"lineItemId": item.get("lineItemId"), "field": "amountTaxInclusive", "error": "IncorrectAmountTaxInclusiveError"})
            if errors:
                return self.reply(400, {"errors": errors})
            STATE["reports"][report["requestIdentifier"]] = report
            return self.reply(200, {"requestIdentifier": report["requestIdentifier"]})
        if rest.startswith("/") and self.command == "GET":
            report = STATE["reports"].get(rest[1:])
            return self.reply(200, report) if report else self.reply(404)
        return self.reply(405)

    def sign_in_with_apple(self, url, body):
        form = dict(parse_qsl(body.decode(), keep_blank_values=True)) if body else {}
        with LOCK:
            LOG.append({"method": self.command, "path": url.path, "query": [], "body": body.decode() if body else None,
                        "token": "ok", "contentType": self.headers.get("Content-Type"), "form": form})
        if url.path == "/auth/keys" and self.command == "GET":
            with open(JWKS_FILE, "rb") as f:
                return self.reply(200, f.read())
        if self.command != "POST" or self.headers.get("Content-Type") != "application/x-www-form-urlencoded":
            return self.reply(400, {"error": "invalid_request", "error_description": "form POST expected"})
        if form.get("client_id") != CLIENT:
            return self.reply(400, {"error": "invalid_client"})
        verdict = check_jwt(form.get("client_secret", ""), {"iss": TEAM, "aud": "https://appleid.apple.com", "sub": CLIENT}, 15777000)
        if verdict:
            return self.reply(400, {"error": "invalid_client", "error_description": verdict})
        if url.path == "/auth/revoke":
            if not form.get("token") or form.get("token_type_hint") not in (None, "access_token", "refresh_token"):
                return self.reply(400, {"error": "invalid_request"})
            return self.reply(200)
        if url.path != "/auth/token":
            return self.reply(404)
        id_token = "id-token"
        if os.path.exists(JWKS_FILE + ".idtoken"):
            with open(JWKS_FILE + ".idtoken") as f:
                id_token = f.read().strip()
        grant = form.get("grant_type")
        if grant == "authorization_code":
            code = form.get("code")
            if not code:
                return self.reply(400, {"error": "invalid_request"})
            if code == "expired-code":
                return self.reply(400, {"error": "invalid_grant", "error_description": "The code has expired or has been revoked."})
            if code == "odd-error":
                return self.reply(400, {"error": "brand_new_error"})
            return self.reply(200, {"access_token": "access-" + code, "expires_in": 3600, "id_token": id_token,
                                    "refresh_token": "refresh-" + code, "token_type": "Bearer"})
        if grant == "refresh_token":
            if not form.get("refresh_token") or "code" in form or "redirect_uri" in form:
                return self.reply(400, {"error": "invalid_request"})
            return self.reply(200, {"access_token": "access-refreshed", "expires_in": 3600, "id_token": id_token, "token_type": "Bearer"})
        return self.reply(400, {"error": "unsupported_grant_type"})

    do_GET = do_POST = do_PUT = do_DELETE = handle_any


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
print(server.server_address[1], flush=True)
threading.Thread(target=server.serve_forever, daemon=True).start()
sys.stdin.read()
server.shutdown()
