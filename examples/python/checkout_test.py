"""A Python backend tested against `npx payment-gateway-sdk mock`, with the standard library only.

Run:  python3 examples/python/checkout_test.py
      (MOCK_COMMAND="node dist/cli.js mock" to use a local build instead of npx)

It starts the mock, reads the base URL from its first line, creates a QR_CASHIER order with a signed request,
pays it through the control API, receives the signed notification on a loopback endpoint, verifies its
signature, answers SUCCESS, and stops the mock with SIGINT.
"""
import functools
import hashlib
import http.server
import json
import os
import shlex
import signal
import subprocess
import threading
import time
import urllib.parse
import urllib.request

MCH_NO, APP_ID, SECRET = "M1700000001", "app-python", "python-test-secret"


def java_case_insensitive(a: str, b: str) -> int:
    """Java's String.CASE_INSENSITIVE_ORDER, which the gateway sorts the key=value& fragments with.
    (Compares UTF-16 units; this sketch compares code points, the same for the BMP.)"""
    for x, y in zip(a, b):
        if x != y:
            x, y = x.upper(), y.upper()
            if x != y:
                x, y = x.lower(), y.lower()
                if x != y:
                    return ord(x) - ord(y)
    return len(a) - len(b)


def sign(params: dict, secret: str) -> str:
    fragments = [f"{k}={v}&" for k, v in params.items() if k != "sign" and v is not None and v != ""]
    fragments.sort(key=functools.cmp_to_key(java_case_insensitive))
    return hashlib.md5(("".join(fragments) + "key=" + secret).encode("utf-8")).hexdigest().upper()


def post_json(url: str, body: dict) -> dict:
    request = urllib.request.Request(url, json.dumps(body).encode(), {"content-type": "application/json"}, method="POST")
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


received = []


class NotifyHandler(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        fields = dict(urllib.parse.parse_qsl(self.rfile.read(int(self.headers["content-length"])).decode(), keep_blank_values=True))
        ok = fields.get("sign") == sign(fields, SECRET) and fields.get("mchNo") == MCH_NO
        received.append((ok, fields))
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b"SUCCESS" if ok else b"FAIL")  # exactly SUCCESS, nothing else

    def log_message(self, *args):
        pass


def main():
    notify = http.server.HTTPServer(("127.0.0.1", 0), NotifyHandler)
    threading.Thread(target=notify.serve_forever, daemon=True).start()
    command = shlex.split(os.environ.get("MOCK_COMMAND", "npx payment-gateway-sdk mock"))
    mock = subprocess.Popen([*command, "--port", "0", "--merchant", f"{MCH_NO}:{APP_ID}:{SECRET}"], stdout=subprocess.PIPE, text=True)
    try:
        base = mock.stdout.readline().strip()  # the first line is the base URL alone
        print("mock gateway at", base)

        order = {"mchNo": MCH_NO, "appId": APP_ID, "mchOrderNo": f"py-{int(time.time() * 1000)}", "wayCode": "QR_CASHIER",
                 "amount": 1999, "currency": "USD", "subject": "T-shirt", "body": "Blue, M",
                 "notifyUrl": f"http://127.0.0.1:{notify.server_port}/notify",
                 "reqTime": str(int(time.time() * 1000)), "version": "1.0.1", "signType": "MD5"}
        order["sign"] = sign(order, SECRET)
        created = post_json(f"{base}/api/pay/unifiedOrder", order)
        assert created["code"] == 200, created
        assert created["sign"] == sign(created["data"], SECRET), "the answer's signature does not verify"
        pay_order_id = created["data"]["payOrderId"]
        print("created", pay_order_id, "- the payer would open", created["data"]["payData"])

        post_json(f"{base}/_mock/orders/{pay_order_id}/pay", {})  # the payer pays
        for _ in range(100):
            if received:
                break
            time.sleep(0.05)
        ok, fields = received[0]
        assert ok and fields["payOrderId"] == pay_order_id and fields["state"] == "2", fields
        print("notification verified: order", fields["mchOrderNo"], "paid,", fields["amount"], fields["currency"])

        state = json.loads(urllib.request.urlopen(f"{base}/_mock/state", timeout=10).read())
        assert state["notifications"][0]["state"] == "delivered", state["notifications"][0]
        print("the mock recorded:", state["notifications"][0]["attemptLog"][0]["reason"])
    finally:
        mock.send_signal(signal.SIGINT)
        mock.wait(timeout=10)
        notify.shutdown()


if __name__ == "__main__":
    main()
