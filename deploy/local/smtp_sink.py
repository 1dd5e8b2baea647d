"""SMTP sink for the local stack: accepts every message, delivers none.

Each message is written whole (headers and body, as received, with a
`X-Evidentia-Envelope-*` header pair recording the SMTP envelope) to
`<mail-dir>/<unix-nanos>-<uuid>.eml`, so the newest file sorts last. The file
appears atomically (written under a dot-name, then renamed), so a test that
polls the directory never reads half a message.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
import sys
import time
import uuid
from pathlib import Path

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import Envelope, Session, SMTP


class MaildirHandler:
    def __init__(self, mail_dir: Path) -> None:
        self.mail_dir = mail_dir

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        content = envelope.original_content or envelope.content or b""
        if isinstance(content, str):
            content = content.encode("utf-8")
        headers = (
            f"X-Evidentia-Envelope-From: {envelope.mail_from}\r\n"
            f"X-Evidentia-Envelope-To: {', '.join(envelope.rcpt_tos)}\r\n"
        ).encode("utf-8")
        name = f"{time.time_ns()}-{uuid.uuid4()}.eml"
        tmp = self.mail_dir / f".{name}.tmp"
        tmp.write_bytes(headers + content)
        os.replace(tmp, self.mail_dir / name)
        logging.info("stored %s from %s to %s", name, envelope.mail_from, envelope.rcpt_tos)
        return "250 Message accepted for delivery"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=1025)
    parser.add_argument("--mail-dir", type=Path, default=Path(".dev/mail"))
    args = parser.parse_args(argv)

    logging.basicConfig(level=logging.INFO, stream=sys.stdout, format="%(asctime)s smtp-sink %(message)s")
    logging.getLogger("mail.log").setLevel(logging.WARNING)  # aiosmtpd logs every SMTP line
    args.mail_dir.mkdir(parents=True, exist_ok=True)
    handler = MaildirHandler(args.mail_dir.resolve())
    # decode_data=False keeps the raw bytes; 8BITMIME/SMTPUTF8 are accepted.
    controller = Controller(
        handler, hostname=args.host, port=args.port, decode_data=False, enable_SMTPUTF8=True
    )
    controller.start()
    logging.info("listening on %s:%d, writing to %s", args.host, args.port, handler.mail_dir)

    loop = asyncio.new_event_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    try:
        loop.run_until_complete(stop.wait())
    finally:
        controller.stop()
        loop.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
