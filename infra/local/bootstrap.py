#!/usr/bin/env python3
# Usage: "$PASTEBIN_CACHE_DIR"/localstack-venv/bin/python infra/local/bootstrap.py [--template infra/template.yaml]
"""Create the upload queue, its dead-letter queue, the paste bucket, the moderation outbox queue and its dead-letter
queue, the abuse notification topic, the database secret and the reporters' key secret in LocalStack, idempotently.

infra/template.yaml is the one source of truth for their attributes: this script loads it (understanding
CloudFormation's short-form tags such as !Ref and !GetAtt), resolves the values it needs (a !Ref to a
Parameter becomes the parameter's Default), and applies them to LocalStack. Existing resources are
brought in line with the template (SetQueueAttributes, PutBucketEncryption, ...), so a re-run after a
template change converges.

Local names and the endpoint come from the environment (defaults as in infra/local/lib.sh):
LOCALSTACK_ENDPOINT, AWS_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, PASTEBIN_STORAGE_BUCKET,
PASTEBIN_UPLOAD_QUEUE, PASTEBIN_UPLOAD_DLQ, PASTEBIN_MODERATION_OUTBOX, PASTEBIN_MODERATION_OUTBOX_DLQ,
PASTEBIN_ABUSE_TOPIC, PASTEBIN_REPORT_ADDRESS_KEY_SECRET. When PASTEBIN_UPLOAD_QUEUE_URL / PASTEBIN_UPLOAD_DLQ_URL are
set (export_app_env), the URLs LocalStack returns must equal them, or the script fails.

The database secret (PASTEBIN_DATABASE_SECRET_NAME, default pastebin-local-db) holds the local
PostgreSQL credentials (PASTEBIN_DB_USER, PASTEBIN_DB_PASSWORD) as the JSON an RDS-managed secret has, for
functions run the way they run on AWS, with PASTEBIN_DATABASE_SECRET_ID set (`sam local invoke` with
infra/local/sam-local-env.json).

The reporters' key secret (PASTEBIN_REPORT_ADDRESS_KEY_SECRET, default pastebin-local-report-address-key) stands for
the template's ReportAddressKeySecret: the report function reads its HMAC key from it at start, on AWS as locally. Its
value, LOCAL_REPORT_ADDRESS_KEY, is a key for local runs only; the template generates a key per stack.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import sys
from pathlib import Path

import boto3
import yaml
from botocore.config import Config
from botocore.exceptions import ClientError

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_TEMPLATE = ROOT / "infra" / "template.yaml"

# Logical ids in infra/template.yaml.
UPLOAD_QUEUE = "UploadQueue"
DEAD_LETTER_QUEUE = "UploadDeadLetterQueue"
PASTE_BUCKET = "PasteBucket"
OUTBOX_QUEUE = "ModerationOutboxQueue"
OUTBOX_DEAD_LETTER_QUEUE = "ModerationOutboxDeadLetterQueue"

#: The reporters' HMAC key in local runs only (docs/operating.md, "Configuration"); never a deployed stack's.
LOCAL_REPORT_ADDRESS_KEY = "local-report-address-key"

# CloudFormation AWS::SQS::Queue property -> SQS queue attribute, for the attributes applied locally.
QUEUE_ATTRIBUTES = {
    "VisibilityTimeout": "VisibilityTimeout",
    "MessageRetentionPeriod": "MessageRetentionPeriod",
    "MaximumMessageSize": "MaximumMessageSize",
    "ReceiveMessageWaitTimeSeconds": "ReceiveMessageWaitTimeSeconds",
    "DelaySeconds": "DelaySeconds",
    "SqsManagedSseEnabled": "SqsManagedSseEnabled",
}


# --------------------------------------------------------------------------------------------------
# Template loading
# --------------------------------------------------------------------------------------------------
class CfnLoader(yaml.SafeLoader):
    """SafeLoader that turns CloudFormation short-form tags into their long (JSON) form."""


def _construct_tag(loader: yaml.Loader, tag_suffix: str, node: yaml.Node):
    if isinstance(node, yaml.ScalarNode):
        value = loader.construct_scalar(node)
    elif isinstance(node, yaml.SequenceNode):
        value = loader.construct_sequence(node, deep=True)
    else:
        value = loader.construct_mapping(node, deep=True)
    if tag_suffix == "Ref":
        return {"Ref": value}
    if tag_suffix == "Condition":
        return {"Condition": value}
    if tag_suffix == "GetAtt" and isinstance(value, str):
        resource, _, attribute = value.partition(".")
        value = [resource, attribute]
    return {f"Fn::{tag_suffix}": value}


CfnLoader.add_multi_constructor("!", _construct_tag)


def load_template(path: Path) -> dict:
    with path.open(encoding="utf-8") as f:
        return yaml.load(f, Loader=CfnLoader)  # noqa: S506 - CfnLoader is a SafeLoader


class Resolver:
    """Resolves the intrinsic functions this script meets to concrete local values."""

    def __init__(self, template: dict, pseudo: dict[str, str], arns: dict[str, str], refs: dict[str, str]):
        self.parameters = template.get("Parameters") or {}
        self.pseudo = pseudo  # AWS::Region, AWS::AccountId, ...
        self.arns = arns  # logical id -> local ARN (for !GetAtt X.Arn)
        self.refs = refs  # logical id -> local physical id (for !Ref Resource)

    def ref(self, name: str):
        if name in self.pseudo:
            return self.pseudo[name]
        if name in self.parameters:
            param = self.parameters[name]
            if "Default" not in param:
                raise SystemExit(f"bootstrap: parameter {name} has no Default in the template")
            value = param["Default"]
            if param.get("Type") == "Number":
                value = int(value) if re.fullmatch(r"-?\d+", str(value)) else float(value)
            return value
        if name in self.refs:
            return self.refs[name]
        raise SystemExit(f"bootstrap: cannot resolve !Ref {name} locally")

    def resolve(self, value):
        if isinstance(value, list):
            return [self.resolve(v) for v in value]
        if not isinstance(value, dict):
            return value
        if len(value) == 1:
            (key, arg), = value.items()
            if key == "Ref":
                return self.ref(arg)
            if key == "Fn::GetAtt":
                resource, attribute = arg if isinstance(arg, list) else arg.split(".", 1)
                if attribute == "Arn" and resource in self.arns:
                    return self.arns[resource]
                raise SystemExit(f"bootstrap: cannot resolve !GetAtt {resource}.{attribute} locally")
            if key == "Fn::Sub":
                text, variables = (arg, {}) if isinstance(arg, str) else (arg[0], self.resolve(arg[1]))

                def substitute(m: re.Match) -> str:
                    name = m.group(1)
                    if name.startswith("!"):
                        return "${" + name[1:] + "}"
                    if name in variables:
                        return str(variables[name])
                    if "." in name:
                        return str(self.resolve({"Fn::GetAtt": name.split(".", 1)}))
                    return str(self.ref(name))

                return re.sub(r"\$\{([^}]+)\}", substitute, text)
            if key == "Fn::Join":
                sep, items = arg
                return sep.join(str(v) for v in self.resolve(items))
            if key.startswith("Fn::"):
                raise SystemExit(f"bootstrap: {key} is not supported locally")
        return {k: self.resolve(v) for k, v in value.items()}


def resource_properties(template: dict, logical_id: str, expected_type: str) -> dict:
    resources = template.get("Resources") or {}
    if logical_id not in resources:
        raise SystemExit(f"bootstrap: {logical_id} is missing from the template's Resources")
    resource = resources[logical_id]
    if resource.get("Type") != expected_type:
        raise SystemExit(f"bootstrap: {logical_id} is {resource.get('Type')}, expected {expected_type}")
    return resource.get("Properties") or {}


def as_attribute(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (dict, list)):
        return json.dumps(value, separators=(",", ":"))
    return str(value)


# --------------------------------------------------------------------------------------------------
# LocalStack
# --------------------------------------------------------------------------------------------------
def ensure_queue(sqs, name: str, attributes: dict[str, str]) -> str:
    try:
        url = sqs.get_queue_url(QueueName=name)["QueueUrl"]
        sqs.set_queue_attributes(QueueUrl=url, Attributes=attributes)
        print(f"bootstrap: queue {name} exists; attributes set from the template", file=sys.stderr)
    except ClientError as e:
        if e.response["Error"]["Code"] not in ("AWS.SimpleQueueService.NonExistentQueue", "QueueDoesNotExist"):
            raise
        url = sqs.create_queue(QueueName=name, Attributes=attributes)["QueueUrl"]
        print(f"bootstrap: queue {name} created", file=sys.stderr)
    actual = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["All"])["Attributes"]
    mismatched = {k: (v, actual.get(k)) for k, v in attributes.items() if not _same_attribute(k, v, actual.get(k))}
    if mismatched:
        raise SystemExit(f"bootstrap: queue {name} did not take the template's attributes: {mismatched}")
    return url


def _same_attribute(key: str, wanted: str, actual: str | None) -> bool:
    if actual is None:
        return False
    if key == "RedrivePolicy":
        a, b = json.loads(wanted), json.loads(actual)
        return str(a.get("deadLetterTargetArn")) == str(b.get("deadLetterTargetArn")) and int(
            a.get("maxReceiveCount")
        ) == int(b.get("maxReceiveCount"))
    return wanted.lower() == actual.lower()


def ensure_bucket(s3, name: str, region: str, properties: dict) -> None:
    try:
        s3.head_bucket(Bucket=name)
        print(f"bootstrap: bucket {name} exists", file=sys.stderr)
    except ClientError as e:
        if e.response["Error"]["Code"] not in ("404", "NoSuchBucket", "NotFound"):
            raise
        kwargs = {"Bucket": name}
        if region != "us-east-1":
            kwargs["CreateBucketConfiguration"] = {"LocationConstraint": region}
        s3.create_bucket(**kwargs)
        print(f"bootstrap: bucket {name} created", file=sys.stderr)
    encryption = properties.get("BucketEncryption")
    if encryption:
        # CloudFormation says ServerSideEncryptionByDefault where the S3 API says ApplyServerSideEncryptionByDefault.
        rules = [
            {("ApplyServerSideEncryptionByDefault" if k == "ServerSideEncryptionByDefault" else k): v for k, v in r.items()}
            for r in encryption["ServerSideEncryptionConfiguration"]
        ]
        s3.put_bucket_encryption(Bucket=name, ServerSideEncryptionConfiguration={"Rules": rules})
    block = properties.get("PublicAccessBlockConfiguration")
    if block:
        s3.put_public_access_block(Bucket=name, PublicAccessBlockConfiguration=block)
    ownership = properties.get("OwnershipControls")
    if ownership:
        s3.put_bucket_ownership_controls(Bucket=name, OwnershipControls=ownership)


def ensure_notifications(s3, name: str, properties: dict) -> None:
    """The bucket's event notifications as the template's NotificationConfiguration has them (large pastes' staged
    files notify the upload queue), in the S3 API's shape. PutBucketNotificationConfiguration replaces the whole
    configuration, so running it again is idempotent."""
    notification = properties.get("NotificationConfiguration") or {}
    queues = []
    for q in notification.get("QueueConfigurations", []):
        rules = q.get("Filter", {}).get("S3Key", {}).get("Rules", [])
        entry = {"QueueArn": q["Queue"], "Events": [q["Event"]]}
        if rules:
            entry["Filter"] = {"Key": {"FilterRules": [{"Name": r["Name"], "Value": r["Value"]} for r in rules]}}
        queues.append(entry)
    s3.put_bucket_notification_configuration(
        Bucket=name, NotificationConfiguration={"QueueConfigurations": queues} if queues else {})
    print(f"bootstrap: bucket {name} notifies {[q['QueueArn'] for q in queues]}", file=sys.stderr)


def ensure_cors(s3, name: str, properties: dict) -> None:
    """The bucket's CORS rules as the template's CorsConfiguration has them (the web page PUTs large files to their
    pre-signed URLs), in the S3 API's shape: CloudFormation's ExposedHeaders and MaxAge are ExposeHeaders and
    MaxAgeSeconds there. PutBucketCors replaces the whole configuration, so running it again is idempotent."""
    rules = (properties.get("CorsConfiguration") or {}).get("CorsRules", [])
    if not rules:
        s3.delete_bucket_cors(Bucket=name)
        return
    renamed = {"ExposedHeaders": "ExposeHeaders", "MaxAge": "MaxAgeSeconds", "Id": "ID"}
    s3.put_bucket_cors(Bucket=name, CORSConfiguration={
        "CORSRules": [{renamed.get(k, k): v for k, v in rule.items()} for rule in rules]})
    print(f"bootstrap: bucket {name} allows CORS {[r['AllowedMethods'] for r in rules]}", file=sys.stderr)


def ensure_secret(secretsmanager, name: str, value: str) -> None:
    try:
        secretsmanager.create_secret(Name=name, SecretString=value)
        print(f"bootstrap: secret {name} created", file=sys.stderr)
    except ClientError as e:
        if e.response["Error"]["Code"] != "ResourceExistsException":
            raise
        if secretsmanager.get_secret_value(SecretId=name).get("SecretString") != value:
            secretsmanager.put_secret_value(SecretId=name, SecretString=value)
            print(f"bootstrap: secret {name} updated", file=sys.stderr)
        else:
            print(f"bootstrap: secret {name} exists", file=sys.stderr)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--template", type=Path, default=DEFAULT_TEMPLATE)
    args = parser.parse_args()

    endpoint = os.environ.get("LOCALSTACK_ENDPOINT", "http://127.0.0.1:4566")
    region = os.environ.get("AWS_REGION", "us-east-1")
    account = os.environ.get("LOCALSTACK_ACCOUNT_ID", "000000000000")
    bucket = os.environ.get("PASTEBIN_STORAGE_BUCKET", "pastebin-pastes")
    queue_name = os.environ.get("PASTEBIN_UPLOAD_QUEUE", "pastebin-uploads")
    dlq_name = os.environ.get("PASTEBIN_UPLOAD_DLQ", "pastebin-uploads-dlq")
    outbox_name = os.environ.get("PASTEBIN_MODERATION_OUTBOX", "pastebin-moderation-outbox")
    outbox_dlq_name = os.environ.get("PASTEBIN_MODERATION_OUTBOX_DLQ", "pastebin-moderation-outbox-dlq")
    topic_name = os.environ.get("PASTEBIN_ABUSE_TOPIC", "pastebin-abuse-notifications")
    secret_name = os.environ.get("PASTEBIN_DATABASE_SECRET_NAME", "pastebin-local-db")
    report_key_secret = os.environ.get("PASTEBIN_REPORT_ADDRESS_KEY_SECRET", "pastebin-local-report-address-key")
    db_credentials = json.dumps({"username": os.environ.get("PASTEBIN_DB_USER", "pastebin"),
                                 "password": os.environ.get("PASTEBIN_DB_PASSWORD", "pastebin")})
    session = boto3.session.Session(
        aws_access_key_id=os.environ.get("AWS_ACCESS_KEY_ID", "test"),
        aws_secret_access_key=os.environ.get("AWS_SECRET_ACCESS_KEY", "test"),
        region_name=region,
    )
    config = Config(s3={"addressing_style": "path"}, retries={"max_attempts": 3, "mode": "standard"})
    sqs = session.client("sqs", endpoint_url=endpoint, config=config)
    s3 = session.client("s3", endpoint_url=endpoint, config=config)
    secretsmanager = session.client("secretsmanager", endpoint_url=endpoint, config=config)
    sns = session.client("sns", endpoint_url=endpoint, config=config)

    template = load_template(args.template)
    arn = lambda name: f"arn:aws:sqs:{region}:{account}:{name}"  # noqa: E731
    resolver = Resolver(
        template,
        pseudo={"AWS::Region": region, "AWS::AccountId": account, "AWS::Partition": "aws"},
        arns={UPLOAD_QUEUE: arn(queue_name), DEAD_LETTER_QUEUE: arn(dlq_name), PASTE_BUCKET: f"arn:aws:s3:::{bucket}",
              OUTBOX_QUEUE: arn(outbox_name), OUTBOX_DEAD_LETTER_QUEUE: arn(outbox_dlq_name)},
        refs={PASTE_BUCKET: bucket},
    )

    def queue_attributes(logical_id: str) -> dict[str, str]:
        props = resolver.resolve(resource_properties(template, logical_id, "AWS::SQS::Queue"))
        attrs = {attr: as_attribute(props[prop]) for prop, attr in QUEUE_ATTRIBUTES.items() if prop in props}
        if "RedrivePolicy" in props:
            policy = props["RedrivePolicy"]
            attrs["RedrivePolicy"] = as_attribute(
                {"deadLetterTargetArn": policy["deadLetterTargetArn"], "maxReceiveCount": int(policy["maxReceiveCount"])}
            )
        return attrs

    dlq_attrs = queue_attributes(DEAD_LETTER_QUEUE)
    queue_attrs = queue_attributes(UPLOAD_QUEUE)
    dlq_url = ensure_queue(sqs, dlq_name, dlq_attrs)
    actual_dlq_arn = sqs.get_queue_attributes(QueueUrl=dlq_url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
    if actual_dlq_arn != arn(dlq_name):
        raise SystemExit(f"bootstrap: the DLQ's ARN is {actual_dlq_arn}, expected {arn(dlq_name)}")
    queue_url = ensure_queue(sqs, queue_name, queue_attrs)
    bucket_properties = resolver.resolve(resource_properties(template, PASTE_BUCKET, "AWS::S3::Bucket"))
    ensure_bucket(s3, bucket, region, bucket_properties)
    ensure_notifications(s3, bucket, bucket_properties)
    ensure_cors(s3, bucket, bucket_properties)
    ensure_secret(secretsmanager, secret_name, db_credentials)
    ensure_secret(secretsmanager, report_key_secret, LOCAL_REPORT_ADDRESS_KEY)
    # the moderation outbox (takedown invalidations, report notifications) and its DLQ, as the template has them
    outbox_dlq_url = ensure_queue(sqs, outbox_dlq_name, queue_attributes(OUTBOX_DEAD_LETTER_QUEUE))
    outbox_url = ensure_queue(sqs, outbox_name, queue_attributes(OUTBOX_QUEUE))
    # the abuse notification topic (CreateTopic is idempotent); the template's SSE key is AWS-managed, not local
    topic_arn = sns.create_topic(Name=topic_name)["TopicArn"]

    for var, url in (("PASTEBIN_UPLOAD_QUEUE_URL", queue_url), ("PASTEBIN_UPLOAD_DLQ_URL", dlq_url)):
        expected = os.environ.get(var)
        if expected and expected != url:
            raise SystemExit(f"bootstrap: LocalStack returned {url} but {var}={expected}")

    print(f"bootstrap: {UPLOAD_QUEUE} attributes: {queue_attrs}", file=sys.stderr)
    print(f"bootstrap: {DEAD_LETTER_QUEUE} attributes: {dlq_attrs}", file=sys.stderr)
    print(f"PASTEBIN_STORAGE_BUCKET={bucket}")
    print(f"PASTEBIN_UPLOAD_QUEUE_URL={queue_url}")
    print(f"PASTEBIN_UPLOAD_DLQ_URL={dlq_url}")
    print(f"PASTEBIN_MODERATION_OUTBOX_URL={outbox_url}")
    print(f"PASTEBIN_MODERATION_OUTBOX_DLQ_URL={outbox_dlq_url}")
    print(f"PASTEBIN_ABUSE_TOPIC_ARN={topic_arn}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
