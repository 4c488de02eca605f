"""A Python backend tested against `payment-gateway-sdk mock`, with the standard library only.

Run:  python3 examples/python/checkout_test.py
      from a project that installed payment-gateway-sdk (it runs node_modules/.bin/payment-gateway-sdk),
      or from a clone of the SDK after `npm run build` (it runs node dist/cli.js);
      MOCK_COMMAND="..." runs another command instead.

It starts the mock, reads the base URL from its first line, creates a QR_CASHIER order with a signed request,
pays it through the control API, receives the signed notification on a loopback endpoint, verifies its
signature, answers SUCCESS, and stops the mock with SIGINT.

The mock is started as the bin itself, not through `npx`: npx does not pass a signal on to the command it
runs, so the mock would keep running and holding its port. It also runs in a process group of its own,
and the signal goes to the whole group, so a wrapper given as MOCK_COMMAND stops with it.
"""
import functools
import hashlib
import http.server
import json
import os
import shlex
import signal
import subprocess
import sys
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


def mock_command() -> list:
    """The mock as its bin: the installed package's, or this clone's build."""
    if "MOCK_COMMAND" in os.environ:
        return shlex.split(os.environ["MOCK_COMMAND"])
    installed = os.path.join("node_modules", ".bin", "payment-gateway-sdk")
    if os.path.exists(installed):
        return [installed, "mock"]
    built = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "dist", "cli.js")
    if os.path.exists(built):
        return ["node", built, "mock"]
    sys.exit("payment-gateway-sdk is not installed here (npm install payment-gateway-sdk) and this clone is not built (npm run build)")


def stop(mock: subprocess.Popen) -> int:
    """SIGINT to the mock's whole process group; waits until no process of the group is left."""
    os.killpg(mock.pid, signal.SIGINT)
    try:
        code = mock.wait(timeout=10)
        deadline = time.monotonic() + 10
        while group_alive(mock.pid):  # a wrapper may exit before the mock it started
            if time.monotonic() > deadline:
                raise TimeoutError("the mock did not stop within 10 s of SIGINT")
            time.sleep(0.05)
        return code
    except BaseException:
        if group_alive(mock.pid):
            os.killpg(mock.pid, signal.SIGKILL)
        raise


def group_alive(group: int) -> bool:
    try:
        os.killpg(group, 0)
        return True
    except ProcessLookupError:
        return False


def main():
    notify = http.server.HTTPServer(("127.0.0.1", 0), NotifyHandler)
    threading.Thread(target=notify.serve_forever, daemon=True).start()
    command = [*mock_command(), "--port", "0", "--merchant", f"{MCH_NO}:{APP_ID}:{SECRET}"]
    mock = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, start_new_session=True)
    try:
        base = mock.stdout.readline().strip()  # the first line is the base URL alone
        if not base.startswith("http"):
            sys.exit(f"the mock did not start ({' '.join(command)}): {base!r}")
        print("mock gateway at", base)
        # Keep reading what it prints (its summary, its request log): a full pipe would block the mock.
        threading.Thread(target=mock.stdout.read, daemon=True).start()

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
        # Signed is not enough: the payment must be for this order, at the price the shop set.
        assert (fields["mchOrderNo"], fields["amount"], fields["currency"]) == (order["mchOrderNo"], str(order["amount"]), order["currency"]), fields
        print("notification verified: order", fields["mchOrderNo"], "paid,", fields["amount"], fields["currency"])

        state = json.loads(urllib.request.urlopen(f"{base}/_mock/state", timeout=10).read())
        assert state["notifications"][0]["state"] == "delivered", state["notifications"][0]
        print("the mock recorded:", state["notifications"][0]["attemptLog"][0]["reason"])
    finally:
        code = stop(mock)
        notify.shutdown()
    # The mock exits 0 on SIGINT; a wrapper given as MOCK_COMMAND may report the signal instead.
    assert code == 0 or "MOCK_COMMAND" in os.environ, f"the mock exited with {code}"
    print("mock stopped, exit code", code)


if __name__ == "__main__":
    main()
