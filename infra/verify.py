#!/usr/bin/env python3
"""infra/admin verify: proves a deployed stack (or `make run`) works end to end, one row per check.

Run through infra/admin (docs/operating.md, "Verify a deployed stack"):

    infra/admin --stack NAME verify [--read-timeout S] [--notify-timeout S]
    infra/admin --local verify [--api URL] [--read-timeout S]

Prints a table (check, PASS/FAIL/SKIP, detail) on stdout, progress on stderr, and exits 1 when any row is FAIL.

On AWS everything it knows of the stack comes from the `aws` CLI (describe-stacks, list-stack-resources, CloudWatch
and SQS calls, with the caller's credentials and region), and the HTTP checks go to the stack's EdgeUrl (ApiUrl
with EdgeEnabled=false). Locally the HTTP checks go to --api (default http://127.0.0.1:3000), the schema row asks
PostgreSQL with psql (PASTEBIN_DB_*), the dead-letter row asks LocalStack's SQS (PASTEBIN_UPLOAD_DLQ_URL,
PASTEBIN_MODERATION_OUTBOX_DLQ_URL, at AWS_ENDPOINT_URL), all set by infra/admin from infra/local/lib.sh; the rows
that exist only on AWS are SKIP. On a private instance (CreateAccess=api-key) the round trip's create presents
the key in PASTEBIN_API_KEY (a key of `infra/admin keys create`).
"""
from __future__ import annotations

import argparse
import json
import os
import secrets
import shutil
import string
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
MIGRATIONS = ROOT / "core" / "src" / "main" / "resources" / "db" / "migration"

PASS, FAIL, SKIP = "PASS", "FAIL", "SKIP"
AWS_ONLY = "AWS only"

# The template's logical ids this script looks up in the stack.
TEST_ALARM = "AlarmNotificationTestAlarm"
DEAD_LETTER_QUEUES = ("UploadDeadLetterQueue", "ModerationOutboxDeadLetterQueue")

# What the functions answer (core's ApiErrorCode, privatebin-function's PrivateBinAnswers).
EDGE_REQUIRED = "EDGE_REQUIRED"
PRIVATEBIN_NOT_FOUND = "Document does not exist, has expired or has been deleted."
BASE62 = string.digits + string.ascii_uppercase + string.ascii_lowercase


@dataclass
class Row:
    check: str
    result: str
    detail: str


class CheckFailed(Exception):
    """A check's FAIL, with the detail to print."""


# --------------------------------------------------------------------------------------------------
# HTTP
# --------------------------------------------------------------------------------------------------
class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):  # the answer itself is what is checked
        return None


_OPENER = urllib.request.build_opener(_NoRedirect)


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes

    def header(self, name: str) -> str:
        return self.headers.get(name.lower(), "")

    def snippet(self) -> str:
        text = self.body[:200].decode("utf-8", "replace").replace("\n", " ")
        return f"{self.status} {text}".strip()

    def json(self):
        try:
            return json.loads(self.body)
        except ValueError:
            raise CheckFailed(f"answered {self.status} with no JSON: {self.snippet()}")


def http(method: str, url: str, body: bytes | None = None, headers: dict[str, str] | None = None) -> Answer:
    request = urllib.request.Request(url, data=body, method=method, headers=headers or {})
    try:
        with _OPENER.open(request, timeout=30) as response:
            return Answer(response.status, {k.lower(): v for k, v in response.headers.items()}, response.read())
    except urllib.error.HTTPError as e:
        return Answer(e.code, {k.lower(): v for k, v in e.headers.items()}, e.read())
    except (urllib.error.URLError, OSError) as e:
        raise CheckFailed(f"{method} {url}: {getattr(e, 'reason', e)}")


def retry_after(answer: Answer) -> float:
    """The answer's Retry-After in seconds; 1 without one."""
    try:
        return max(0.0, float(answer.header("Retry-After")))
    except ValueError:
        return 1.0


# --------------------------------------------------------------------------------------------------
# The HTTP checks (the same against a stack and against the local runtime)
# --------------------------------------------------------------------------------------------------
@dataclass
class Paste:
    code: str
    delete_token: str | None


