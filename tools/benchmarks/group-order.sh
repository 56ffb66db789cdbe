#!/usr/bin/env bash
# Does the queue engine deliver a quiet message group ahead of a noisy one's backlog, as SQS fair queues do
# (docs/scale.md, "One client's backlog: fair queues")? On a standard queue of its own: one client's N jobs are sent
# first in group "heavy", then 10 in group "light"; everything is received and deleted in batches of 10, and the
# light group's positions in the order of delivery are printed (a queue that orders by group puts them early; one
# that does not, after the backlog). Not part of the test command; needs `make up`. The queue is deleted after.
#
# Usage: tools/benchmarks/group-order.sh [--heavy 100]
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../../infra/local/lib.sh"

heavy=100
while [[ $# -gt 0 ]]; do
    case "$1" in
        --heavy) heavy="$2"; shift 2 ;;
        *) die "unknown option $1; usage: tools/benchmarks/group-order.sh [--heavy 100]" ;;
    esac
done

export_app_env
HEAVY="$heavy" "$LOCALSTACK_VENV/bin/python" - <<'PY'
import os, time, boto3
sqs = boto3.client("sqs", endpoint_url=os.environ["AWS_ENDPOINT_URL"], region_name=os.environ["AWS_REGION"])
heavy = int(os.environ["HEAVY"])
url = sqs.create_queue(QueueName="group-order-%d" % int(time.time() * 1000))["QueueUrl"]
try:
    for start in range(0, heavy, 10):
        sqs.send_message_batch(QueueUrl=url, Entries=[
            {"Id": str(i), "MessageBody": "heavy-%d" % (start + i), "MessageGroupId": "heavy"}
            for i in range(min(10, heavy - start))])
    sqs.send_message_batch(QueueUrl=url, Entries=[
        {"Id": str(i), "MessageBody": "light-%d" % i, "MessageGroupId": "light"} for i in range(10)])
    order = []
    while True:
        messages = sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10, WaitTimeSeconds=1).get("Messages", [])
        if not messages:
            break
        order += [m["Body"] for m in messages]
        sqs.delete_message_batch(QueueUrl=url, Entries=[
            {"Id": str(i), "ReceiptHandle": m["ReceiptHandle"]} for i, m in enumerate(messages)])
    light = [i for i, body in enumerate(order) if body.startswith("light")]
    print("| heavy jobs sent first | light jobs | delivered | light group's positions (from 0) |")
    print("|---:|---:|---:|---|")
    print("| %d | 10 | %d | %s |" % (heavy, len(order), ", ".join(map(str, light))))
finally:
    sqs.delete_queue(QueueUrl=url)
PY
