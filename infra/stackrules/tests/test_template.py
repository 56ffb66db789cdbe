import unittest

from stackrules.template import language_extensions

SAM = {
    "Transform": ["AWS::LanguageExtensions", "AWS::Serverless-2016-10-31"],
    "Parameters": {"Access": {"Type": "String", "Default": "anyone"}},
    "Conditions": {"SignIn": {"Fn::Equals": [{"Ref": "Access"}, "oidc"]}},
    "Resources": {
        "Api": {"Type": "AWS::Serverless::HttpApi", "Properties": {
            "Auth": {"Fn::If": ["SignIn", {"Authorizers": {"SignIn": {}}}, {"Ref": "AWS::NoValue"}]},
            "Tags": [{"Fn::If": ["SignIn", "signed", {"Ref": "AWS::NoValue"}]}, "kept"],
        }},
    },
}


class LanguageExtensionsTest(unittest.TestCase):
    def test_the_parameters_choose_the_branch_and_no_value_drops_the_key(self):
        open_api = language_extensions(SAM, {})["Resources"]["Api"]["Properties"]
        self.assertNotIn("Auth", open_api)
        self.assertEqual(["kept"], open_api["Tags"])
        signed = language_extensions(SAM, {"Access": "oidc"})["Resources"]["Api"]["Properties"]
        self.assertEqual({"Authorizers": {"SignIn": {}}}, signed["Auth"])
        self.assertEqual(["signed", "kept"], signed["Tags"])

    def test_the_transform_is_consumed_and_a_template_without_it_is_left_alone(self):
        self.assertEqual("AWS::Serverless-2016-10-31", language_extensions(SAM, {})["Transform"])
        plain = dict(SAM, Transform="AWS::Serverless-2016-10-31")
        self.assertIs(plain, language_extensions(plain, {"Access": "oidc"}))


if __name__ == "__main__":
    unittest.main()
