"""What AWS documents and the template does not say: IAM action names of SDK operations, the AWS-managed policies
SAM attaches, and which service a VPC endpoint serves."""

from __future__ import annotations

from .template import ACCOUNT, PARTITION, REGION

#: SDK service name (ExecutionAttributes SERVICE_NAME) -> IAM action prefix and endpoint service name.
SERVICES = {
    "S3": ("s3", "s3"),
    "Sqs": ("sqs", "sqs"),
    "SQS": ("sqs", "sqs"),
    "SecretsManager": ("secretsmanager", "secretsmanager"),
    "Sns": ("sns", "sns"),
    "SNS": ("sns", "sns"),
    "CloudWatch": ("cloudwatch", "monitoring"),
    "CloudFront": ("cloudfront", "cloudfront"),
    "CloudFormation": ("cloudformation", "cloudformation"),
    "Kms": ("kms", "kms"),
    "KMS": ("kms", "kms"),
    "Lambda": ("lambda", "lambda"),
    "Sts": ("sts", "sts"),
    "STS": ("sts", "sts"),
}

#: SDK operations whose IAM action is not `<prefix>:<operation>` (the Service Authorization Reference).
ACTION_OF_OPERATION = {
    ("s3", "ListObjectsV2"): "s3:ListBucket",
    ("s3", "ListObjects"): "s3:ListBucket",
    ("s3", "HeadBucket"): "s3:ListBucket",
    ("s3", "HeadObject"): "s3:GetObject",
    ("s3", "GetObjectAttributes"): "s3:GetObject",
    ("s3", "DeleteObjects"): "s3:DeleteObject",
    ("s3", "CreateMultipartUpload"): "s3:PutObject",
    ("s3", "UploadPart"): "s3:PutObject",
    ("s3", "CompleteMultipartUpload"): "s3:PutObject",
    ("sqs", "SendMessageBatch"): "sqs:SendMessage",
    ("sqs", "DeleteMessageBatch"): "sqs:DeleteMessage",
    ("sqs", "ChangeMessageVisibilityBatch"): "sqs:ChangeMessageVisibility",
}


def iam_action(service: str, operation: str) -> str:
    prefix = SERVICES[service][0]
    return ACTION_OF_OPERATION.get((prefix, operation), f"{prefix}:{operation}")


#: The statements of the AWS-managed policies SAM attaches to the functions' roles (as AWS publishes them). A role
#: with any other managed policy is reported as unmodelled.
MANAGED_POLICIES = {
    f"arn:{PARTITION}:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole": [
        {"Effect": "Allow", "Action": ["logs:CreateLogGroup", "logs:CreateLogStream", "logs:PutLogEvents"],
         "Resource": "*"},
    ],
    f"arn:{PARTITION}:iam::aws:policy/AWSXrayWriteOnlyAccess": [
        {"Effect": "Allow", "Action": ["xray:PutTraceSegments", "xray:PutTelemetryRecords",
                                       "xray:GetSamplingRules", "xray:GetSamplingTargets",
                                       "xray:GetSamplingStatisticSummaries"], "Resource": "*"},
    ],
    f"arn:{PARTITION}:iam::aws:policy/service-role/AWSLambdaVPCAccessExecutionRole": [
        {"Effect": "Allow", "Action": ["logs:CreateLogGroup", "logs:CreateLogStream", "logs:PutLogEvents",
                                       "ec2:CreateNetworkInterface", "ec2:DescribeNetworkInterfaces",
                                       "ec2:DescribeSubnets", "ec2:DeleteNetworkInterface",
                                       "ec2:AssignPrivateIpAddresses", "ec2:UnassignPrivateIpAddresses"],
         "Resource": "*"},
    ],
    f"arn:{PARTITION}:iam::aws:policy/service-role/AWSLambdaSQSQueueExecutionRole": [
        {"Effect": "Allow", "Action": ["sqs:ReceiveMessage", "sqs:DeleteMessage", "sqs:GetQueueAttributes",
                                       "logs:CreateLogGroup", "logs:CreateLogStream", "logs:PutLogEvents"],
         "Resource": "*"},
    ],
    f"arn:{PARTITION}:iam::aws:policy/service-role/AWSLambdaRole": [
        {"Effect": "Allow", "Action": ["lambda:InvokeFunction"], "Resource": ["*"]},
    ],
}


def queue_arn(queue_url_or_name: str) -> str:
    name = queue_url_or_name.rstrip("/").rsplit("/", 1)[-1]
    return f"arn:{PARTITION}:sqs:{REGION}:{ACCOUNT}:{name}"


def bucket_of_host(host: str) -> str | None:
    """The bucket a virtual-hosted S3 URL names (`<bucket>.s3.amazonaws.com`, `<bucket>.s3.<region>...`)."""
    if ".s3." in host or ".s3-" in host:
        return host.split(".s3", 1)[0]
    return None


def custom_resource_response_bucket(region: str = REGION) -> str:
    """The bucket of CloudFormation's pre-signed ResponseURL for a custom resource in `region`."""
    return "cloudformation-custom-resource-response-" + region.replace("-", "")
