import copy
import unittest

from stackrules.rules import check
from stackrules.template import Stack

BUCKET_ONLY = {"Statement": [{"Effect": "Allow", "Principal": "*", "Action": "s3:*",
                              "Resource": [{"Fn::GetAtt": ["Bucket", "Arn"]}, {"Fn::Sub": "${Bucket.Arn}/*"}]}]}
ANSWERS = {"Effect": "Allow", "Principal": "*", "Action": "s3:PutObject",
           "Resource": {"Fn::Sub": "arn:${AWS::Partition}:s3:::cloudformation-custom-resource-response-*/*"}}


def stack_template():
    """A function in a NAT-less VPC behind an S3 gateway endpoint, answering a custom resource, with an alarm."""
    return {
        "Parameters": {"Mode": {"Type": "String", "Default": "create"}},
        "Conditions": {"Created": {"Fn::Equals": [{"Ref": "Mode"}, "create"]}},
        "Resources": {
            "Bucket": {"Type": "AWS::S3::Bucket"},
            "Vpc": {"Type": "AWS::EC2::VPC", "Condition": "Created"},
            "Subnet": {"Type": "AWS::EC2::Subnet", "Condition": "Created", "Properties": {"VpcId": {"Ref": "Vpc"}}},
            "Table": {"Type": "AWS::EC2::RouteTable", "Condition": "Created", "Properties": {"VpcId": {"Ref": "Vpc"}}},
            "Association": {"Type": "AWS::EC2::SubnetRouteTableAssociation", "Condition": "Created",
                            "Properties": {"SubnetId": {"Ref": "Subnet"}, "RouteTableId": {"Ref": "Table"}}},
            "S3Endpoint": {"Type": "AWS::EC2::VPCEndpoint", "Condition": "Created", "Properties": {
                "VpcEndpointType": "Gateway", "ServiceName": {"Fn::Sub": "com.amazonaws.${AWS::Region}.s3"},
                "RouteTableIds": [{"Ref": "Table"}], "PolicyDocument": copy.deepcopy(BUCKET_ONLY)}},
            "MigrateRole": {"Type": "AWS::IAM::Role", "Properties": {"Policies": [{"PolicyName": "p", "PolicyDocument": {
                "Statement": [{"Effect": "Allow", "Action": "s3:GetObject", "Resource": {"Fn::Sub": "${Bucket.Arn}/*"}}]}}]}},
            "Migrate": {"Type": "AWS::Lambda::Function", "Properties": {
                "Role": {"Fn::GetAtt": ["MigrateRole", "Arn"]},
                "VpcConfig": {"Fn::If": ["Created", {"SubnetIds": [{"Ref": "Subnet"}]}, {"Ref": "AWS::NoValue"}]},
                "Environment": {"Variables": {"PASTEBIN_STORAGE_BUCKET": {"Ref": "Bucket"}}}}},
            "Schema": {"Type": "Custom::Schema", "Properties": {"ServiceToken": {"Fn::GetAtt": ["Migrate", "Arn"]}}},
            "Topic": {"Type": "AWS::SNS::Topic", "Properties": {"KmsMasterKeyId": "alias/aws/sns"}},
            "Alarm": {"Type": "AWS::CloudWatch::Alarm", "Properties": {"AlarmActions": [{"Ref": "Topic"}]}},
        },
    }


def refusals(template, parameters=None, recorded=()):
    found, _ = check(Stack(template, parameters or {}), "test", list(recorded))
    return found


def of_function(template, recorded):
    return [r for r in refusals(template, recorded=recorded) if r.caller == "Migrate"]


