"""Benchmark of docs/benchmarks.md: a 1 GiB upload through our presigned multipart
protocol (gateway -> evidence -> presigned part URLs -> PUT to S3 -> finish) beside a plain boto3
multipart upload of the same file to the same store, with the same part size and concurrency, in
one run; and the evidence service's peak memory (VmHWM) while it verifies the file.

Run against a `./dev up`: `.dev/venv/bin/python deploy/local/bench_upload.py [--size-mib 1024]`.
"""

import argparse
import concurrent.futures
import glob
import hashlib
import json
import os
import re
import subprocess
import tempfile
import time
import urllib3

import boto3
from botocore.config import Config

BASE = os.environ.get("BASE", "http://127.0.0.1:8080")
HTTP = urllib3.PoolManager(maxsize=16)


def api(method, path, token=None, body=None):
    headers = {"content-type": "application/json"}
    if token:
        headers["authorization"] = f"Bearer {token}"
    r = HTTP.request(method, f"{BASE}/api/{path}", body=json.dumps(body) if body is not None else None, headers=headers)
    data = json.loads(r.data) if r.data else None
    if r.status >= 400:
        raise SystemExit(f"{method} {path}: {r.status} {data}")
    return data


def sign_up():
    tag = str(time.time_ns())
    email = f"bench-upload-{tag}@example.com"
    api("POST", "accounts/confirmation-code/send/", body={"email": email})
    code = None
    for _ in range(100):
        for name in sorted(glob.glob(".dev/mail/*.eml"), reverse=True):
            text = open(name, encoding="utf-8", errors="replace").read()
            if f"To: {email}" in text:
                code = re.search(r"code is (\d{6})", text).group(1)
                break
        if code:
            break
        time.sleep(0.1)
    token = api("POST", "accounts/confirmation-code/verify/", body={"email": email, "code": code})["verification_token"]
    pair = api("POST", "accounts/create/", body={
        "email": email, "username": f"bu{tag[-12:]}", "password": "Secret12#", "verification_token": token,
        "phone_number": {"country_code": "+1", "national_number": tag[-10:]},
    })
    return pair["access"]


def evidence_pid():
    out = subprocess.run(["pgrep", "-f", "target/debug/evidence$|target/release/evidence$"], capture_output=True, text=True)
    pids = out.stdout.split()
    return int(pids[0]) if pids else None


def vm_hwm_kib(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--size-mib", type=int, default=1024)
    parser.add_argument("--concurrency", type=int, default=4)
    args = parser.parse_args()
    size = args.size_mib * 1024 * 1024

    with tempfile.NamedTemporaryFile(dir="/tmp", delete=False) as f:
        path = f.name
        chunk = os.urandom(8 * 1024 * 1024)
        digest = hashlib.sha256()
        written = 0
        while written < size:
            piece = chunk[: min(len(chunk), size - written)]
            f.write(piece)
            digest.update(piece)
            written += len(piece)
    sha = digest.hexdigest()

    access = sign_up()
    folder = api("POST", "evidence/folders/create/", access, {"name": "Benchmark"})["id"]
    created = api("POST", f"evidence/folders/{folder}/items/create/", access, {
        "name": "Large video", "media_type": "video", "mime_type": "video/webm", "file_size": size, "sha256": sha,
    })
    item, upload = created["item"]["id"], created["upload"]
    assert upload["kind"] == "multipart", upload
    part_size, part_count = upload["part_size"], upload["part_count"]

    def put_part(part_url):
        number, url = part_url["part_number"], part_url["url"]
        with open(path, "rb") as src:
            src.seek((number - 1) * part_size)
            data = src.read(part_size)
        r = HTTP.request("PUT", url, body=data)
        assert r.status == 200, (number, r.status, r.data[:200])

    pid = evidence_pid()
    start = time.monotonic()
    urls = api("POST", f"evidence/items/{item}/multipart-upload/part-urls/", access,
               {"part_numbers": list(range(1, part_count + 1))})["urls"]
    with concurrent.futures.ThreadPoolExecutor(args.concurrency) as pool:
        list(pool.map(put_part, urls))
    api("POST", f"evidence/items/{item}/upload/finish/", access, {})
    ours = time.monotonic() - start
    verify_start = time.monotonic()
    while api("GET", f"evidence/items/{item}/", access)["status"] == "uploaded":
        time.sleep(0.2)
    verified_in = time.monotonic() - verify_start
    status = api("GET", f"evidence/items/{item}/", access)["status"]
    hwm = vm_hwm_kib(pid) if pid else 0

    s3 = boto3.client("s3", endpoint_url="http://127.0.0.1:8333", aws_access_key_id="evidentia",
                      aws_secret_access_key="evidentia-local-secret", region_name="us-east-1",
                      config=Config(s3={"addressing_style": "path"}))
    transfer = boto3.s3.transfer.TransferConfig(multipart_threshold=part_size, multipart_chunksize=part_size,
                                                max_concurrency=args.concurrency, use_threads=True)
    start = time.monotonic()
    s3.upload_file(path, "evidentia-media", f"bench/{item}", Config=transfer)
    plain = time.monotonic() - start
    s3.delete_object(Bucket="evidentia-media", Key=f"bench/{item}")
    api("DELETE", f"evidence/folders/{folder}/delete/", access)
    # The verification's yardstick: sha256sum of the same file (from the page cache).
    start = time.monotonic()
    subprocess.run(["sha256sum", path], check=True, capture_output=True)
    sha256sum = time.monotonic() - start
    os.unlink(path)

    mib = size / (1024 * 1024)
    print(f"file: {mib:.0f} MiB in {part_count} parts of {part_size // (1024 * 1024)} MiB, concurrency {args.concurrency}")
    print(f"ours (presigned multipart, incl. part-urls and finish): {ours:.2f} s = {mib / ours:.1f} MiB/s")
    print(f"plain boto3 multipart upload:                          {plain:.2f} s = {mib / plain:.1f} MiB/s")
    print(f"throughput ratio ours/plain: {plain / ours:.2f}")
    print(f"verification after finish: {verified_in:.2f} s, status {status}")
    print(f"sha256sum of the same file: {sha256sum:.2f} s")
    print(f"evidence service peak RSS (VmHWM): {hwm / 1024:.1f} MiB")
    # The lines ./dev bench puts in its table: measure, ours, yardstick, ours / yardstick.
    print(f"RESULT\tupload of {mib:.0f} MiB (presigned multipart, {args.concurrency} parts at a time)\t"
          f"{mib / ours:.0f} MiB/s\tplain boto3 multipart {mib / plain:.0f} MiB/s\t{plain / ours:.2f}x (goal 0.9x or more)")
    print(f"RESULT\tverification of {mib:.0f} MiB (S3 read and SHA-256), evidence peak RSS {hwm / 1024:.0f} MiB\t"
          f"{verified_in:.2f} s\tsha256sum {sha256sum:.2f} s\t{verified_in / sha256sum:.1f}x the time")


if __name__ == "__main__":
    main()
