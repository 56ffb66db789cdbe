"""IAM's policy language, as far as this stack's policies use it, evaluated the way AWS documents it.

A statement applies when its action, resource, principal and conditions all match; an explicit Deny wins over any
Allow; without an Allow the answer is an implicit deny. Action, NotAction, Resource, NotResource, Principal,
NotPrincipal and the wildcards `*` and `?` are honoured. A condition operator or key this module does not model
raises `Unmodelled`: it is reported, never read as "allowed".
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass, field
from typing import Any, Iterable


class Unmodelled(Exception):
    """A part of a policy this evaluator does not model (see docs/testing.md, "Stack rules")."""


#: The condition keys a request context may carry here; any other key in a policy is unmodelled.
KNOWN_KEYS = {
    "aws:securetransport",
    "aws:sourcearn",
    "aws:sourceaccount",
    "aws:principalaccount",
    "aws:principalarn",
    "aws:principalservicename",
    "kms:viaservice",
    "kms:callerAccount".lower(),
    "s3:prefix",
}


@dataclass(frozen=True)
class Principal:
    """Who makes a request: a role (its ARN), an AWS service (its service principal), or anyone (pre-signed URL)."""

    kind: str  # "AWS" | "Service" | "Anonymous"
    id: str
    account: str | None = None

    @staticmethod
    def role(arn: str) -> "Principal":
        return Principal("AWS", arn, arn.split(":")[4])

    @staticmethod
    def service(name: str) -> "Principal":
        return Principal("Service", name)


@dataclass(frozen=True)
class Request:
    principal: Principal
    action: str
    resource: str
    context: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Decision:
    effect: str  # "Allow" | "Deny" (explicit) | "ImplicitDeny"
    statement: dict[str, Any] | None = None

    @property
    def allowed(self) -> bool:
        return self.effect == "Allow"


def _as_list(value: Any) -> list[Any]:
    if value is None:
        return []
    return value if isinstance(value, list) else [value]


def _matches(pattern: str, value: str, case_sensitive: bool) -> bool:
    if not case_sensitive:
        pattern, value = pattern.lower(), value.lower()
    return fnmatch.fnmatchcase(value, pattern)


def _action_matches(statement: dict[str, Any], action: str) -> bool:
    if "Action" in statement:
        return any(_matches(p, action, False) for p in _as_list(statement["Action"]))
    if "NotAction" in statement:
        return not any(_matches(p, action, False) for p in _as_list(statement["NotAction"]))
    return False


def _resource_matches(statement: dict[str, Any], resource: str) -> bool:
    if "Resource" in statement:
        return any(_matches(str(p), resource, True) for p in _as_list(statement["Resource"]))
    if "NotResource" in statement:
        return not any(_matches(str(p), resource, True) for p in _as_list(statement["NotResource"]))
    # resource-based policies may leave Resource out: the resource they are attached to
    return True


def _principal_in(principals: Any, principal: Principal) -> bool:
    if principals == "*":
        return True
    if not isinstance(principals, dict):
        raise Unmodelled(f"principal {principals!r}")
    for kind, values in principals.items():
        for value in _as_list(values):
            value = str(value)
            if kind == "AWS":
                if value == "*":
                    return True
                if principal.kind != "AWS":
                    continue
                account_root = f"arn:aws:iam::{principal.account}:root"
                if value in (principal.id, principal.account, account_root):
                    return True
            elif kind == "Service":
                if principal.kind == "Service" and value == principal.id:
                    return True
            else:
                raise Unmodelled(f"principal type {kind}")
    return False


def _principal_matches(statement: dict[str, Any], principal: Principal | None) -> bool:
    if principal is None or ("Principal" not in statement and "NotPrincipal" not in statement):
        return True  # an identity policy: its principal is the identity it is attached to
    if "Principal" in statement:
        return _principal_in(statement["Principal"], principal)
    return not _principal_in(statement["NotPrincipal"], principal)


_STRING_OPERATORS = {
    "StringEquals": lambda p, v: p == v,
    "StringNotEquals": lambda p, v: p == v,
    "StringEqualsIgnoreCase": lambda p, v: p.lower() == v.lower(),
    "StringLike": lambda p, v: fnmatch.fnmatchcase(v, p),
    "StringNotLike": lambda p, v: fnmatch.fnmatchcase(v, p),
    "ArnEquals": lambda p, v: p == v,
    "ArnLike": lambda p, v: fnmatch.fnmatchcase(v, p),
    "ArnNotEquals": lambda p, v: p == v,
    "ArnNotLike": lambda p, v: fnmatch.fnmatchcase(v, p),
    "Bool": lambda p, v: str(p).lower() == str(v).lower(),
}
_NEGATED = {"StringNotEquals", "StringNotLike", "ArnNotEquals", "ArnNotLike"}


def _conditions_hold(statement: dict[str, Any], context: dict[str, Any]) -> bool:
    for operator, entries in statement.get("Condition", {}).items():
        if_exists = operator.endswith("IfExists")
        base = operator[: -len("IfExists")] if if_exists else operator
        if base not in _STRING_OPERATORS:
            raise Unmodelled(f"condition operator {operator}")
        compare = _STRING_OPERATORS[base]
        for key, patterns in entries.items():
            if key.lower() not in KNOWN_KEYS:
                raise Unmodelled(f"condition key {key}")
            present = {k.lower(): v for k, v in context.items()}
            if key.lower() not in present:
                # AWS: an absent key fails a positive operator and passes a negated one; IfExists passes.
                if if_exists or base in _NEGATED:
                    continue
                return False
            value = str(present[key.lower()])
            matched = any(compare(str(p), value) for p in _as_list(patterns))
            if matched == (base in _NEGATED):
                return False
    return True


def applies(statement: dict[str, Any], request: Request, principal_matters: bool) -> bool:
    return (
        _action_matches(statement, request.action)
        and _resource_matches(statement, request.resource)
        and _principal_matches(statement, request.principal if principal_matters else None)
        and _conditions_hold(statement, request.context)
    )


def evaluate(documents: Iterable[dict[str, Any]], request: Request, principal_matters: bool = False) -> Decision:
    """One kind of policy (identity, or one resource's, endpoint's or key's): Deny wins, then Allow, else implicit."""
    allow = None
    for document in documents:
        for statement in _as_list(document.get("Statement")):
            if not applies(statement, request, principal_matters):
                continue
            if statement.get("Effect") == "Deny":
                return Decision("Deny", statement)
            if statement.get("Effect") == "Allow" and allow is None:
                allow = statement
    return Decision("Allow", allow) if allow is not None else Decision("ImplicitDeny")