class RulesTest(unittest.TestCase):
    def test_a_custom_resource_answer_the_endpoint_policy_refuses_is_found(self):
        found = [r for r in refusals(stack_template()) if r.caller == "Migrate"]
        self.assertEqual(1, len(found), found)
        self.assertIn("S3Endpoint", found[0].refused_by)
        self.assertIn("cloudformation-custom-resource-response-useast1", found[0].request)

    def test_the_answer_passes_once_the_endpoint_allows_it_or_outside_the_vpc(self):
        template = stack_template()
        template["Resources"]["S3Endpoint"]["Properties"]["PolicyDocument"]["Statement"].append(ANSWERS)
        self.assertEqual([], [r for r in refusals(template) if r.caller == "Migrate"])
        self.assertEqual([], [r for r in refusals(stack_template(), {"Mode": "none"}) if r.caller == "Migrate"])

    def test_alarms_cannot_publish_to_a_topic_under_an_aws_managed_key(self):
        found = [r for r in refusals(stack_template()) if r.caller.startswith("CloudWatch alarm")]
        self.assertEqual(1, len(found), found)
        self.assertIn("alias/aws/sns", found[0].refused_by)

    def test_a_customer_managed_key_must_let_cloudwatch_use_it(self):
        template = stack_template()
        template["Resources"]["Topic"]["Properties"]["KmsMasterKeyId"] = {"Ref": "Key"}
        root_only = {"Statement": [{"Effect": "Allow", "Principal": {"AWS": {"Fn::Sub": "arn:aws:iam::${AWS::AccountId}:root"}},
                                    "Action": "kms:*", "Resource": "*"}]}
        template["Resources"]["Key"] = {"Type": "AWS::KMS::Key", "Properties": {"KeyPolicy": root_only}}
        found = [r for r in refusals(template) if r.caller.startswith("CloudWatch alarm")]
        self.assertEqual(2, len(found), found)  # GenerateDataKey and Decrypt
        self.assertIn("for cloudwatch.amazonaws.com", found[0].missing)
        root_only["Statement"].append({"Effect": "Allow", "Principal": {"Service": "cloudwatch.amazonaws.com"},
                                       "Action": ["kms:GenerateDataKey*", "kms:Decrypt"], "Resource": "*"})
        self.assertEqual([], [r for r in refusals(template) if r.caller.startswith("CloudWatch alarm")])

    def test_a_recorded_call_is_checked_against_the_role_and_the_endpoint(self):
        template = stack_template()
        template["Resources"]["S3Endpoint"]["Properties"]["PolicyDocument"]["Statement"].append(ANSWERS)
        get = {"function": "Migrate", "service": "S3", "operation": "GetObject",
               "identifiers": {"Bucket": "local-bucket", "Key": "pastes/"}, "env": {"Bucket": ["PASTEBIN_STORAGE_BUCKET"]}}
        put = dict(get, operation="PutObject")
        self.assertEqual([], of_function(template, [get]))
        found = of_function(template, [put, put])
        self.assertEqual(1, len(found), found)  # once per distinct call
        self.assertIn("MigrateRole", found[0].refused_by)
        self.assertIn("missing: Allow s3:PutObject on arn:aws:s3:::pastebin-bucket-generated/pastes/x", found[0].missing)

    def test_the_sweep_epoch_marker_is_checked_as_its_one_key(self):
        template = stack_template()
        template["Resources"]["S3Endpoint"]["Properties"]["PolicyDocument"]["Statement"].append(ANSWERS)
        template["Resources"]["MigrateRole"]["Properties"]["Policies"][0]["PolicyDocument"]["Statement"] = [
            {"Effect": "Allow", "Action": ["s3:GetObject", "s3:PutObject"],
             "Resource": {"Fn::Sub": "${Bucket.Arn}/sweeper/epoch"}}]
        get = {"function": "Migrate", "service": "S3", "operation": "GetObject",
               "identifiers": {"Bucket": "b", "Key": "sweeper/"}, "env": {"Bucket": ["PASTEBIN_STORAGE_BUCKET"]}}
        self.assertEqual([], of_function(template, [get, dict(get, operation="PutObject")]))
        other = dict(get, identifiers={"Bucket": "b", "Key": "pastes/"})
        self.assertEqual(["s3:GetObject arn:aws:s3:::pastebin-bucket-generated/pastes/x"],
                         [r.request for r in of_function(template, [other])])

    def test_each_key_prefix_of_a_delete_objects_is_checked(self):
        template = stack_template()
        template["Resources"]["S3Endpoint"]["Properties"]["PolicyDocument"]["Statement"].append(ANSWERS)
        template["Resources"]["MigrateRole"]["Properties"]["Policies"][0]["PolicyDocument"]["Statement"].append(
            {"Effect": "Allow", "Action": "s3:DeleteObject", "Resource": {"Fn::Sub": "${Bucket.Arn}/pastes/*"}})
        delete = {"function": "Migrate", "service": "S3", "operation": "DeleteObjects",
                  "identifiers": {"Bucket": "b", "Delete.Objects.Key": ["pastes/", "other/"]},
                  "env": {"Bucket": ["PASTEBIN_STORAGE_BUCKET"]}}
        found = of_function(template, [delete])
        self.assertEqual(["s3:DeleteObject arn:aws:s3:::pastebin-bucket-generated/other/x"], [r.request for r in found])

    def test_a_call_to_a_service_without_an_endpoint_has_no_route(self):
        template = stack_template()
        template["Resources"]["S3Endpoint"]["Properties"]["PolicyDocument"]["Statement"].append(ANSWERS)
        template["Resources"]["MigrateRole"]["Properties"]["Policies"][0]["PolicyDocument"]["Statement"].append(
            {"Effect": "Allow", "Action": "sqs:SendMessage", "Resource": "*"})
        template["Resources"]["Queue"] = {"Type": "AWS::SQS::Queue"}
        template["Resources"]["Migrate"]["Properties"]["Environment"]["Variables"]["QUEUE"] = {"Ref": "Queue"}
        send = {"function": "Migrate", "service": "Sqs", "operation": "SendMessageBatch",
                "identifiers": {"QueueUrl": "http://127.0.0.1:4566/000000000000/q"}, "env": {"QueueUrl": ["QUEUE"]}}
        found = of_function(template, [send])
        self.assertEqual(1, len(found), found)
        self.assertEqual("the network", found[0].refused_by)
        self.assertIn("sqs:SendMessage", found[0].request)

    def test_the_edge_stack_calls_are_checked_under_the_deployed_stacks_name(self):
        template = stack_template()
        template["Resources"]["S3Endpoint"]["Properties"]["PolicyDocument"]["Statement"].append(ANSWERS)
        template["Resources"]["Migrate"]["Properties"]["VpcConfig"] = {"Ref": "AWS::NoValue"}
        template["Resources"]["MigrateRole"]["Properties"]["Policies"][0]["PolicyDocument"]["Statement"].append(
            {"Effect": "Allow", "Action": "cloudformation:DescribeStacks",
             "Resource": {"Fn::Sub": "arn:aws:cloudformation:us-east-1:${AWS::AccountId}:stack/${AWS::StackName}-${AWS::Region}-edge-waf/*"}})
        call = {"function": "Migrate", "service": "CloudFormation", "operation": "DescribeStacks",
                "identifiers": {"StackName": "it-1234-us-east-1-edge-waf"}, "env": {"StackName": []}}
        self.assertEqual([], of_function(template, [call]))
        old_name = dict(call, identifiers={"StackName": "it-1234-edge-waf"})
        self.assertEqual(1, len(of_function(template, [old_name])))

    def test_a_schedule_without_an_invoke_permission_is_found(self):
        template = stack_template()
        template["Resources"]["Rule"] = {"Type": "AWS::Events::Rule", "Properties": {
            "Targets": [{"Arn": {"Fn::GetAtt": ["Migrate", "Arn"]}, "Id": "t"}]}}
        self.assertEqual(1, len([r for r in refusals(template) if r.caller == "EventBridge rule Rule"]))
        template["Resources"]["Permission"] = {"Type": "AWS::Lambda::Permission", "Properties": {
            "FunctionName": {"Fn::GetAtt": ["Migrate", "Arn"]}, "Principal": "events.amazonaws.com",
            "SourceArn": {"Fn::GetAtt": ["Rule", "Arn"]}}}
        self.assertEqual([], [r for r in refusals(template) if r.caller == "EventBridge rule Rule"])

    def test_the_edge_stacks_waf_resources_are_checked_against_the_role_that_asks_for_them(self):
        template = edge_requesting_template()
        self.assertEqual([], waf_refusals(template, edge_template()))
        self.assertEqual([], waf_refusals(template, None), "without the edge's template, no AWS WAF call")

    def test_a_waf_resource_without_a_name_is_refused_by_a_role_scoped_to_the_names(self):
        found = waf_refusals(edge_requesting_template(), edge_template(ip_set_named=False))
        generated = "arn:aws:wafv2:us-east-1:123456789012:global/ipset/Ips-GENERATED/"
        self.assertTrue(found and all(generated in r.request for r in found), found)
        # its own handler's calls, and the web ACL's create and update, which reference it
        self.assertIn("wafv2:CreateIPSet", {r.request.split()[0] for r in found})
        self.assertIn("wafv2:CreateWebACL", {r.request.split()[0] for r in found})
        self.assertIn("MigrateRole", found[0].refused_by)

    def test_the_database_protections_calls_are_checked_against_its_role(self):
        template = stack_template()
        template["Resources"]["S3Endpoint"]["Properties"]["PolicyDocument"]["Statement"].append(ANSWERS)
        template["Resources"]["Migrate"]["Properties"]["VpcConfig"] = {"Ref": "AWS::NoValue"}
        template["Resources"]["Cluster"] = {"Type": "AWS::RDS::DBCluster"}
        template["Resources"]["Protection"] = {"Type": "Custom::DatabaseProtection", "Properties": {
            "ServiceToken": {"Fn::GetAtt": ["Migrate", "Arn"]}, "DBClusterIdentifier": {"Ref": "Cluster"},
            "DeletionProtection": "true"}}
        statements = template["Resources"]["MigrateRole"]["Properties"]["Policies"][0]["PolicyDocument"]["Statement"]
        statements.append({"Effect": "Allow", "Action": ["rds:DescribeDBClusters"],
                           "Resource": {"Fn::Sub": "arn:aws:rds:${AWS::Region}:${AWS::AccountId}:cluster:${Cluster}"}})
        statements.append({"Effect": "Allow", "Action": "cloudformation:DescribeStacks", "Resource": {"Ref": "AWS::StackId"}})
        found = of_function(template, [])
        self.assertEqual(["rds:ModifyDBCluster arn:aws:rds:us-east-1:123456789012:cluster:pastebin-Cluster-GENERATED"],
                         [r.request.split(" (")[0] for r in found])
        statements[-2]["Action"].append("rds:ModifyDBCluster")
        self.assertEqual([], of_function(template, []))


