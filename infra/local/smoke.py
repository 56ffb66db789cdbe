#!/usr/bin/env python3
# Usage: "$PASTEBIN_CACHE_DIR"/localstack-venv/bin/python infra/local/smoke.py  -- checks LocalStack does what the design relies on.
"""Smoke check of the LocalStack behaviour the pastebin relies on (run after `infra/local/up`).

SQS, on a throw-away queue pair made with the template's attributes (the real queues are left alone):
  - ReceiveMessage with all system attributes reports ApproximateReceiveCount (1, then 2, ...);
  - ChangeMessageVisibility(2 s) delays the redelivery by 2 to 2.5 s (LocalStack alone re-queues on a 1 s tick;
    the project's init hook localstack-init/ready.d/sqs_requeue_tick.py makes it 100 ms);
  - after the template's maxReceiveCount receives the message moves to the dead-letter queue.
S3, on the real bucket: PutObject / GetObject path-style through the LocalStack endpoint, with SSE.
Also checks that the real upload queue carries the template's attributes.
"""
from __future__ import annotations

import json
import os
import sys
import time
import uuid
from pathlib import Path

import boto3
from botocore.config import Config

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bootstrap  # noqa: E402  (same directory)

ENDPOINT = os.environ.get("LOCALSTACK_ENDPOINT", "http://127.0.0.1:4566")
REGION = os.environ.get("AWS_REGION", "us-east-1")
BUCKET = os.environ.get("PASTEBIN_STORAGE_BUCKET", "pastebin-pastes")
QUEUE = os.environ.get("PASTEBIN_UPLOAD_QUEUE", "pastebin-uploads")

checks: list[tuple[str, bool, str]] = []


def check(name: str, ok: bool, detail: str = "") -> None:
    checks.append((name, ok, detail))
    print(f"  [{'ok' if ok else 'FAIL'}] {name}{': ' + detail if detail else ''}")


def receive(sqs, url: str, wait: int = 0):
    msgs = sqs.receive_message(
        QueueUrl=url, MaxNumberOfMessages=1, WaitTimeSeconds=wait,
        MessageSystemAttributeNames=["All"], MessageAttributeNames=["All"],
    ).get("Messages", [])
    return msgs[0] if msgs else None


