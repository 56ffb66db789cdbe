"""The stack as AWS would deploy it: SAM's own transform, then CloudFormation's intrinsics resolved for one parameter set.

Physical names and ids are made up the way CloudFormation makes them (stack name and logical id), in a made-up
account; what matters to the rules is that every reference to one resource resolves to the same ARN.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

STACK = "pastebin"
REGION = "us-east-1"
ACCOUNT = "123456789012"
PARTITION = "aws"
STACK_ID = f"arn:{PARTITION}:cloudformation:{REGION}:{ACCOUNT}:stack/{STACK}/11111111-2222-3333-4444-555555555555"

#: The AWS WAF resource types and the word for each in their ARNs (arn:...:wafv2:<region>:<account>:<scope>/<kind>/...).
WAF_KINDS = {"AWS::WAFv2::WebACL": "webacl", "AWS::WAFv2::IPSet": "ipset"}
#: The id AWS WAF gives a resource (the ARN's last part), made up.
WAF_ID = "0f1e2d3c-1111-2222-3333-444455556666"

#: AWS::NoValue: removed from the list or map that holds it.
NO_VALUE = object()


class Unresolvable(Exception):
    """An intrinsic the resolver does not model: never guessed."""


LANGUAGE_EXTENSIONS = "AWS::LanguageExtensions"


def language_extensions(sam: dict[str, Any], parameters: dict[str, str]) -> dict[str, Any]:
    """What CloudFormation's AWS::LanguageExtensions transform hands SAM's, when the template lists it first.

    Every Fn::If whose condition the parameters decide becomes its branch, and a branch that is AWS::NoValue drops
    its key or list item (SAM refuses intrinsics in places such as an HTTP API's Auth, which is why the template
    uses the transform); an Fn::If the parameters do not decide is left for CloudFormation. A template without the
    transform is returned as it is.
    """
    transforms = sam.get("Transform")
    listed = transforms if isinstance(transforms, list) else [transforms]
    if LANGUAGE_EXTENSIONS not in listed:
        return sam
    decider = Stack(sam, parameters)

    def walk(value: Any) -> Any:
        if isinstance(value, list):
            items = [walk(v) for v in value]
            return [v for v in items if v is not NO_VALUE]
        if not isinstance(value, dict):
            return value
        if len(value) == 1 and "Fn::If" in value:
            name, then, otherwise = value["Fn::If"]
            try:
                chosen = then if decider.condition(name) else otherwise
            except Unresolvable:
                return {"Fn::If": [name, walk(then), walk(otherwise)]}
            return NO_VALUE if chosen == {"Ref": "AWS::NoValue"} else walk(chosen)
        items = {key: walk(v) for key, v in value.items()}
        return {key: v for key, v in items.items() if v is not NO_VALUE}

    expanded = dict(sam)
    rest = [t for t in listed if t != LANGUAGE_EXTENSIONS]
    expanded["Transform"] = rest[0] if len(rest) == 1 else rest
    expanded["Resources"] = walk(sam.get("Resources", {}))
    return expanded


def sam_transform(template_file: Path, parameters: dict[str, str] | None = None) -> dict[str, Any]:
    """infra/template.yaml through SAM's translator, as `sam deploy` has CloudFormation run it for one parameter set.

    The language extensions first, as CloudFormation runs them before SAM's (language_extensions). Local CodeUri
    paths become made-up S3 URIs (the translator accepts only those); AWS-managed policies are named from the
    translator's bundled map, so no AWS call is made.
    """
    import logging
    import os

    os.environ.setdefault("AWS_DEFAULT_REGION", REGION)
    # a notice per function about a feature toggle this transform does not use
    logging.getLogger("samtranslator").setLevel(logging.ERROR)
    from samtranslator.internal.managed_policies import get_bundled_managed_policy_map
    from samtranslator.parser.parser import Parser
    from samtranslator.translator.translator import Translator
    from samtranslator.yaml_helper import yaml_parse

    sam = language_extensions(yaml_parse(template_file.read_text(encoding="utf-8")), parameters or {})
    for logical_id, resource in sam.get("Resources", {}).items():
        if resource.get("Type") == "AWS::Serverless::Function":
            resource.setdefault("Properties", {})["CodeUri"] = f"s3://artifacts/{logical_id}.zip"
    translator = Translator(managed_policy_map=None, sam_parser=Parser())
    return translator.translate(
        sam, parameter_values={}, get_managed_policy_map=lambda: get_bundled_managed_policy_map(PARTITION)
    )


def load(template_file: Path) -> dict[str, Any]:
    """A plain CloudFormation template (no transform: infra/edge-waf.yaml), its short-form tags in their long form."""
    from samtranslator.yaml_helper import yaml_parse

    return yaml_parse(template_file.read_text(encoding="utf-8"))


@dataclass
class Stack:
    """A CloudFormation template (already transformed) under one parameter set."""

    template: dict[str, Any]
    parameters: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._conditions: dict[str, bool] = {}
        values = {}
        for name, spec in self.template.get("Parameters", {}).items():
            values[name] = str(spec.get("Default", "")) if "Default" in spec else None
        values.update(self.parameters)
        self._parameters = values

    # --- resources ---------------------------------------------------------------------------------------------

    def resources(self, type_name: str | None = None) -> dict[str, dict[str, Any]]:
        """The resources this parameter set deploys (their Condition holds), optionally of one type."""
        return {
            logical_id: resource
            for logical_id, resource in self.template["Resources"].items()
            if (type_name is None or resource["Type"] == type_name) and self.deployed(logical_id)
        }

    def deployed(self, logical_id: str) -> bool:
        resource = self.template["Resources"].get(logical_id)
        if resource is None:
            return False
        condition = resource.get("Condition")
        return condition is None or self.condition(condition)

    def properties(self, logical_id: str) -> dict[str, Any]:
        """The resource's properties with every intrinsic resolved."""
        resolved = self.resolve(copy.deepcopy(self.template["Resources"][logical_id].get("Properties", {})))
        return resolved if isinstance(resolved, dict) else {}

    def type_of(self, logical_id: str) -> str:
        return self.template["Resources"][logical_id]["Type"]

    # --- conditions --------------------------------------------------------------------------------------------

    def condition(self, name: str) -> bool:
        if name not in self._conditions:
            self._conditions[name] = self._truth(self.template["Conditions"][name])
        return self._conditions[name]

    def _truth(self, expression: Any) -> bool:
        if isinstance(expression, dict) and len(expression) == 1:
            (function, argument), = expression.items()
            if function == "Condition":
                return self.condition(argument)
            if function == "Fn::Equals":
                left, right = (self.resolve(a) for a in argument)
                return str(left) == str(right)
            if function == "Fn::Not":
                return not self._truth(argument[0])
            if function == "Fn::And":
                return all(self._truth(a) for a in argument)
            if function == "Fn::Or":
                return any(self._truth(a) for a in argument)
        raise Unresolvable(f"condition {expression!r}")

    # --- intrinsics --------------------------------------------------------------------------------------------

    def resolve(self, value: Any) -> Any:
        if isinstance(value, list):
            items = [self.resolve(v) for v in value]
            return [v for v in items if v is not NO_VALUE]
        if not isinstance(value, dict):
            return value
        if len(value) == 1:
            (key,) = value
            if key == "Ref" or key.startswith("Fn::") or key == "Condition":
                return self._intrinsic(key, value[key])
        resolved = {k: self.resolve(v) for k, v in value.items()}
        return {k: v for k, v in resolved.items() if v is not NO_VALUE}

    def _intrinsic(self, function: str, argument: Any) -> Any:
        if function == "Ref":
            return self.ref(argument)
        if function == "Fn::GetAtt":
            logical_id, attribute = argument.split(".", 1) if isinstance(argument, str) else argument
            return self.get_att(logical_id, self.resolve(attribute))
        if function == "Fn::Sub":
            text, variables = (argument, {}) if isinstance(argument, str) else argument
            return self._sub(text, {k: self.resolve(v) for k, v in variables.items()})
        if function == "Fn::If":
            name, when_true, when_false = argument
            return self.resolve(when_true if self.condition(name) else when_false)
        if function == "Fn::Join":
            separator, items = argument
            return separator.join(str(v) for v in self.resolve(items))
        if function == "Fn::Select":
            index, items = argument
            return self.resolve(items)[int(self.resolve(index))]
        if function == "Fn::Split":
            separator, text = argument
            return str(self.resolve(text)).split(separator)
        if function == "Fn::GetAZs":
            return [f"{REGION}a", f"{REGION}b", f"{REGION}c"]
        if function == "Fn::FindInMap":
            name, top, second = (self.resolve(a) for a in argument[:3])
            return self.template["Mappings"][name][top][second]
        if function == "Fn::Base64":
            return self.resolve(argument)
        if function == "Fn::Cidr":
            count = int(self.resolve(argument[1]))
            return [f"10.0.{i}.0/24" for i in range(count)]
        if function == "Fn::ToJsonString":
            import json

            return json.dumps(self.resolve(argument))
        if function == "Condition":
            return self.condition(argument)
        raise Unresolvable(f"{function} {argument!r}")

    def _sub(self, text: str, variables: dict[str, Any]) -> str:
        def replace(match: re.Match[str]) -> str:
            name = match.group(1)
            if name.startswith("!"):
                return "${" + name[1:] + "}"
            if name in variables:
                return str(variables[name])
            if "." in name and not name.startswith("AWS::"):
                logical_id, attribute = name.split(".", 1)
                return str(self.get_att(logical_id, attribute))
            return str(self.ref(name))

        return re.sub(r"\$\{([^}]+)\}", replace, text)

    def ref(self, name: str) -> Any:
        pseudo = {
            "AWS::Region": REGION,
            "AWS::AccountId": ACCOUNT,
            "AWS::Partition": PARTITION,
            "AWS::StackName": STACK,
            "AWS::StackId": STACK_ID,
            "AWS::URLSuffix": "amazonaws.com",
            "AWS::NoValue": NO_VALUE,
        }
        if name in pseudo:
            return pseudo[name]
        if name in self._parameters:
            value = self._parameters[name]
            if value is None:
                raise Unresolvable(f"parameter {name} has no default and no value in the parameter set")
            spec = self.template["Parameters"][name]
            if spec.get("Type", "").startswith("List<") or spec.get("Type") == "CommaDelimitedList":
                return [v for v in value.split(",")] if value else [""]
            return value
        resource = self.template["Resources"].get(name)
        if resource is None:
            raise Unresolvable(f"Ref {name}")
        return physical_ref(name, resource["Type"], self._plain_properties(name))

    def get_att(self, logical_id: str, attribute: str) -> Any:
        resource = self.template["Resources"].get(logical_id)
        if resource is None:
            raise Unresolvable(f"GetAtt {logical_id}.{attribute}")
        return physical_attribute(logical_id, resource["Type"], attribute, self._plain_properties(logical_id))

    def _plain_properties(self, logical_id: str) -> dict[str, Any]:
        """The properties that name a resource (BucketName, QueueName, ...), when they are plain strings."""
        properties = self.template["Resources"][logical_id].get("Properties", {})
        names = {}
        for key in ("BucketName", "QueueName", "TopicName", "Name", "FunctionName", "RoleName", "Scope"):
            value = properties.get(key)
            if value is not None:
                try:
                    resolved = self.resolve(copy.deepcopy(value))
                except Unresolvable:
                    continue
                if isinstance(resolved, str):
                    names[key] = resolved
        return names