def paste_round_trip(base: str, read_timeout: float) -> tuple[Row, Paste | None]:
    """POST /pastes with text, then GET it until 200 (202 while it is stored), within read_timeout seconds."""
    content = f"infra/admin verify {uuid.uuid4()} \u2713\n".encode()
    headers = {"Content-Type": "text/plain; charset=utf-8", "Accept": "application/json"}
    api_key = os.environ.get("PASTEBIN_API_KEY", "")
    if api_key:
        # a private instance (CreateAccess=api-key): its creates present a key (docs/operating.md, "API keys")
        headers["Authorization"] = "Bearer " + api_key
    # an hour at most, should the delete below not happen
    create_url = base + "pastes?expiresIn=3600"
    created = http("POST", create_url, content, headers)
    for _ in range(3):
        if created.status != 503:
            break
        time.sleep(retry_after(created))
        created = http("POST", create_url, content, headers)
    if created.status != 201:
        hint = ("; a private instance (CreateAccess=api-key) needs a key: PASTEBIN_API_KEY=pb_... infra/admin verify"
                if created.status == 401 else "")
        raise CheckFailed(f"POST /pastes answered {created.snippet()}{hint}")
    answer = created.json()
    paste = Paste(answer["shortCode"], answer.get("deleteToken"))
    started = time.monotonic()
    deadline = started + read_timeout
    storing = 0
    while True:
        read = http("GET", base + "pastes/" + paste.code, headers={"Accept": "text/plain"})
        elapsed = time.monotonic() - started
        if read.status == 200:
            break
        if read.status not in (202, 503):
            raise CheckFailed(f"GET /pastes/{paste.code} answered {read.snippet()} after {elapsed:.1f} s")
        storing += read.status == 202
        if time.monotonic() + retry_after(read) > deadline:
            raise CheckFailed(
                f"GET /pastes/{paste.code} still answered {read.status} after {elapsed:.1f} s "
                f"(bound {read_timeout:g} s): the upload worker is not storing pastes")
        time.sleep(retry_after(read))
    if read.body != content:
        raise CheckFailed(f"GET /pastes/{paste.code} answered 200 with other bytes ({len(read.body)} of {len(content)})")
    reads = f"202 \u00d7{storing} then 200" if storing else "200 at the first read"
    row = Row("paste round trip", PASS, f"{paste.code}: {reads} after {elapsed:.1f} s, {len(content)} bytes equal")
    return row, paste


def delete_paste(base: str, paste: Paste) -> str:
    if not paste.delete_token:
        return "not deleted (no deleteToken); expires in 1 h"
    try:
        deleted = http("DELETE", base + "pastes/" + paste.code, headers={"Paste-Delete-Token": paste.delete_token})
    except CheckFailed as e:
        return f"not deleted ({e}); expires in 1 h"
    return "deleted" if deleted.status == 204 else f"not deleted (DELETE answered {deleted.status}); expires in 1 h"


def api_refuses_bypass(api_url: str, code: str) -> Row:
    """The execute-api address called directly (no X-Origin-Verify) answers 403 EDGE_REQUIRED."""
    refused = http("GET", api_url + "pastes/" + code, headers={"Accept": "application/json"})
    body = refused.json() if refused.status == 403 else {}
    if refused.status != 403 or body.get("code") != EDGE_REQUIRED:
        raise CheckFailed(f"GET ApiUrl/pastes/{code} without X-Origin-Verify answered {refused.snippet()}, "
                          f"not 403 {EDGE_REQUIRED}: the API is reachable around the edge")
    return Row("api refuses bypass", PASS, f"GET ApiUrl/pastes/{code} without X-Origin-Verify: 403 {EDGE_REQUIRED}")


def security_txt(base: str, abuse_contact: str | None) -> Row:
    """/.well-known/security.txt: 200 text/plain with a Contact line; on AWS, 404 when AbuseContact is empty."""
    answer = http("GET", base + ".well-known/security.txt")
    if abuse_contact == "":
        if answer.status == 404:
            return Row("security.txt", SKIP, "AbuseContact is empty: 404, no contact to publish (set it for a public instance)")
        raise CheckFailed(f"AbuseContact is empty, yet it answered {answer.snippet()}")
    if answer.status != 200 or not answer.header("Content-Type").startswith("text/plain"):
        raise CheckFailed(f"answered {answer.status} {answer.header('Content-Type')}: {answer.snippet()}")
    contacts = [line for line in answer.body.decode("utf-8", "replace").splitlines() if line.startswith("Contact:")]
    if not contacts:
        raise CheckFailed(f"no Contact: line in {answer.snippet()}")
    if abuse_contact and abuse_contact not in contacts[0]:
        raise CheckFailed(f"{contacts[0]!r} does not name the stack's AbuseContact {abuse_contact!r}")
    return Row("security.txt", PASS, f"200 text/plain, {contacts[0]}")


