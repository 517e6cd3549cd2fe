#!/usr/bin/env python3
"""Evidence that the running test-bed store enforces what Firn's tests rely on.

Usage: selfcheck.py [S3_ENV_FILE]   (default $FIRN_TESTBED_RUN/s3.env, else the FIRN_S3_* env)
Needs boto3. Exits 1 if any required check fails. Checks:
  static keys: put / get / list / delete; a wrong secret -> SignatureDoesNotMatch;
  an unknown key is refused; STS AssumeRole (POST to the S3 endpoint, service `sts`) of
  FIRN_S3_ROLE_ARN with a session policy limited to BUCKET/a/* -> temp credentials that
  read/write under a/ and get AccessDenied under b/ (skipped on moto, which ignores session
  policies); a tampered session token is refused. Informational: If-None-Match: * on an
  existing key (412 = conditional create supported), ListObjects under the session policy.
"""
import json
import os
import sys
import uuid

import boto3
from botocore.config import Config
from botocore.exceptions import ClientError

RESULTS = {"ok": 0, "failed": 0, "skipped": 0}


def report(status, name, detail=""):
    key = {"PASS": "ok", "FAIL": "failed", "SKIP": "skipped"}.get(status)
    if key:
        RESULTS[key] += 1
    print(f"{status:4} {name}" + (f": {detail}" if detail else ""), flush=True)


def load_env(argv):
    path = argv[1] if len(argv) > 1 else os.path.join(
        os.environ.get("FIRN_TESTBED_RUN", "/tmp/firn-testbed"), "s3.env")
    env = dict(os.environ)
    if os.path.exists(path):
        for line in open(path):
            line = line.strip()
            if line.startswith("export "):
                k, _, v = line[len("export "):].partition("=")
                env[k] = v
    return env


def error_code(fn):
    """Runs fn; returns None on success, else the S3/STS error code (or HTTP status)."""
    try:
        fn()
        return None
    except ClientError as e:
        err = e.response.get("Error", {})
        return err.get("Code") or str(e.response["ResponseMetadata"]["HTTPStatusCode"])


def expect_ok(name, fn):
    try:
        out = fn()
        report("PASS", name)
        return out
    except Exception as e:  # noqa: BLE001 - any failure is the finding
        report("FAIL", name, repr(e))
        return None


def expect_code(name, fn, codes):
    code = error_code(fn)
    if code in codes:
        report("PASS", name, f"refused with {code}")
    else:
        report("FAIL", name, f"expected one of {sorted(codes)}, got {code or 'success'}")


