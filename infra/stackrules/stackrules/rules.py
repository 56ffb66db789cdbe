"""Every request the stack's functions make, and every call AWS services make into the stack, against the rules the
deployed stack would enforce: the caller's identity policies, the network route and its VPC endpoint's policy, the
resource's policy and the KMS key's policy. A request one of them refuses is a `Refusal` naming the caller, the
request and the statement that is missing (or the one that denies)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Iterator

from . import aws
from .policy import Decision, Principal, Request, Unmodelled, evaluate
from .template import ACCOUNT, PARTITION, REGION, STACK, STACK_ID, Stack


@dataclass(frozen=True)
class Refusal:
    parameter_set: str
    caller: str
    request: str
    refused_by: str
    missing: str

    def __str__(self) -> str:
        return (
            f"REFUSED [{self.parameter_set}] {self.caller}: {self.request}\n"
            f"    refused by {self.refused_by}\n"
            f"    {self.missing}"
        )


@dataclass(frozen=True)
class Call:
    """One request a function makes, attributed to the template's resources (see `recorded_calls`)."""

    function: str
    service: str  # the endpoint service: s3, sqs, secretsmanager, ...
    action: str
    resource: str
    note: str = ""
    presigned: bool = False
    #: request context keys the call sets itself (s3:prefix of a ListBucket)
    context: tuple[tuple[str, str], ...] = ()
    #: False for a call a service makes with the function's role (CloudFormation creating a stack's resources):
    #: it does not leave the function's network
    from_function: bool = True


#: Calls the stack makes that are not SDK calls, described by what AWS documents rather than recorded.
AWS_MANAGED_KEY_PREFIX = "alias/aws/"

#: What CloudFormation calls, with the credentials of whoever asked for the stack, to create, read, update and delete
#: an AWS WAF resource of it (the resource types' handlers, as the CloudFormation registry's schemas list them).
WAF_HANDLER_ACTIONS = {
    "AWS::WAFv2::WebACL": ("wafv2:CreateWebACL", "wafv2:GetWebACL", "wafv2:UpdateWebACL", "wafv2:DeleteWebACL",
                           "wafv2:ListTagsForResource", "wafv2:TagResource", "wafv2:UntagResource"),
    "AWS::WAFv2::IPSet": ("wafv2:CreateIPSet", "wafv2:GetIPSet", "wafv2:UpdateIPSet", "wafv2:DeleteIPSet",
                          "wafv2:ListTagsForResource", "wafv2:TagResource", "wafv2:UntagResource"),
}
#: A web ACL's create and update are authorized on each IP set its rules reference as well (the Service
#: Authorization Reference: CreateWebACL's and UpdateWebACL's resource types include ipset).
WAF_REFERENCING_ACTIONS = ("wafv2:CreateWebACL", "wafv2:UpdateWebACL")