def privatebin(base: str) -> Row:
    """/pb/ answers PrivateBin's JSON: the format v2 context, and a read (from the database) of an unknown id."""
    headers = {"X-Requested-With": "JSONHttpRequest"}
    context = http("GET", base + "pb/?jsonld=paste", headers=headers)
    if context.status != 200:
        raise CheckFailed(f"GET /pb/?jsonld=paste answered {context.snippet()}")
    version = context.json().get("@context", {}).get("v", {}).get("@value")
    if version != 2:
        raise CheckFailed(f"GET /pb/?jsonld=paste has no format v2 context: {context.snippet()}")
    unknown = "".join(secrets.choice(BASE62) for _ in range(11))
    read = http("GET", base + "pb/?" + unknown, headers=headers)
    body = read.json() if read.status == 200 else {}
    if read.status != 200 or body.get("status") != 1 or body.get("message") != PRIVATEBIN_NOT_FOUND:
        raise CheckFailed(f"GET /pb/?{unknown} (unknown) answered {read.snippet()}, "
                          f"not status 1 {PRIVATEBIN_NOT_FOUND!r}")
    return Row("privatebin /pb/", PASS,
               f"?jsonld=paste: format v2 context; ?<unknown id>: status 1 \"{PRIVATEBIN_NOT_FOUND}\"")


# --------------------------------------------------------------------------------------------------
# The schema
# --------------------------------------------------------------------------------------------------
def newest_migration() -> tuple[str, str]:
    """(version, file name) of the newest Flyway migration the release carries, e.g. ("11", "V11__….sql")."""
    versions = []
    for path in MIGRATIONS.glob("V*__*.sql"):
        version = path.name[1:path.name.index("__")].replace("_", ".")
        versions.append((tuple(int(p) for p in version.split(".")), version, path.name))
    if not versions:
        raise CheckFailed(f"no migrations in {MIGRATIONS}")
    _, version, name = max(versions)
    return version, name


def schema_row(reached: str, where: str) -> Row:
    version, name = newest_migration()
    if reached != version:
        raise CheckFailed(f"{where}: {reached}, but the newest migration is {name}")
    return Row("schema version", PASS, f"{reached} ({where}): the newest migration, {name}")


def local_schema_version() -> str:
    psql = shutil.which("psql")
    if not psql:
        raise CheckFailed("psql is not on PATH")
    env = dict(os.environ, PGPASSWORD=os.environ.get("PASTEBIN_DB_PASSWORD", ""), PGCONNECT_TIMEOUT="10")
    result = subprocess.run(
        [psql, "-X", "-A", "-t", "-h", os.environ.get("PASTEBIN_DB_HOST", "127.0.0.1"),
         "-p", os.environ.get("PASTEBIN_DB_PORT", "5432"), "-U", os.environ.get("PASTEBIN_DB_USER", "pastebin"),
         "-d", os.environ.get("PASTEBIN_DB_NAME", "pastebin"), "-c",
         "SELECT version FROM flyway_schema_history WHERE success AND version IS NOT NULL"
         " ORDER BY installed_rank DESC LIMIT 1"],
        env=env, capture_output=True, text=True, timeout=30)
    if result.returncode != 0:
        raise CheckFailed(f"psql: {result.stderr.strip()}")
    reached = result.stdout.strip()
    if not reached:
        raise CheckFailed("flyway_schema_history holds no applied migration")
    return reached


# --------------------------------------------------------------------------------------------------
# The AWS CLI
# --------------------------------------------------------------------------------------------------
def aws(*args: str):
    """One `aws` CLI call; its JSON answer ({} for none). Raises CheckFailed with the CLI's error."""
    # infra/admin names the `aws` its caller's PATH finds: a Python launcher (pyenv's) may put its own first on PATH
    command = [os.environ.get("PASTEBIN_AWS_CLI") or "aws", *args, "--output", "json"]
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=120)
    except FileNotFoundError:
        raise CheckFailed("the aws CLI is not on PATH")
    if result.returncode != 0:
        lines = [line for line in result.stderr.strip().splitlines() if line.strip()]
        raise CheckFailed(f"aws {args[0]} {args[1]}: {lines[-1] if lines else 'exit ' + str(result.returncode)}")
    return json.loads(result.stdout) if result.stdout.strip() else {}