def _physical_name(logical_id: str, properties: dict[str, Any], key: str, lower: bool = False) -> str:
    name = properties.get(key) or f"{STACK}-{logical_id}-GENERATED"
    return name.lower() if lower else name


def physical_ref(logical_id: str, type_name: str, properties: dict[str, Any]) -> str:
    if type_name == "AWS::S3::Bucket":
        return _physical_name(logical_id, properties, "BucketName", lower=True)
    if type_name == "AWS::SQS::Queue":
        name = _physical_name(logical_id, properties, "QueueName")
        return f"https://sqs.{REGION}.amazonaws.com/{ACCOUNT}/{name}"
    if type_name == "AWS::SNS::Topic":
        return f"arn:{PARTITION}:sns:{REGION}:{ACCOUNT}:{_physical_name(logical_id, properties, 'TopicName')}"
    if type_name == "AWS::SecretsManager::Secret":
        name = _physical_name(logical_id, properties, "Name")
        return f"arn:{PARTITION}:secretsmanager:{REGION}:{ACCOUNT}:secret:{name}-AbCdEf"
    if type_name == "AWS::KMS::Key":
        return f"key-{logical_id}"
    if type_name == "AWS::Lambda::Function":
        return _physical_name(logical_id, properties, "FunctionName")
    if type_name == "AWS::Lambda::Alias":
        return f"arn:{PARTITION}:lambda:{REGION}:{ACCOUNT}:function:{logical_id}:live"
    if type_name == "AWS::IAM::Role":
        return _physical_name(logical_id, properties, "RoleName")
    if type_name == "AWS::CloudFront::Distribution":
        return f"E{logical_id.upper()[:12]}"
    return f"{STACK}-{logical_id}-GENERATED"