class StackRules:
    def __init__(self, stack: Stack, parameter_set: str):
        self.stack = stack
        self.name = parameter_set
        self.unmodelled: set[str] = set()
        self._functions = stack.resources("AWS::Lambda::Function")
        self._roles = {
            stack.get_att(role_id, "Arn"): role_id for role_id in stack.resources("AWS::IAM::Role")
        }
        self._aliases = {
            stack.ref(alias_id): stack.properties(alias_id).get("FunctionName")
            for alias_id in stack.resources("AWS::Lambda::Alias")
        }
        self._function_by_ref = {stack.ref(f): f for f in self._functions}
        self._function_by_ref.update({stack.get_att(f, "Arn"): f for f in self._functions})

    # --- who is who ----------------------------------------------------------------------------------------

    def function_of(self, target: Any) -> str | None:
        """The function a ServiceToken, alias, ARN or name points at."""
        target = self._aliases.get(target, target)
        return self._function_by_ref.get(target)

    def role_of(self, function: str) -> str:
        return self._roles[self.stack.properties(function)["Role"]]

    def identity_documents(self, role: str) -> list[dict[str, Any]]:
        properties = self.stack.properties(role)
        documents = [p["PolicyDocument"] for p in properties.get("Policies", [])]
        for arn in properties.get("ManagedPolicyArns", []):
            if arn not in aws.MANAGED_POLICIES:
                self.unmodelled.add(f"managed policy {arn} (on {role}): its statements are not known here")
                continue
            documents.append({"Statement": aws.MANAGED_POLICIES[arn]})
        for policy_id in self.stack.resources("AWS::IAM::Policy"):
            policy = self.stack.properties(policy_id)
            if role in [self._roles.get(r, r) for r in policy.get("Roles", [])] or self.stack.ref(role) in policy.get(
                "Roles", []
            ):
                documents.append(policy["PolicyDocument"])
        return documents

    def principal_of(self, function: str) -> Principal:
        return Principal.role(self.stack.get_att(self.role_of(function), "Arn"))

    # --- the network -----------------------------------------------------------------------------------------

    def route(self, function: str, service: str, request: Request) -> Refusal | None:
        """Whether the request leaves the function's subnets for `service`, and through which endpoint's policy."""
        subnets = self.stack.properties(function).get("VpcConfig", {}).get("SubnetIds")
        if not subnets:
            return None  # outside any VPC: Lambda's own internet access
        stack_subnets = {self.stack.ref(s): s for s in self.stack.resources("AWS::EC2::Subnet")}
        if not all(s in stack_subnets for s in subnets):
            self.unmodelled.add(
                f"[{self.name}] routes from the operator's subnets ({', '.join(subnets)}): NAT and endpoints unknown"
            )
            return None
        tables = {
            self.stack.properties(a)["RouteTableId"]
            for a in self.stack.resources("AWS::EC2::SubnetRouteTableAssociation")
            if self.stack.properties(a)["SubnetId"] in subnets
        }
        for route_id in self.stack.resources("AWS::EC2::Route"):
            route = self.stack.properties(route_id)
            if route.get("RouteTableId") in tables and route.get("DestinationCidrBlock") == "0.0.0.0/0":
                return None  # a NAT or internet gateway: the service's public endpoint
        for endpoint_id in self.stack.resources("AWS::EC2::VPCEndpoint"):
            endpoint = self.stack.properties(endpoint_id)
            if endpoint.get("ServiceName") != f"com.amazonaws.{REGION}.{service}":
                continue
            reached = (
                set(endpoint.get("RouteTableIds", [])) & tables
                if endpoint.get("VpcEndpointType") == "Gateway"
                else set(endpoint.get("SubnetIds", [])) & set(subnets)
            )
            if not reached:
                continue
            document = endpoint.get("PolicyDocument")
            if document is None:
                return None  # an endpoint without a policy allows everything
            decision = evaluate([document], request, principal_matters=True)
            if decision.allowed:
                return None
            return self._refusal(
                function,
                request,
                f"the VPC endpoint {endpoint_id}'s policy",
                decision,
                f"{endpoint_id}.PolicyDocument",
            )
        return Refusal(
            self.name,
            function,
            describe(request),
            "the network",
            f"missing: a VPC endpoint for {service} (com.amazonaws.{REGION}.{service}) reaching the function's "
            "subnets; they have no NAT",
        )

    # --- resources' own policies and keys -------------------------------------------------------------------

    def resource_documents(self, service: str, resource_arn: str) -> tuple[str, list[dict[str, Any]]]:
        """The resource policy of the stack resource at `resource_arn` (bucket, queue, topic, secret), if any."""
        if service == "s3":
            bucket = resource_arn.split(":::", 1)[1].split("/", 1)[0]
            for policy_id in self.stack.resources("AWS::S3::BucketPolicy"):
                policy = self.stack.properties(policy_id)
                if policy.get("Bucket") == bucket:
                    return policy_id, [policy["PolicyDocument"]]
        if service == "sqs":
            for policy_id in self.stack.resources("AWS::SQS::QueuePolicy"):
                policy = self.stack.properties(policy_id)
                if resource_arn in [aws.queue_arn(q) for q in policy.get("Queues", [])]:
                    return policy_id, [policy["PolicyDocument"]]
        if service == "sns":
            for policy_id in self.stack.resources("AWS::SNS::TopicPolicy"):
                policy = self.stack.properties(policy_id)
                if resource_arn in policy.get("Topics", []):
                    return policy_id, [policy["PolicyDocument"]]
        if service == "secretsmanager":
            for policy_id in self.stack.resources("AWS::SecretsManager::ResourcePolicy"):
                policy = self.stack.properties(policy_id)
                if policy.get("SecretId") == resource_arn:
                    return policy_id, [policy["ResourcePolicy"]]
        return "", []

    def key_of(self, service: str, resource_arn: str) -> str | None:
        """The KMS key (id, ARN or alias as the template names it) that encrypts a stack topic, queue or secret."""
        for type_name, attribute, key_property in (
            ("AWS::SNS::Topic", "TopicArn", "KmsMasterKeyId"),
            ("AWS::SQS::Queue", "Arn", "KmsMasterKeyId"),
            ("AWS::SecretsManager::Secret", None, "KmsKeyId"),
        ):
            for logical_id in self.stack.resources(type_name):
                arn = self.stack.get_att(logical_id, attribute) if attribute else self.stack.ref(logical_id)
                if arn == resource_arn:
                    return self.stack.properties(logical_id).get(key_property)
        return None

    def stack_key(self, key: str) -> str | None:
        """The logical id of the stack's own KMS key `key` names (by id, ARN or a stack alias)."""
        for key_id in self.stack.resources("AWS::KMS::Key"):
            if key in (self.stack.ref(key_id), self.stack.get_att(key_id, "Arn")):
                return key_id
        for alias_id in self.stack.resources("AWS::KMS::Alias"):
            alias = self.stack.properties(alias_id)
            if alias.get("AliasName") == key:
                return self.stack_key(alias["TargetKeyId"])
        return None

    # --- the checks ------------------------------------------------------------------------------------------

    def check_call(self, call: Call) -> Iterator[Refusal]:
        """A request a function makes: its network route, then (unless pre-signed) identity, resource and key."""
        if call.presigned:
            request = Request(Principal("Anonymous", "*"), call.action, call.resource, {"aws:SecureTransport": "true"})
            refusal = self.route(call.function, call.service, request)
            if refusal:
                yield refusal
            return
        principal = self.principal_of(call.function)
        request = Request(principal, call.action, call.resource, {
            "aws:SecureTransport": "true",
            "aws:PrincipalAccount": ACCOUNT,
            "aws:PrincipalArn": principal.id,
            **dict(call.context),
        })
        try:
            refusal = self.route(call.function, call.service, request) if call.from_function else None
            if refusal:
                yield refusal
            role = self.role_of(call.function)
            identity = evaluate(self.identity_documents(role), request)
            policy_id, documents = self.resource_documents(call.service, call.resource)
            resource = evaluate(documents, request, principal_matters=True)
            if resource.effect == "Deny":
                yield self._refusal(call.function, request, f"{policy_id}'s policy", resource, policy_id)
            elif not identity.allowed and not resource.allowed:
                yield self._refusal(call.function, request, f"the role {role}'s policies", identity, f"{role}.Policies")
            yield from self._key_rules(call.function, request, call.service, role)
        except Unmodelled as unmodelled:
            self.unmodelled.add(f"[{self.name}] {call.function} {call.action}: {unmodelled}")

    def _key_rules(self, caller: str, request: Request, service: str, role: str | None) -> Iterator[Refusal]:
        key = self.key_of(service, request.resource)
        if not key:
            return
        kms_actions = {
            "sns:Publish": ["kms:GenerateDataKey", "kms:Decrypt"],
            "sqs:SendMessage": ["kms:GenerateDataKey", "kms:Decrypt"],
            "sqs:ReceiveMessage": ["kms:Decrypt"],
            "secretsmanager:GetSecretValue": ["kms:Decrypt"],
        }.get(request.action, [])
        if key.startswith(AWS_MANAGED_KEY_PREFIX):
            if request.principal.kind == "Service" and kms_actions:
                yield Refusal(
                    self.name,
                    caller,
                    describe(request),
                    f"the AWS-managed key {key}",
                    f"an AWS-managed key's policy cannot be changed, so {request.principal.id} may never use it: "
                    "missing: a customer-managed key whose policy allows "
                    f"{request.principal.id} {', '.join(kms_actions)}",
                )
            return  # principals of the account use AWS-managed keys through the service
        key_id = self.stack_key(key)
        if key_id is None:
            self.unmodelled.add(f"[{self.name}] key {key} outside the stack (used by {caller})")
            return
        document = self.stack.properties(key_id)["KeyPolicy"]
        for kms_action in kms_actions:
            key_request = Request(request.principal, kms_action, "*", {
                **request.context,
                "kms:ViaService": f"{service}.{REGION}.amazonaws.com",
                "kms:CallerAccount": ACCOUNT,
            })
            decision = evaluate([document], key_request, principal_matters=True)
            delegated = (
                decision.allowed
                and request.principal.kind == "AWS"
                and _names_only_account(decision.statement, request.principal)
            )
            if decision.effect == "Deny" or not decision.allowed:
                yield self._refusal(caller, key_request, f"the key {key_id}'s policy", decision, f"{key_id}.KeyPolicy")
            elif delegated and role is not None:
                identity = evaluate(self.identity_documents(role), Request(
                    request.principal, kms_action, self.stack.get_att(key_id, "Arn"), key_request.context))
                if not identity.allowed:
                    yield self._refusal(caller, key_request, f"the role {role}'s policies", identity, f"{role}.Policies")

    def check_alarm_notifications(self) -> Iterator[Refusal]:
        """CloudWatch alarms publish their state changes to their actions' SNS topics."""
        topics = {self.stack.ref(t): t for t in self.stack.resources("AWS::SNS::Topic")}
        for alarm_id in self.stack.resources("AWS::CloudWatch::Alarm"):
            alarm = self.stack.properties(alarm_id)
            actions = {a for k in ("AlarmActions", "OKActions", "InsufficientDataActions") for a in alarm.get(k, [])}
            for action in sorted(actions):
                if ":sns:" not in action:
                    continue
                if action not in topics:
                    self.unmodelled.add(f"[{self.name}] the operator's topic {action} (alarm actions)")
                    continue
                alarm_arn = f"arn:{PARTITION}:cloudwatch:{REGION}:{ACCOUNT}:alarm:{alarm.get('AlarmName', alarm_id)}"
                request = Request(Principal.service("cloudwatch.amazonaws.com"), "sns:Publish", action, {
                    "aws:SourceArn": alarm_arn,
                    "aws:SourceAccount": ACCOUNT,
                    "aws:SecureTransport": "true",
                })
                caller = f"CloudWatch alarm {alarm_id}"
                policy_id, documents = self.resource_documents("sns", action)
                if documents:
                    decision = evaluate(documents, request, principal_matters=True)
                    if not decision.allowed:
                        yield self._refusal(caller, request, f"{policy_id}'s policy", decision, policy_id)
                # without a topic policy, SNS's default one lets the owning account's alarms publish
                yield from self._key_rules(caller, request, "sns", None)

    def custom_resource_answers(self) -> Iterator[Call]:
        """Each custom resource's function answers CloudFormation with a PUT to a pre-signed ResponseURL in AWS's
        `cloudformation-custom-resource-response-<region>` bucket (the CloudFormation User Guide, custom resources)."""
        for resource_id, resource in self.stack.resources().items():
            if not (resource["Type"].startswith("Custom::") or resource["Type"] == "AWS::CloudFormation::CustomResource"):
                continue
            function = self.function_of(self.stack.properties(resource_id)["ServiceToken"])
            if function is None:
                self.unmodelled.add(f"[{self.name}] {resource_id}'s ServiceToken is not a function of the stack")
                continue
            bucket = aws.custom_resource_response_bucket()
            yield Call(function, "s3", "s3:PutObject", f"arn:{PARTITION}:s3:::{bucket}/answer",
                       note=f"the answer to {resource_id} (CloudFormation's pre-signed ResponseURL)", presigned=True)

    def edge_stack_calls(self, edge_template: dict[str, Any]) -> Iterator[Call]:
        """CloudFormation creates, updates and deletes the edge's us-east-1 stack (infra/edge-waf.yaml, with the
        custom resource's StackParameters) with the role of the function that asks for it: each AWS WAF resource's
        handler calls on the ARN its name gives it, and a web ACL's create and update on the IP sets it references."""
        for resource_id in self.stack.resources("Custom::EdgeWebAcl"):
            properties = self.stack.properties(resource_id)
            function = self.function_of(properties.get("ServiceToken"))
            if function is None:
                self.unmodelled.add(f"[{self.name}] {resource_id}'s ServiceToken is not a function of the stack")
                continue
            parameters = {k: str(v) for k, v in properties.get("StackParameters", {}).items()}
            edge = Stack(edge_template, parameters)
            for logical_id in edge.resources():
                actions = WAF_HANDLER_ACTIONS.get(edge.type_of(logical_id))
                if actions is None:
                    if edge.type_of(logical_id).startswith("AWS::WAFv2::"):
                        self.unmodelled.add(f"[{self.name}] {edge.type_of(logical_id)} of the edge stack")
                    continue
                note = f"CloudFormation, for {resource_id}'s stack: {logical_id}"
                arn = edge.get_att(logical_id, "Arn")
                for action in actions:
                    yield Call(function, "wafv2", action, arn, note=note, from_function=False)
                if edge.type_of(logical_id) == "AWS::WAFv2::WebACL":
                    for referenced in sorted(set(_ip_set_references(edge.properties(logical_id)))):
                        for action in WAF_REFERENCING_ACTIONS:
                            yield Call(function, "wafv2", action, referenced, note=note, from_function=False)

    def database_protection_calls(self) -> Iterator[Call]:
        """The custom resource that keeps the created cluster's deletion protection: its function waits for the
        cluster and sets its protection (RDS), and reads its own stack's status (CloudFormation). Described, not
        recorded: RDS is not in the local LocalStack, so no test makes these calls."""
        for resource_id in self.stack.resources("Custom::DatabaseProtection"):
            properties = self.stack.properties(resource_id)
            function = self.function_of(properties.get("ServiceToken"))
            if function is None:
                self.unmodelled.add(f"[{self.name}] {resource_id}'s ServiceToken is not a function of the stack")
                continue
            cluster = f"arn:{PARTITION}:rds:{REGION}:{ACCOUNT}:cluster:{properties['DBClusterIdentifier']}"
            note = f"{resource_id}'s function"
            for action in ("rds:DescribeDBClusters", "rds:ModifyDBCluster"):
                yield Call(function, "rds", action, cluster, note=note)
            yield Call(function, "cloudformation", "cloudformation:DescribeStacks", STACK_ID, note=note)

    def check_event_sources(self) -> Iterator[Refusal]:
        """Lambda polls SQS for an event source mapping with the function's role."""
        for mapping_id in self.stack.resources("AWS::Lambda::EventSourceMapping"):
            mapping = self.stack.properties(mapping_id)
            function = self.function_of(mapping["FunctionName"])
            source = mapping["EventSourceArn"]
            if function is None or ":sqs:" not in source:
                continue
            for action in ("sqs:ReceiveMessage", "sqs:DeleteMessage", "sqs:GetQueueAttributes"):
                yield from self.check_call(Call(function, "sqs", action, source, note=f"{mapping_id} (Lambda's poller)"))

    def check_schedules(self) -> Iterator[Refusal]:
        """EventBridge invokes a rule's function target only with a resource-based permission for events."""
        permissions = [self.stack.properties(p) for p in self.stack.resources("AWS::Lambda::Permission")]
        for rule_id in self.stack.resources("AWS::Events::Rule"):
            rule_arn = self.stack.get_att(rule_id, "Arn")
            for target in self.stack.properties(rule_id).get("Targets", []):
                function = self.function_of(target["Arn"])
                if function is None:
                    continue
                if not any(
                    p.get("Principal") == "events.amazonaws.com"
                    and self.function_of(p.get("FunctionName")) == function
                    and p.get("FunctionName") == target["Arn"]
                    and p.get("SourceArn", rule_arn) == rule_arn
                    for p in permissions
                ):
                    yield Refusal(self.name, f"EventBridge rule {rule_id}", f"lambda:InvokeFunction {target['Arn']}",
                                  "the function's resource policy",
                                  f"missing: an AWS::Lambda::Permission for events.amazonaws.com on {target['Arn']} "
                                  f"with SourceArn {rule_arn}")

    def check_origin_header(self) -> Iterator[Refusal]:
        """CloudFront adds the origin secret header; the HTTP functions refuse requests without it."""
        for distribution_id in self.stack.resources("AWS::CloudFront::Distribution"):
            origins = self.stack.properties(distribution_id)["DistributionConfig"].get("Origins", [])
            sent = {h["HeaderName"].lower(): h["HeaderValue"] for o in origins for h in o.get("OriginCustomHeaders", [])}
            for function in self._functions:
                expected = self.environment(function).get("PASTEBIN_EDGE_ORIGIN_SECRET")
                if expected is None:
                    continue
                if expected not in sent.values():
                    yield Refusal(self.name, f"CloudFront {distribution_id}", f"requests to {function}",
                                  f"{function}'s origin check", "missing: the origin header with the secret "
                                  "PASTEBIN_EDGE_ORIGIN_SECRET names, in the distribution's OriginCustomHeaders")

    def event_secret(self, function: str, recorded: str) -> str | None:
        """A secret a custom resource's event names for `function` (the migration's RoleSecrets, by role, and its
        OwnerSecretArn): the deployed ARN of the one whose role (or "owner") the recorded secret's name holds."""
        name_parts = set(recorded.rsplit(":", 1)[-1].split("-"))
        for resource_id, resource in self.stack.resources().items():
            if not resource["Type"].startswith("Custom::"):
                continue
            properties = self.stack.properties(resource_id)
            if self.function_of(properties.get("ServiceToken")) != function:
                continue
            named = dict(properties.get("RoleSecrets", {}))
            if "OwnerSecretArn" in properties:
                named["owner"] = properties["OwnerSecretArn"]
            for part, arn in named.items():
                if part in name_parts:
                    return arn
        return None

    def environment(self, function: str) -> dict[str, str]:
        variables = self.stack.properties(function).get("Environment", {}).get("Variables", {})
        return {k: v for k, v in variables.items() if isinstance(v, str)}

    def _refusal(self, caller: str, request: Request, refused_by: str, decision: Decision, where: str) -> Refusal:
        if decision.effect == "Deny":
            missing = f"denied by the statement {json.dumps(decision.statement, sort_keys=True)} in {where}"
        else:
            missing = f"missing: Allow {request.action} on {request.resource}"
            if request.principal.kind == "Service":
                missing += f" for {request.principal.id}"
            missing += f" in {where}"
        return Refusal(self.name, caller, describe(request), refused_by, missing)