@dataclass
class Stack:
    name: str
    outputs: dict[str, str]
    parameters: dict[str, str]
    # logical id -> (type, physical id)
    resources: dict[str, tuple[str, str]]

    @staticmethod
    def describe(name: str) -> "Stack":
        described = aws("cloudformation", "describe-stacks", "--stack-name", name)["Stacks"][0]
        outputs = {o["OutputKey"]: o["OutputValue"] for o in described.get("Outputs", [])}
        parameters = {p["ParameterKey"]: p.get("ParameterValue", "") for p in described.get("Parameters", [])}
        listed = aws("cloudformation", "list-stack-resources", "--stack-name", name)
        resources = {r["LogicalResourceId"]: (r["ResourceType"], r.get("PhysicalResourceId", ""))
                     for r in listed.get("StackResourceSummaries", [])}
        return Stack(name, outputs, parameters, resources)

    def physical_id(self, logical_id: str) -> str:
        if logical_id not in self.resources:
            raise CheckFailed(f"the stack has no {logical_id} (deployed before it existed?): deploy this release")
        return self.resources[logical_id][1]

    def alarm_names(self) -> list[str]:
        return sorted(p for t, p in self.resources.values() if t == "AWS::CloudWatch::Alarm")


def describe_alarms(names: list[str]) -> list[dict]:
    alarms = []
    for i in range(0, len(names), 100):  # DescribeAlarms takes 100 names at most
        alarms += aws("cloudwatch", "describe-alarms", "--alarm-names", *names[i:i + 100]).get("MetricAlarms", [])
    return alarms


def alarm_actions(stack: Stack) -> Row:
    """Every alarm of the stack has its actions enabled and notifies the stack's alarm topic."""
    names = stack.alarm_names()
    if not names:
        raise CheckFailed("the stack has no alarms")
    topic = stack.outputs.get("AlarmTopic", "")
    described = {a["AlarmName"]: a for a in describe_alarms(names)}
    wrong = []
    for name in names:
        alarm = described.get(name)
        if alarm is None:
            wrong.append(f"{name} (not found)")
        elif not alarm.get("ActionsEnabled"):
            wrong.append(f"{name} (actions disabled)")
        elif not alarm.get("AlarmActions"):
            wrong.append(f"{name} (no alarm actions)")
        elif topic and topic not in alarm["AlarmActions"]:
            wrong.append(f"{name} (does not notify {topic})")
    if wrong:
        raise CheckFailed(f"{len(wrong)} of {len(names)}: " + ", ".join(wrong))
    return Row("alarm actions", PASS, f"{len(names)} alarms, actions enabled, notify {topic or 'their topics'}")


def alarm_notification(stack: Stack, notify_timeout: float) -> Row:
    """Sets the test alarm to ALARM and back to OK, then waits for its history to say the SNS action succeeded."""
    name = stack.physical_id(TEST_ALARM)
    topic = stack.outputs.get("AlarmTopic", "")
    reason = "infra/admin verify: a test of the alarm notifications, nothing to do"
    current = [a.get("StateValue") for a in describe_alarms([name]) if a.get("AlarmName") == name]
    if current == ["ALARM"]:  # left so by an interrupted run: setting ALARM again would be no transition to notify
        aws("cloudwatch", "set-alarm-state", "--alarm-name", name, "--state-value", "OK", "--state-reason", reason)
    # a few seconds' margin for this machine's clock
    since = (datetime.now(timezone.utc) - timedelta(seconds=5)).strftime("%Y-%m-%dT%H:%M:%SZ")
    started = time.monotonic()
    aws("cloudwatch", "set-alarm-state", "--alarm-name", name, "--state-value", "ALARM", "--state-reason", reason)
    aws("cloudwatch", "set-alarm-state", "--alarm-name", name, "--state-value", "OK", "--state-reason", reason)
    deadline = started + notify_timeout
    while True:
        items = aws("cloudwatch", "describe-alarm-history", "--alarm-name", name, "--history-item-type", "Action",
                    "--start-date", since).get("AlarmHistoryItems", [])
        outcomes = []
        for item in items:
            try:
                data = json.loads(item.get("HistoryData") or "{}")
            except ValueError:
                data = {}
            summary = item.get("HistorySummary", "")
            state = data.get("actionState") or ("Failed" if summary.startswith("Failed") else
                                                "Succeeded" if summary.startswith("Successfully") else "")
            outcomes.append((state, summary, data.get("notificationResource", "")))
        failed = [o for o in outcomes if o[0] == "Failed"]
        if failed:
            raise CheckFailed(f"{TEST_ALARM}'s SNS action failed: {failed[0][1]}")
        succeeded = [o for o in outcomes if o[0] == "Succeeded"]
        elapsed = time.monotonic() - started
        if succeeded:
            return Row("alarm notification", PASS,
                       f"{TEST_ALARM} ALARM then OK: SNS action succeeded after {elapsed:.0f} s "
                       f"({succeeded[0][2] or topic}); the e-mail itself is for its subscriber to confirm")
        if time.monotonic() >= deadline:
            raise CheckFailed(f"no action in {TEST_ALARM}'s history within {notify_timeout:g} s "
                              f"of setting it to ALARM")
        time.sleep(min(5.0, max(0.0, deadline - time.monotonic())))


