import unittest

from stackrules.policy import Principal, Request, Unmodelled, evaluate

ROLE = Principal.role("arn:aws:iam::123456789012:role/upload")


def request(action="s3:PutObject", resource="arn:aws:s3:::pastes/pastes/x", principal=ROLE, **context):
    return Request(principal, action, resource, context)


def allow(**statement):
    return {"Statement": [dict(Effect="Allow", **statement)]}


class PolicyTest(unittest.TestCase):
    def test_an_allow_matching_action_and_resource_allows(self):
        self.assertTrue(evaluate([allow(Action="s3:PutObject", Resource="arn:aws:s3:::pastes/*")], request()).allowed)

    def test_without_a_matching_allow_the_answer_is_an_implicit_deny(self):
        decision = evaluate([allow(Action="s3:GetObject", Resource="*")], request())
        self.assertEqual("ImplicitDeny", decision.effect)

    def test_actions_match_case_insensitively_with_wildcards_and_resources_case_sensitively(self):
        self.assertTrue(evaluate([allow(Action="S3:Put*", Resource="arn:aws:s3:::past?s/*")], request()).allowed)
        self.assertFalse(evaluate([allow(Action="s3:*", Resource="arn:aws:s3:::PASTES/*")], request()).allowed)

    def test_an_explicit_deny_wins_over_any_allow(self):
        documents = [
            allow(Action="s3:*", Resource="*"),
            {"Statement": [{"Effect": "Deny", "Action": "s3:PutObject", "Resource": "*"}]},
        ]
        self.assertEqual("Deny", evaluate(documents, request()).effect)

    def test_not_action_and_not_resource_match_everything_else(self):
        self.assertTrue(evaluate([allow(NotAction="s3:DeleteObject", Resource="*")], request()).allowed)
        self.assertFalse(evaluate([allow(NotAction="s3:Put*", Resource="*")], request()).allowed)
        self.assertFalse(evaluate([allow(Action="*", NotResource="arn:aws:s3:::pastes/*")], request()).allowed)

    def test_principals_matter_in_resource_endpoint_and_key_policies(self):
        anyone = allow(Principal="*", Action="s3:*", Resource="*")
        account = allow(Principal={"AWS": "arn:aws:iam::123456789012:root"}, Action="s3:*", Resource="*")
        other = allow(Principal={"AWS": "arn:aws:iam::999999999999:root"}, Action="s3:*", Resource="*")
        cloudwatch = allow(Principal={"Service": "cloudwatch.amazonaws.com"}, Action="kms:Decrypt", Resource="*")
        self.assertTrue(evaluate([anyone], request(), principal_matters=True).allowed)
        self.assertTrue(evaluate([account], request(), principal_matters=True).allowed)
        self.assertFalse(evaluate([other], request(), principal_matters=True).allowed)
        self.assertFalse(evaluate([cloudwatch], request("kms:Decrypt", "*"), principal_matters=True).allowed)
        service = request("kms:Decrypt", "*", principal=Principal.service("cloudwatch.amazonaws.com"))
        self.assertTrue(evaluate([cloudwatch], service, principal_matters=True).allowed)

    def test_conditions_follow_aws_semantics_for_present_and_absent_keys(self):
        insecure_deny = {"Statement": [{"Effect": "Deny", "Principal": "*", "Action": "s3:*", "Resource": "*",
                                        "Condition": {"Bool": {"aws:SecureTransport": "false"}}}]}
        self.assertEqual("ImplicitDeny", evaluate([insecure_deny], request(**{"aws:SecureTransport": "true"}),
                                                  principal_matters=True).effect)
        self.assertEqual("Deny", evaluate([insecure_deny], request(**{"aws:SecureTransport": "false"}),
                                          principal_matters=True).effect)
        via_sns = allow(Action="kms:Decrypt", Resource="*", Condition={"StringEquals": {"kms:ViaService": "sns.us-east-1.amazonaws.com"}})
        self.assertFalse(evaluate([via_sns], request("kms:Decrypt", "*")).allowed)  # absent: a positive test fails
        self.assertTrue(evaluate([via_sns], request("kms:Decrypt", "*", **{"kms:ViaService": "sns.us-east-1.amazonaws.com"})).allowed)
        not_other = allow(Action="kms:Decrypt", Resource="*", Condition={"StringNotEquals": {"kms:ViaService": "sqs.x"}})
        self.assertTrue(evaluate([not_other], request("kms:Decrypt", "*")).allowed)  # absent: a negated test passes

    def test_what_is_not_modelled_is_raised_never_allowed(self):
        vpce = allow(Action="s3:*", Resource="*", Condition={"StringEquals": {"aws:SourceVpce": "vpce-1"}})
        with self.assertRaises(Unmodelled):
            evaluate([vpce], request())
        numeric = allow(Action="s3:*", Resource="*", Condition={"NumericLessThan": {"aws:SourceArn": "1"}})
        with self.assertRaises(Unmodelled):
            evaluate([numeric], request())


if __name__ == "__main__":
    unittest.main()
