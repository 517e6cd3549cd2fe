#!/usr/bin/env python3
"""Prepares a fresh moto server like the SeaweedFS test bed, then turns authentication on.

Usage: moto_bootstrap.py ENDPOINT BUCKET REGION
Prints "ACCESS_KEY SECRET_KEY ROLE_ARN" on stdout. Creates: IAM user `catalog` with an
allow-all inline policy and an access key (moto cannot take a chosen key), role `vend` whose
policy allows s3:* on BUCKET, and the bucket itself. Finally POSTs /moto-api/reset-auth so
every later request needs a valid SigV4 signature. moto ignores session policies and expiry.
"""
import json
import sys
import urllib.request

import boto3


def main() -> int:
    endpoint, bucket, region = sys.argv[1:4]
    # Auth is off until the end: any key works for the bootstrap calls.
    kw = dict(endpoint_url=endpoint, region_name=region,
              aws_access_key_id="bootstrap", aws_secret_access_key="bootstrap")
    iam = boto3.client("iam", **kw)
    s3 = boto3.client("s3", **kw)

    iam.create_user(UserName="catalog")
    iam.put_user_policy(UserName="catalog", PolicyName="all", PolicyDocument=json.dumps({
        "Version": "2012-10-17",
        "Statement": [{"Effect": "Allow", "Action": "*", "Resource": "*"}]}))
    key = iam.create_access_key(UserName="catalog")["AccessKey"]

    trust = {"Version": "2012-10-17", "Statement": [{
        "Effect": "Allow", "Principal": {"AWS": "*"}, "Action": "sts:AssumeRole"}]}
    role = iam.create_role(RoleName="vend", AssumeRolePolicyDocument=json.dumps(trust))["Role"]
    iam.put_role_policy(RoleName="vend", PolicyName="WarehouseRW", PolicyDocument=json.dumps({
        "Version": "2012-10-17",
        "Statement": [{"Effect": "Allow", "Action": "s3:*",
                       "Resource": [f"arn:aws:s3:::{bucket}", f"arn:aws:s3:::{bucket}/*"]}]}))
    s3.create_bucket(Bucket=bucket)

    # Not form-encoded: flask would swallow the body into request.form and moto then fails
    # float('') with a 500 (so the runbook's plain `curl --data 0` does not work either).
    req = urllib.request.Request(f"{endpoint}/moto-api/reset-auth", data=b"0", method="POST",
                                 headers={"Content-Type": "text/plain"})
    urllib.request.urlopen(req, timeout=10).read()
    print(key["AccessKeyId"], key["SecretAccessKey"], role["Arn"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