# --------------------------------------------------------------------------------------------------
# The dead-letter queues
# --------------------------------------------------------------------------------------------------
DEPTH = ("ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible")


def dead_letters(queues: list[tuple[str, str]], attributes: Callable[[str], dict[str, str]]) -> Row:
    counts, holding = [], []
    for name, url in queues:
        attrs = attributes(url)
        visible, in_flight = (int(attrs.get(a, "0")) for a in DEPTH)
        counts.append(f"{name} {visible + in_flight}")
        if visible + in_flight:
            holding.append(f"{name} holds {visible + in_flight} ({visible} visible, {in_flight} in flight)")
    if holding:
        raise CheckFailed("; ".join(holding) + ": see docs/operating.md, \"Alarms and what to do\"")
    return Row("dead-letter queues", PASS, "empty: " + ", ".join(counts))


def aws_queue_attributes(url: str) -> dict[str, str]:
    return aws("sqs", "get-queue-attributes", "--queue-url", url, "--attribute-names", *DEPTH).get("Attributes", {})


def localstack_queue_attributes(url: str) -> dict[str, str]:
    """SQS's JSON protocol at LocalStack (which reads the account and region from the unsigned Authorization)."""
    endpoint = os.environ.get("AWS_ENDPOINT_URL") or os.environ.get("LOCALSTACK_ENDPOINT", "http://127.0.0.1:4566")
    region = os.environ.get("AWS_REGION", "us-east-1")
    key = os.environ.get("AWS_ACCESS_KEY_ID", "test")
    answer = http("POST", endpoint.rstrip("/") + "/", json.dumps({"QueueUrl": url, "AttributeNames": list(DEPTH)}).encode(), {
        "Content-Type": "application/x-amz-json-1.0",
        "X-Amz-Target": "AmazonSQS.GetQueueAttributes",
        "Authorization": f"AWS4-HMAC-SHA256 Credential={key}/20250101/{region}/sqs/aws4_request, "
                         "SignedHeaders=host, Signature=0",
    })
    if answer.status != 200:
        raise CheckFailed(f"LocalStack's SQS answered {answer.snippet()} for {url}")
    return answer.json().get("Attributes", {})


# --------------------------------------------------------------------------------------------------
# The runs
# --------------------------------------------------------------------------------------------------
def run(check: str, body: Callable[[], Row | tuple[Row, object]]) -> tuple[Row, object]:
    print(f"verify: {check} ...", file=sys.stderr, flush=True)
    try:
        result = body()
    except CheckFailed as e:
        return Row(check, FAIL, str(e)), None
    except Exception as e:  # a check that crashed is a FAIL with its reason, not a traceback instead of the table
        return Row(check, FAIL, f"{type(e).__name__}: {e}"), None
    return result if isinstance(result, tuple) else (result, None)


