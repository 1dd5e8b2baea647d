"""Create the local S3 buckets and their CORS rules in SeaweedFS (idempotent).

Run by ./dev after `weed mini` answers. Everything has a local default; the
environment variables are the same ones the evidence service reads.
"""

from __future__ import annotations

import os
import sys
import time

import boto3
from botocore.config import Config
from botocore.exceptions import ClientError, EndpointConnectionError

ENDPOINT = os.environ.get("S3_ENDPOINT") or "http://127.0.0.1:8333"
REGION = os.environ.get("S3_REGION") or "us-east-1"
ACCESS_KEY = os.environ.get("S3_ACCESS_KEY_ID") or "evidentia"
SECRET_KEY = os.environ.get("S3_SECRET_ACCESS_KEY") or "evidentia-local-secret"
BUCKETS = [os.environ.get("S3_BUCKET") or "evidentia-media"]

# The web app uploads and downloads media straight from the browser with
# presigned URLs, so the bucket must answer CORS preflights for the app origin.
CORS = {
    "CORSRules": [
        {
            "AllowedOrigins": ["http://127.0.0.1:8080", "http://localhost:8080"],
            "AllowedMethods": ["GET", "PUT", "POST", "HEAD"],
            "AllowedHeaders": ["*"],
            "ExposeHeaders": ["ETag"],
            "MaxAgeSeconds": 3600,
        }
    ]
}


def client():
    return boto3.client(
        "s3",
        endpoint_url=ENDPOINT,
        region_name=REGION,
        aws_access_key_id=ACCESS_KEY,
        aws_secret_access_key=SECRET_KEY,
        config=Config(
            signature_version="s3v4",
            s3={"addressing_style": "path"},
            retries={"max_attempts": 2, "mode": "standard"},
            connect_timeout=2,
            read_timeout=10,
        ),
    )


def ensure_bucket(s3, name: str, deadline: float) -> None:
    while True:
        try:
            s3.head_bucket(Bucket=name)
            print(f"s3: bucket {name} exists")
            return
        except ClientError as err:
            code = err.response.get("Error", {}).get("Code", "")
            if code not in ("404", "NoSuchBucket", "NotFound"):
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.5)
                continue
        except EndpointConnectionError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.5)
            continue
        try:
            s3.create_bucket(Bucket=name)
            print(f"s3: bucket {name} created")
            return
        except ClientError as err:
            code = err.response.get("Error", {}).get("Code", "")
            if code in ("BucketAlreadyOwnedByYou", "BucketAlreadyExists"):
                return
            if time.monotonic() > deadline:
                raise
            time.sleep(0.5)


def ensure_cors(s3, name: str) -> None:
    try:
        current = s3.get_bucket_cors(Bucket=name).get("CORSRules", [])
    except ClientError:
        current = []
    if _normalise(current) == _normalise(CORS["CORSRules"]):
        print(f"s3: CORS of {name} up to date")
        return
    s3.put_bucket_cors(Bucket=name, CORSConfiguration=CORS)
    print(f"s3: CORS of {name} set")


def _normalise(rules):
    keys = ("AllowedOrigins", "AllowedMethods", "AllowedHeaders", "ExposeHeaders")
    return [
        {k: sorted(r.get(k, [])) for k in keys} | {"MaxAgeSeconds": r.get("MaxAgeSeconds")}
        for r in rules
    ]


def main() -> int:
    s3 = client()
    deadline = time.monotonic() + 30
    for name in BUCKETS:
        ensure_bucket(s3, name, deadline)
        ensure_cors(s3, name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