def edge_template(ip_set_named=True):
    """An edge-waf.yaml of two resources: an IP set and a web ACL whose rule references it, named after NamePrefix."""
    def name(suffix):
        return {"Fn::If": ["Named", {"Fn::Sub": "${NamePrefix}-" + suffix}, {"Ref": "AWS::NoValue"}]}

    ip_set = {"Scope": "CLOUDFRONT", "IPAddressVersion": "IPV6"}
    if ip_set_named:
        ip_set["Name"] = name("edge-ip6")
    return {
        "Parameters": {"NamePrefix": {"Type": "String", "Default": ""}},
        "Conditions": {"Named": {"Fn::Not": [{"Fn::Equals": [{"Ref": "NamePrefix"}, ""]}]}},
        "Resources": {
            "Ips": {"Type": "AWS::WAFv2::IPSet", "Properties": ip_set},
            "Acl": {"Type": "AWS::WAFv2::WebACL", "Properties": {
                "Scope": "CLOUDFRONT", "Name": name("edge-waf"),
                "Rules": [{"Statement": {"IPSetReferenceStatement": {"Arn": {"Fn::GetAtt": ["Ips", "Arn"]}}}}]}},
        },
    }


def edge_requesting_template():
    """The stack's function asks for the edge's stack, named p-..., and its role may change those two names only."""
    template = stack_template()
    template["Resources"]["Edge"] = {"Type": "Custom::EdgeWebAcl", "Properties": {
        "ServiceToken": {"Fn::GetAtt": ["Migrate", "Arn"]}, "StackParameters": {"NamePrefix": "p"}}}
    template["Resources"]["MigrateRole"]["Properties"]["Policies"][0]["PolicyDocument"]["Statement"].append(
        {"Effect": "Allow", "Action": ["wafv2:*"], "Resource": [
            {"Fn::Sub": "arn:aws:wafv2:us-east-1:${AWS::AccountId}:global/webacl/p-edge-waf/*"},
            {"Fn::Sub": "arn:aws:wafv2:us-east-1:${AWS::AccountId}:global/ipset/p-edge-ip6/*"}]})
    return template


def waf_refusals(template, edge):
    found, _ = check(Stack(template, {}), "test", [], edge)
    return [r for r in found if r.request.startswith("wafv2:")]


if __name__ == "__main__":
    unittest.main()