def verify_stack(name: str, read_timeout: float, notify_timeout: float) -> list[Row]:
    print(f"verify: stack {name}", file=sys.stderr, flush=True)
    stack = Stack.describe(name)
    edge_enabled = stack.parameters.get("EdgeEnabled", "true") == "true"
    api_url = _slash(stack.outputs.get("ApiUrl", ""))
    base = _slash(stack.outputs.get("EdgeUrl", "")) if edge_enabled else api_url
    if not base:
        raise CheckFailed(f"the stack has no {'EdgeUrl' if edge_enabled else 'ApiUrl'} output")
    rows = []
    row, paste = run("paste round trip", lambda: paste_round_trip(base, read_timeout))
    rows.append(row)
    if edge_enabled:
        code = paste.code if paste else "verify00000"
        rows.append(run("api refuses bypass", lambda: api_refuses_bypass(api_url, code))[0])
    else:
        rows.append(Row("api refuses bypass", SKIP, "EdgeEnabled is false: ApiUrl is the public address"))
    if paste:
        row.detail += "; " + delete_paste(base, paste)
    rows.append(run("security.txt", lambda: security_txt(base, stack.parameters.get("AbuseContact")))[0])
    rows.append(run("privatebin /pb/", lambda: privatebin(base))[0])

    def schema() -> Row:
        if "SchemaVersion" not in stack.outputs:
            raise CheckFailed("the stack has no SchemaVersion output (deployed before it existed): deploy this release")
        return schema_row(stack.outputs["SchemaVersion"], "the SchemaVersion output")
    rows.append(run("schema version", schema)[0])
    rows.append(run("alarm actions", lambda: alarm_actions(stack))[0])
    rows.append(run("alarm notification", lambda: alarm_notification(stack, notify_timeout))[0])
    rows.append(run("dead-letter queues", lambda: dead_letters(
        [(q, stack.physical_id(q)) for q in DEAD_LETTER_QUEUES], aws_queue_attributes))[0])
    return rows


def verify_local(api: str, read_timeout: float) -> list[Row]:
    base = _slash(api)
    print(f"verify: the local runtime at {base}", file=sys.stderr, flush=True)
    rows = []
    row, paste = run("paste round trip", lambda: paste_round_trip(base, read_timeout))
    rows.append(row)
    if paste:
        row.detail += "; " + delete_paste(base, paste)
    rows.append(Row("api refuses bypass", SKIP, AWS_ONLY))
    rows.append(run("security.txt", lambda: security_txt(base, None))[0])
    rows.append(run("privatebin /pb/", lambda: privatebin(base))[0])
    rows.append(run("schema version", lambda: schema_row(local_schema_version(), "flyway_schema_history"))[0])
    rows.append(Row("alarm actions", SKIP, AWS_ONLY))
    rows.append(Row("alarm notification", SKIP, AWS_ONLY))
    queues = [("UploadDeadLetterQueue", os.environ.get("PASTEBIN_UPLOAD_DLQ_URL", "")),
              ("ModerationOutboxDeadLetterQueue", os.environ.get("PASTEBIN_MODERATION_OUTBOX_DLQ_URL", ""))]
    rows.append(run("dead-letter queues", lambda: dead_letters(queues, localstack_queue_attributes))[0])
    return rows


def _slash(url: str) -> str:
    return url if not url or url.endswith("/") else url + "/"


def table(rows: list[Row]) -> str:
    header = Row("check", "result", "detail")
    width = max(len(r.check) for r in [header, *rows])
    return "\n".join(f"{r.check:<{width}}  {r.result:<6}  {r.detail}".rstrip() for r in [header, *rows])


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="infra/admin verify", description=__doc__.splitlines()[0])
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--stack", help="the deployed stack's name")
    where.add_argument("--local", action="store_true", help="the local runtime (make run)")
    parser.add_argument("--api", help="--local: the local API's address (default http://127.0.0.1:3000)")
    parser.add_argument("--read-timeout", type=float, default=60,
                        help="seconds a new paste may take to be stored (default 60)")
    parser.add_argument("--notify-timeout", type=float, default=120,
                        help="seconds the test alarm's SNS action may take to show in its history (default 120)")
    args = parser.parse_args(argv)
    if args.stack and args.api:
        parser.error("--api is for --local: a stack's addresses are its outputs")
    try:
        rows = verify_local(args.api or "http://127.0.0.1:3000", args.read_timeout) if args.local else \
            verify_stack(args.stack, args.read_timeout, args.notify_timeout)
    except CheckFailed as e:
        print(f"verify: {e}", file=sys.stderr)
        return 1
    print(table(rows))
    return 1 if any(r.result == FAIL for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