def _names_only_account(statement: dict[str, Any] | None, principal: Principal) -> bool:
    """A key policy statement that names the account (root), so IAM policies must allow too."""
    if not statement:
        return False
    names = statement.get("Principal", {})
    names = names.get("AWS", []) if isinstance(names, dict) else [names]
    names = names if isinstance(names, list) else [names]
    return principal.id not in names


def describe(request: Request) -> str:
    return f"{request.action} {request.resource}"


def _ip_set_references(value: Any) -> Iterator[str]:
    """The IP set ARNs a web ACL's rules reference (IPSetReferenceStatement), at any depth."""
    if isinstance(value, dict):
        for key, inner in value.items():
            if key == "IPSetReferenceStatement" and isinstance(inner, dict) and isinstance(inner.get("Arn"), str):
                yield inner["Arn"]
            else:
                yield from _ip_set_references(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from _ip_set_references(inner)


# --- recorded calls --------------------------------------------------------------------------------------------


def read_recorded(directory: Path) -> list[dict[str, Any]]:
    lines = []
    for file in sorted(directory.glob("*.jsonl")):
        for line in file.read_text(encoding="utf-8").splitlines():
            if line.strip():
                lines.append(json.loads(line))
    return lines


BUCKET_ACTIONS = {"s3:ListBucket", "s3:GetBucketLocation", "s3:ListBucketVersions"}
#: The recorder keeps a key's first segment only; under these the stack reads and writes one key, checked as itself:
#: the sweeper's sweep epoch marker (sweeper-function's OrphanObjects), granted on that key and no other.
SINGLE_KEYS = {"sweeper/": "sweeper/epoch"}


def attribute(rules: StackRules, recorded: dict[str, Any]) -> list[Call] | str:
    """The template's view of a recorded call: its action on the ARN the deployed stack would have. A string says
    why it cannot be attributed (an identifier no environment variable of the function holds)."""
    function = recorded["function"]
    if function not in rules.stack.template["Resources"]:
        return f"function {function} is not in the template"
    if not rules.stack.deployed(function):
        return ""  # not part of this parameter set
    service_name = recorded["service"]
    if service_name not in aws.SERVICES:
        return f"service {service_name} has no IAM mapping here"
    service = aws.SERVICES[service_name][1]
    action = aws.iam_action(service_name, recorded["operation"])
    environment = rules.environment(function)
    identifiers = recorded.get("identifiers", {})
    names = recorded.get("env", {})

    def deployed(identifier: str) -> str | None:
        for variable in names.get(identifier, []):
            if variable in environment:
                return environment[variable]
        return None

    if service == "s3":
        bucket = deployed("Bucket")
        if bucket is None:
            return f"bucket {identifiers.get('Bucket')} is no environment variable's value"
        if action in BUCKET_ACTIONS:
            prefix = identifiers.get("Prefix")
            context = (("s3:prefix", prefix),) if prefix is not None else ()
            return [Call(function, service, action, f"arn:{PARTITION}:s3:::{bucket}", context=context)]
        # the recorder keeps a key's first segment ("pastes/"); DeleteObjects names its keys in Delete.Objects
        prefixes = identifiers.get("Delete.Objects.Key") or [identifiers.get("Key") or ""]
        return [Call(function, service, action, f"arn:{PARTITION}:s3:::{bucket}/{SINGLE_KEYS.get(p, p + 'x')}")
                for p in sorted(set(prefixes))]
    if service == "sqs":
        queue = deployed("QueueUrl")
        if queue is None:
            return f"queue {identifiers.get('QueueUrl')} is no environment variable's value"
        return [Call(function, service, action, aws.queue_arn(queue))]
    if service == "sns":
        topic = deployed("TopicArn")
        return [Call(function, service, action, topic)] if topic else f"topic {identifiers.get('TopicArn')} unknown"
    if service == "secretsmanager":
        secret = deployed("SecretId") or rules.event_secret(function, identifiers.get("SecretId") or "")
        return [Call(function, service, action, secret)] if secret else f"secret {identifiers.get('SecretId')} unknown"
    if service == "cloudfront":
        distribution = deployed("DistributionId")
        if distribution is None:
            return f"distribution {identifiers.get('DistributionId')} unknown"
        return [Call(function, service, action, f"arn:{PARTITION}:cloudfront::{ACCOUNT}:distribution/{distribution}")]
    if service == "cloudformation":
        # the edge's us-east-1 stack is named after the owning stack and its region (EdgeAclRequest): the name the
        # deployed stack's function would use, from the one the test's stack gave it
        name = identifiers.get("StackName") or ""
        if name.endswith("-edge-waf"):
            deployed_name = f"{STACK}-{REGION}-edge-waf" if f"-{REGION}-" in name else f"{STACK}-edge-waf"
            arn = f"arn:{PARTITION}:cloudformation:us-east-1:{ACCOUNT}:stack/{deployed_name}/x"
            return [Call(function, service, action, arn)]
        return f"stack {name} is not the edge's"
    if service == "monitoring" and action == "cloudwatch:PutMetricData":
        return [Call(function, service, action, "*")]
    return f"{action} on {identifiers} is not attributed to a template resource"


def check(
    stack: Stack, parameter_set: str, recorded: Iterable[dict[str, Any]], edge_template: dict[str, Any] | None = None
) -> tuple[list[Refusal], set[str]]:
    """All rules for one parameter set: the recorded calls, then the calls AWS documents the stack makes (with the
    edge's us-east-1 stack when its template is given)."""
    rules = StackRules(stack, parameter_set)
    refusals: list[Refusal] = []
    seen: set[tuple[str, str, str]] = set()
    calls: list[Call] = []
    for line in recorded:
        attributed = attribute(rules, line)
        if isinstance(attributed, str):
            if attributed:
                rules.unmodelled.add(f"[{parameter_set}] a call of {line['function']} not checked: {attributed}")
            continue
        calls.extend(attributed)
    calls.extend(rules.custom_resource_answers())
    calls.extend(rules.database_protection_calls())
    if edge_template is not None:
        calls.extend(rules.edge_stack_calls(edge_template))
    for call in calls:
        key = (call.function, call.action, call.resource)
        if key in seen:
            continue
        seen.add(key)
        for refusal in rules.check_call(call):
            if call.note:
                refusal = Refusal(refusal.parameter_set, refusal.caller, f"{refusal.request} ({call.note})",
                                  refusal.refused_by, refusal.missing)
            refusals.append(refusal)
    refusals.extend(rules.check_alarm_notifications())
    refusals.extend(rules.check_event_sources())
    refusals.extend(rules.check_schedules())
    refusals.extend(rules.check_origin_header())
    return refusals, rules.unmodelled