def main(argv):
    env = load_env(argv)
    endpoint, region = env["FIRN_S3_ENDPOINT"], env.get("FIRN_S3_REGION", "us-east-1")
    bucket, flavor = env["FIRN_S3_BUCKET"], env.get("FIRN_S3_FLAVOR", "?")
    ak, sk, role = env["FIRN_S3_ACCESS_KEY"], env["FIRN_S3_SECRET_KEY"], env["FIRN_S3_ROLE_ARN"]
    print(f"store: {flavor} at {endpoint}, bucket {bucket}, role {role}")
    cfg = Config(s3={"addressing_style": "path"}, signature_version="s3v4",
                 retries={"max_attempts": 1})

    def client(service, key, secret, token=None):
        return boto3.client(service, endpoint_url=endpoint, region_name=region, config=cfg,
                            aws_access_key_id=key, aws_secret_access_key=secret,
                            aws_session_token=token)

    s3 = client("s3", ak, sk)
    run = f"selfcheck-{uuid.uuid4().hex[:8]}"
    k1 = f"{run}/hello.txt"

    # --- static identity -------------------------------------------------------------------
    expect_ok("static put", lambda: s3.put_object(Bucket=bucket, Key=k1, Body=b"hello"))
    body = expect_ok("static get", lambda: s3.get_object(Bucket=bucket, Key=k1)["Body"].read())
    if body is not None and body != b"hello":
        report("FAIL", "static get content", repr(body))
    keys = expect_ok("static list", lambda: [o["Key"] for o in s3.list_objects_v2(
        Bucket=bucket, Prefix=f"{run}/").get("Contents", [])])
    if keys is not None and keys != [k1]:
        report("FAIL", "static list content", repr(keys))

    bad = client("s3", ak, sk + "x")
    expect_code("wrong secret refused", lambda: bad.get_object(Bucket=bucket, Key=k1),
                {"SignatureDoesNotMatch"})
    unknown = client("s3", "NOSUCHKEY" + uuid.uuid4().hex[:8].upper(), sk)
    expect_code("unknown access key refused", lambda: unknown.get_object(Bucket=bucket, Key=k1),
                {"InvalidAccessKeyId", "AccessDenied", "403"})

    # --- conditional create (informational) --------------------------------------------------
    code = error_code(lambda: s3.put_object(Bucket=bucket, Key=k1, Body=b"again",
                                            IfNoneMatch="*"))
    if code in ("PreconditionFailed", "412"):
        print("INFO conditional PUT If-None-Match:* on existing key: 412 PreconditionFailed "
              "(supported)")
    else:
        print(f"INFO conditional PUT If-None-Match:* on existing key: {code or 'overwrote (200)'}"
              " (NOT supported)")
    new_key = f"{run}/cond-new.txt"
    code = error_code(lambda: s3.put_object(Bucket=bucket, Key=new_key, Body=b"x", IfNoneMatch="*"))
    print(f"INFO conditional PUT If-None-Match:* on new key: {code or 'created (200)'}")

    # --- STS AssumeRole with a session policy -------------------------------------------------
    sts = client("sts", ak, sk)
    session_policy = {"Version": "2012-10-17", "Statement": [
        {"Effect": "Allow", "Action": ["s3:GetObject", "s3:PutObject", "s3:DeleteObject"],
         "Resource": [f"arn:aws:s3:::{bucket}/{run}/a/*"]},
        {"Effect": "Allow", "Action": ["s3:ListBucket"], "Resource": [f"arn:aws:s3:::{bucket}"],
         "Condition": {"StringLike": {"s3:prefix": [f"{run}/a/*"]}}}]}
    creds = expect_ok("sts AssumeRole with session policy", lambda: sts.assume_role(
        RoleArn=role, RoleSessionName="selfcheck", DurationSeconds=900,
        Policy=json.dumps(session_policy))["Credentials"])
    if creds:
        print(f"INFO temp key {creds['AccessKeyId'][:4]}..., expires {creds['Expiration']}")
        tmp = client("s3", creds["AccessKeyId"], creds["SecretAccessKey"], creds["SessionToken"])
        ka, kb = f"{run}/a/data.txt", f"{run}/b/data.txt"
        expect_ok("temp creds put under a/", lambda: tmp.put_object(Bucket=bucket, Key=ka, Body=b"a"))
        got = expect_ok("temp creds get under a/",
                        lambda: tmp.get_object(Bucket=bucket, Key=ka)["Body"].read())
        if got is not None and got != b"a":
            report("FAIL", "temp creds get content", repr(got))
        s3.put_object(Bucket=bucket, Key=kb, Body=b"b")  # exists, so a denial is not a 404
        if env.get("FIRN_S3_SESSION_POLICY", "1") == "1":
            expect_code("temp creds put under b/ denied",
                        lambda: tmp.put_object(Bucket=bucket, Key=f"{run}/b/new.txt", Body=b"x"),
                        {"AccessDenied"})
            expect_code("temp creds get under b/ denied",
                        lambda: tmp.get_object(Bucket=bucket, Key=kb), {"AccessDenied"})
            expect_code("temp creds delete under b/ denied",
                        lambda: tmp.delete_object(Bucket=bucket, Key=kb), {"AccessDenied"})
            code = error_code(lambda: tmp.list_objects_v2(Bucket=bucket, Prefix=f"{run}/a/"))
            print(f"INFO temp creds list prefix a/ (s3:prefix condition): {code or 'allowed'}")
            code = error_code(lambda: tmp.list_objects_v2(Bucket=bucket, Prefix=f"{run}/b/"))
            print(f"INFO temp creds list prefix b/: {code or 'allowed'}")
        else:
            report("SKIP", "session-policy denial under b/",
                   f"{flavor} does not enforce session policies")
        bad_token = creds["SessionToken"][:-4] + ("AAAA" if not creds["SessionToken"].endswith("AAAA") else "BBBB")
        forged = client("s3", creds["AccessKeyId"], creds["SecretAccessKey"], bad_token)
        expect_code("tampered session token refused",
                    lambda: forged.get_object(Bucket=bucket, Key=ka),
                    {"AccessDenied", "InvalidToken", "InvalidAccessKeyId", "ExpiredToken",
                     "SignatureDoesNotMatch", "403", "400"})
        expect_ok("temp creds delete under a/", lambda: tmp.delete_object(Bucket=bucket, Key=ka))

    # --- cleanup with the static keys ----------------------------------------------------------
    for k in (k1, new_key, f"{run}/b/data.txt", f"{run}/b/new.txt"):
        error_code(lambda k=k: s3.delete_object(Bucket=bucket, Key=k))
    expect_code("static delete then get is NoSuchKey",
                lambda: s3.get_object(Bucket=bucket, Key=k1), {"NoSuchKey", "404"})

    print(f"selfcheck ({flavor}): {RESULTS['ok']} ok, {RESULTS['failed']} failed, "
          f"{RESULTS['skipped']} skipped")
    return 1 if RESULTS["failed"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
