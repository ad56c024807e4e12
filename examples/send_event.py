"""Send one tool_routing_decision and its tool_call_outcome to Routelens (standard library only).

    ROUTELENS_API_KEY=rl_... python3 examples/send_event.py   # ROUTELENS_URL defaults to http://localhost:3000
"""
import datetime, json, os, urllib.error, urllib.request, uuid

url = os.environ.get("ROUTELENS_URL", "http://localhost:3000").rstrip("/") + "/api/ingest"
now = datetime.datetime.now(datetime.timezone.utc).isoformat()
run_id = "run-" + uuid.uuid4().hex[:12]
decision = {"type": "tool_routing_decision", "event_id": str(uuid.uuid4()), "timestamp": now,
            "run_id": run_id, "role": "action", "mode": "observe", "iteration": 0, "turn_hop_index": 0,
            "offered": ["hydrate_context", "search_orders", "refund_order"],
            "selected": ["hydrate_context", "search_orders"], "forced_choice": None,
            "dropped_tokens": 9, "trace": [], "warnings": [], "agent": "my-python-agent"}
outcome = {"type": "tool_call_outcome", "event_id": str(uuid.uuid4()), "timestamp": now,
           "run_id": run_id, "role": "action", "iteration": 0, "called": ["refund_order"]}
body = json.dumps({"batch": [decision, outcome]}).encode()
headers = {"Authorization": "Bearer " + os.environ["ROUTELENS_API_KEY"], "Content-Type": "application/json"}
try:
    with urllib.request.urlopen(urllib.request.Request(url, body, headers), timeout=10) as response:
        print(response.status, response.read().decode())  # 200, or 207 with per-event errors
except urllib.error.HTTPError as error:  # 400, 401, 413, 415, 503: the body says why
    raise SystemExit(f"{error.code} {error.read().decode()}")