def main() -> int:
    session = boto3.session.Session(
        aws_access_key_id=os.environ.get("AWS_ACCESS_KEY_ID", "test"),
        aws_secret_access_key=os.environ.get("AWS_SECRET_ACCESS_KEY", "test"),
        region_name=REGION,
    )
    cfg = Config(s3={"addressing_style": "path"}, retries={"max_attempts": 1})
    sqs = session.client("sqs", endpoint_url=ENDPOINT, config=cfg)
    s3 = session.client("s3", endpoint_url=ENDPOINT, config=cfg)

    template = bootstrap.load_template(bootstrap.DEFAULT_TEMPLATE)
    resolver = bootstrap.Resolver(template, pseudo={}, arns={"UploadDeadLetterQueue": "dlq"}, refs={})
    props = resolver.resolve(bootstrap.resource_properties(template, "UploadQueue", "AWS::SQS::Queue"))
    max_receive = int(props["RedrivePolicy"]["maxReceiveCount"])

    print("SQS: real upload queue")
    url = sqs.get_queue_url(QueueName=QUEUE)["QueueUrl"]
    attrs = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["All"])["Attributes"]
    for prop in ("VisibilityTimeout", "MessageRetentionPeriod", "MaximumMessageSize", "ReceiveMessageWaitTimeSeconds"):
        check(f"{QUEUE} {prop}", attrs.get(prop) == str(props[prop]), f"{attrs.get(prop)} (template {props[prop]})")
    redrive = json.loads(attrs.get("RedrivePolicy", "{}"))
    check(f"{QUEUE} RedrivePolicy", int(redrive.get("maxReceiveCount", -1)) == max_receive
          and redrive.get("deadLetterTargetArn", "").endswith(":" + os.environ.get("PASTEBIN_UPLOAD_DLQ", "pastebin-uploads-dlq")),
          json.dumps(redrive))

    print(f"SQS: throw-away queue pair (maxReceiveCount {max_receive})")
    suffix = uuid.uuid4().hex[:8]
    dlq_url = sqs.create_queue(QueueName=f"pastebin-smoke-dlq-{suffix}")["QueueUrl"]
    dlq_arn = sqs.get_queue_attributes(QueueUrl=dlq_url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
    q_url = sqs.create_queue(QueueName=f"pastebin-smoke-{suffix}", Attributes={
        "VisibilityTimeout": str(props["VisibilityTimeout"]),
        "MessageRetentionPeriod": str(props["MessageRetentionPeriod"]),
        "MaximumMessageSize": str(props["MaximumMessageSize"]),
        "RedrivePolicy": json.dumps({"deadLetterTargetArn": dlq_arn, "maxReceiveCount": max_receive}),
    })["QueueUrl"]
    try:
        body = json.dumps({"shortCode": "smoke" + suffix})
        sqs.send_message(QueueUrl=q_url, MessageBody=body)
        m = receive(sqs, q_url, wait=2)
        check("receive returns the message with ApproximateReceiveCount=1",
              m is not None and m["Attributes"].get("ApproximateReceiveCount") == "1",
              str(m and m["Attributes"]))
        check("ApproximateFirstReceiveTimestamp and SentTimestamp present",
              m is not None and "ApproximateFirstReceiveTimestamp" in m["Attributes"] and "SentTimestamp" in m["Attributes"])
        check("invisible while its visibility timeout runs", receive(sqs, q_url) is None)
        sqs.change_message_visibility(QueueUrl=q_url, ReceiptHandle=m["ReceiptHandle"], VisibilityTimeout=2)
        t0 = time.monotonic()
        check("still invisible right after ChangeMessageVisibility(2)", receive(sqs, q_url) is None)
        m2 = None
        while m2 is None and time.monotonic() - t0 < 10:
            m2 = receive(sqs, q_url, wait=1)
        delay = time.monotonic() - t0
        check("redelivered 2 to 2.5 s after ChangeMessageVisibility(2)", m2 is not None and 1.9 <= delay <= 2.5,
              f"{delay:.2f} s")
        check("ApproximateReceiveCount=2 on redelivery", m2 is not None and m2["Attributes"]["ApproximateReceiveCount"] == "2")
        count = 2
        m = m2
        while m is not None and count < max_receive:
            sqs.change_message_visibility(QueueUrl=q_url, ReceiptHandle=m["ReceiptHandle"], VisibilityTimeout=0)
            m = receive(sqs, q_url, wait=1)
            if m is not None:
                count = int(m["Attributes"]["ApproximateReceiveCount"])
        check(f"received {max_receive} times", count == max_receive, f"last count {count}")
        if m is not None:
            sqs.change_message_visibility(QueueUrl=q_url, ReceiptHandle=m["ReceiptHandle"], VisibilityTimeout=0)
        after = receive(sqs, q_url, wait=1)
        check(f"not delivered a {max_receive + 1}th time from the source queue", after is None,
              str(after and after["Attributes"]))
        dead = receive(sqs, dlq_url, wait=2)
        check("moved to the dead-letter queue, body intact", dead is not None and dead["Body"] == body,
              str(dead and dead["Attributes"]))
    finally:
        sqs.delete_queue(QueueUrl=q_url)
        sqs.delete_queue(QueueUrl=dlq_url)

    print("S3: path-style put/get on the real bucket")
    key = f"smoke/{uuid.uuid4().hex}.txt"
    data = "hello from smoke.py\n".encode()
    seen_urls: list[str] = []
    s3.meta.events.register("before-send.s3.*", lambda request, **_: seen_urls.append(request.url))
    put = s3.put_object(Bucket=BUCKET, Key=key, Body=data, ContentType="text/plain; charset=utf-8")
    got = s3.get_object(Bucket=BUCKET, Key=key)
    check("GetObject returns what PutObject stored", got["Body"].read() == data)
    check("path-style URL on the endpoint", all(u.startswith(f"{ENDPOINT}/{BUCKET}/") for u in seen_urls),
          seen_urls[0] if seen_urls else "no request seen")
    check("server-side encryption applied", put.get("ServerSideEncryption") == "AES256", str(put.get("ServerSideEncryption")))
    s3.delete_object(Bucket=BUCKET, Key=key)

    failed = [c for c in checks if not c[1]]
    print(f"smoke: {len(checks) - len(failed)} of {len(checks)} checks passed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
