"""Benchmark of docs/benchmarks.md: time from upload finish to thumbnail ready for a 12 MP
photo. The photo (4000 x 3000 JPEG, ffmpeg's testsrc2 pattern with noise so it compresses like a
camera picture) goes up through our presigned POST; the clock starts when `upload/finish/` answers
and stops when the item's `thumbnail` appears (the ItemUploaded event, the evidence service's
thumbnail consumer reading the object from S3, decoding, resizing and storing a 320 px JPEG).

Run against a `./dev up`: `.dev/venv/bin/python deploy/local/bench_thumbnail.py [--runs 5]`.
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
import hashlib
import datetime

sys.path.insert(0, os.path.dirname(__file__))
from bench_upload import HTTP, api, sign_up  # noqa: E402


def make_photo(path):
    subprocess.run(
        ["ffmpeg", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=4000x3000:rate=1",
         "-vf", "noise=alls=20:allf=t", "-frames:v", "1", "-q:v", "3", path],
        check=True,
    )


def upload(token, folder_id, data, n):
    digest = hashlib.sha256(data).hexdigest()
    created = api("POST", f"evidence/folders/{folder_id}/items/create/", token, {
        "name": f"Photo_bench_{n}", "media_type": "image", "mime_type": "image/jpeg",
        "file_size": len(data), "sha256": digest,
        "captured_at": datetime.datetime.now(datetime.timezone.utc).isoformat(),
    })
    plan = created["upload"]
    fields = dict(plan["fields"])
    fields["file"] = ("photo.jpg", data, "image/jpeg")
    r = HTTP.request("POST", plan["url"], fields=fields)
    if r.status >= 300:
        raise SystemExit(f"S3 POST: {r.status} {r.data[:300]!r}")
    item_id = created["item"]["id"]
    api("POST", f"evidence/items/{item_id}/upload/finish/", token)
    finished = time.monotonic()
    while True:
        item = api("GET", f"evidence/items/{item_id}/", token)
        if item.get("thumbnail"):
            return time.monotonic() - finished
        if time.monotonic() - finished > 120:
            raise SystemExit("no thumbnail after 120 s")
        time.sleep(0.02)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    token = sign_up()
    folder = api("POST", "evidence/folders/create/", token, {"name": "Thumbnail bench"})
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "photo.jpg")
        make_photo(path)
        data = open(path, "rb").read()
        times = [upload(token, folder["id"], data, n) for n in range(args.runs)]
        # The yardstick: vipsthumbnail making the same 320 px thumbnail of the same file.
        vips = []
        for _ in range(args.runs):
            start = time.monotonic()
            subprocess.run(["vipsthumbnail", path, "-s", "320x320", "-o", os.path.join(tmp, "thumb.jpg")], check=True)
            vips.append(time.monotonic() - start)
    ours, theirs = statistics.median(times), statistics.median(vips)
    print(f"12 MP JPEG ({len(data) / 1e6:.1f} MB), {args.runs} runs: finish -> thumbnail "
          f"median {ours * 1000:.0f} ms, min {min(times) * 1000:.0f} ms, max {max(times) * 1000:.0f} ms;"
          f" vipsthumbnail median {theirs * 1000:.0f} ms")
    # The line ./dev bench puts in its table: measure, ours, yardstick, ours / yardstick.
    print(f"RESULT\t12 MP photo: upload finished to thumbnail stored\t{ours * 1000:.0f} ms\t"
          f"vipsthumbnail {theirs * 1000:.0f} ms\t{ours / theirs:.1f}x the time")


if __name__ == "__main__":
    main()