def physical_attribute(logical_id: str, type_name: str, attribute: str, properties: dict[str, Any]) -> Any:
    ref = physical_ref(logical_id, type_name, properties)
    if type_name == "AWS::S3::Bucket":
        return {
            "Arn": f"arn:{PARTITION}:s3:::{ref}",
            "DomainName": f"{ref}.s3.amazonaws.com",
            "RegionalDomainName": f"{ref}.s3.{REGION}.amazonaws.com",
        }.get(attribute, f"{ref}.{attribute}")
    if type_name == "AWS::SQS::Queue":
        name = ref.rsplit("/", 1)[1]
        return {
            "Arn": f"arn:{PARTITION}:sqs:{REGION}:{ACCOUNT}:{name}",
            "QueueName": name,
            "QueueUrl": ref,
        }.get(attribute, f"{name}.{attribute}")
    if type_name == "AWS::SNS::Topic":
        return {"TopicArn": ref, "TopicName": ref.rsplit(":", 1)[1]}.get(attribute, f"{ref}.{attribute}")
    if type_name == "AWS::KMS::Key":
        return {"Arn": f"arn:{PARTITION}:kms:{REGION}:{ACCOUNT}:key/{ref}", "KeyId": ref}.get(attribute)
    if type_name == "AWS::Lambda::Function" and attribute == "Arn":
        return f"arn:{PARTITION}:lambda:{REGION}:{ACCOUNT}:function:{ref}"
    if type_name == "AWS::IAM::Role" and attribute == "Arn":
        return f"arn:{PARTITION}:iam::{ACCOUNT}:role/{ref}"
    if type_name == "AWS::Events::Rule" and attribute == "Arn":
        return f"arn:{PARTITION}:events:{REGION}:{ACCOUNT}:rule/{ref}"
    if type_name == "AWS::ApiGatewayV2::Api" and attribute == "ApiEndpoint":
        return f"https://{ref}.execute-api.{REGION}.amazonaws.com"
    if type_name in WAF_KINDS and attribute == "Arn":
        # CloudFront's (global) web ACLs and IP sets live in us-east-1; a generated name is CloudFormation's own
        scope, region = ("global", "us-east-1") if properties.get("Scope") == "CLOUDFRONT" else ("regional", REGION)
        name = properties.get("Name") or f"{logical_id}-GENERATED"
        return f"arn:{PARTITION}:wafv2:{region}:{ACCOUNT}:{scope}/{WAF_KINDS[type_name]}/{name}/{WAF_ID}"
    return f"{logical_id}.{attribute}"
