#!/bin/sh
# Checks this Evidentia evidence packet with standard tools only: sh, sed, awk, sha256sum and
# OpenSSL 3 (openssl pkeyutl -rawin). Prints OK or FAILED for the manifest, each file and each
# file's custody log, and exits 0 only when everything is OK.
#
#   sh verify.sh                      check this packet
#   sh verify.sh OLDER_PACKET_DIR     also check the signed custody heads of an older, unpacked
#                                     packet of the same files against this packet's logs
#
# VERIFY.md explains each check.
older=""
if [ -n "${1:-}" ]; then
  # Resolved before moving into this packet's folder, so a relative path means what it says.
  if ! older=$(cd "$1" 2>/dev/null && pwd) || [ ! -f "$older/manifest.json" ]; then
    echo "verify.sh: $1 is not an unpacked evidence packet (no manifest.json there)"
    exit 2
  fi
fi
cd "$(dirname "$0")" || exit 2
LC_ALL=C
export LC_ALL
report=$(mktemp) || exit 2
work=$(mktemp) || exit 2
trap 'rm -f "$report" "$work" "$work.files"' EXIT

ok() { printf 'OK      %s\n' "$*" | tee -a "$report"; }
bad() { printf 'FAILED  %s\n' "$*" | tee -a "$report"; }

for tool in sha256sum openssl awk sed; do
  command -v "$tool" >/dev/null 2>&1 || { echo "verify.sh needs $tool"; exit 2; }
done
# LibreSSL (macOS's openssl) has no -rawin: without it every signature would look forged.
openssl pkeyutl -help 2>&1 | grep -q -- '-rawin' || {
  echo "verify.sh needs OpenSSL 3 (openssl pkeyutl -rawin); this openssl is $(openssl version)"
  exit 2
}

# field JSON NAME: the value of a string or integer field of a one-line JSON object.
field() {
  printf '%s\n' "$1" | sed -n "s/.*\"$2\":\"\{0,1\}\([^\",}]*\)\"\{0,1\}[,}].*/\1/p" | head -n 1
}

# key_id PEM: a public key's id, computed from the key itself: the first 16 hex digits of the
# SHA-256 of its 32 raw bytes (the last 32 bytes of its DER form).
key_id() {
  openssl pkey -pubin -in "$1" -outform DER 2>/dev/null | tail -c 32 | sha256sum | cut -c1-16
}

# signed PAYLOAD_FILE SIGNATURE_FILE: the signature is Ed25519 of the payload's exact bytes, by
# the key the payload names (keys/KEY_ID.pem), and that file holds the key with that id.
signed() {
  kid=$(field "$(cat "$1")" key_id)
  [ -n "$kid" ] && [ -f "keys/$kid.pem" ] && [ -f "$2" ] || return 1
  [ "$(key_id "keys/$kid.pem")" = "$kid" ] || return 1
  openssl pkeyutl -verify -pubin -inkey "keys/$kid.pem" -rawin -in "$1" -sigfile "$2" >/dev/null 2>&1
}

# chain ITEM_ID LOG: one line per entry, "seq<TAB>hash<TAB>what was hashed" (as printf %b reads
# it), "seq<TAB>hash<TAB>WITHHELD" for an entry given only as a link of the chain, or
# "BROKEN<TAB>seq<TAB>why" where the chain does not hold. An entry's hash is the SHA-256 of item
# id, sequence number, kind, time, detail and the previous hash, each after its length in bytes as
# 8 bytes big-endian.
chain() {
  awk -v item="$1" '
    function be8(n,   s, i) {
      s = "\\0000\\0000\\0000\\0000"
      for (i = 3; i >= 0; i--) s = s sprintf("\\0%03o", int(n / (256 ^ i)) % 256)
      return s
    }
    function take(name, numeric,   key, i, c, v) {
      key = "\"" name "\":"
      if (substr(line, 1, length(key)) != key) { bad = "no " name; return "" }
      line = substr(line, length(key) + 1)
      if (numeric) {
        match(line, /^[0-9]+/); v = substr(line, 1, RLENGTH); line = substr(line, RLENGTH + 1)
      } else {
        if (substr(line, 1, 1) != "\"") { bad = "no " name; return "" }
        v = ""; i = 2
        while (i <= length(line)) {
          c = substr(line, i, 1)
          if (c == "\\") { v = v substr(line, i, 2); i += 2; continue }
          if (c == "\"") break
          v = v c; i++
        }
        line = substr(line, i + 1)
      }
      c = substr(line, 1, 1)
      if (c == "," || c == "}") line = substr(line, 2)
      return v
    }
    # JSON string escapes to printf %b escapes; the byte length in "bytes".
    function unescape(raw,   out, i, c, d, code) {
      out = ""; bytes = 0; i = 1
      while (i <= length(raw)) {
        c = substr(raw, i, 1)
        if (c != "\\") { out = out c; bytes++; i++; continue }
        d = substr(raw, i + 1, 1)
        if (d == "u") {
          code = 0
          for (j = 2; j <= 5; j++) code = code * 16 + index("0123456789abcdef", tolower(substr(raw, i + j, 1))) - 1
          if (code > 127) { bad = "an escape this script does not read"; return "" }
          out = out sprintf("\\0%03o", code); bytes++; i += 6; continue
        }
        if (d == "\\") out = out "\\\\"
        else if (d == "\"" || d == "/") out = out d
        else if (d == "n" || d == "t" || d == "r" || d == "b" || d == "f") out = out "\\" d
        else { bad = "an unknown escape"; return "" }
        bytes++; i += 2
      }
      return out
    }
    function part(s, n) { return be8(n) s }
    BEGIN { prev = "0000000000000000000000000000000000000000000000000000000000000000" }
    {
      line = $0; bad = ""
      if (substr(line, 1, 1) != "{") { print "BROKEN\t" NR "\tline " NR " is not an entry"; exit }
      line = substr(line, 2)
      id = take("item_id"); seq = take("seq", 1)
      if (bad == "" && substr(line, 1, 16) == "\"withheld\":true,") {
        line = substr(line, 17); p = take("prev_hash"); h = take("hash")
        if (bad != "") { print "BROKEN\t" NR "\tline " NR ": " bad; exit }
        if (id != item) { print "BROKEN\t" seq "\tentry " seq " is of another file"; exit }
        if (seq != NR) { print "BROKEN\t" seq "\tentry " NR " is missing (the next line is entry " seq ")"; exit }
        if (p != prev) { print "BROKEN\t" seq "\tentry " seq " does not follow entry " NR - 1; exit }
        printf "%s\t%s\tWITHHELD\n", seq, h
        prev = h
        next
      }
      kind = take("kind"); at = take("at")
      detail = unescape(take("detail")); dlen = bytes
      p = take("prev_hash"); h = take("hash")
      if (bad != "") { print "BROKEN\t" NR "\tline " NR ": " bad; exit }
      if (id != item) { print "BROKEN\t" seq "\tentry " seq " is of another file"; exit }
      if (seq != NR) { print "BROKEN\t" seq "\tentry " NR " is missing (the next line is entry " seq ")"; exit }
      if (p != prev) { print "BROKEN\t" seq "\tentry " seq " does not follow entry " NR - 1; exit }
      printf "%s\t%s\t%s%s%s%s%s%s\n", seq, h, part(id, length(id)), part(seq, length(seq)), part(kind, length(kind)), part(at, length(at)), part(detail, dlen), part(p, length(p))
      prev = h
    }
  ' "$2"
}

# heads DIR ITEM_ID LOG WHOSE: every signed head of the item in DIR is signed and matches the log.
heads() {
  for head in "$1"/heads/"$2"-*.json; do
    [ -f "$head" ] || continue
    payload=$(cat "$head")
    seq=$(field "$payload" seq)
    hash=$(field "$payload" hash)
    at=$(field "$payload" signed_at)
    if ! (cd "$1" && signed "heads/$(basename "$head")" "heads/$(basename "$head" .json).sig"); then
      bad "$4 custody head $seq of $2 ($at): the signature does not match"
    elif [ "$(field "$(sed -n "${seq}p" "$3")" hash)" != "$hash" ]; then
      bad "$4 custody head $seq of $2 ($at): the log no longer holds that entry: its history was rewritten"
    else
      ok "$4 custody head $seq of $2 ($at)"
    fi
  done
}

if signed manifest.json manifest.sig; then
  ok "manifest.json: signed by key $(field "$(head -n 1 manifest.json)" key_id)"
else
  bad "manifest.json: the signature does not match (the manifest was changed, or not signed by the key in keys/)"
fi

grep '^{"item_id":' manifest.json > "$work.files"
while IFS= read -r entry; do
  item=$(field "$entry" item_id)
  path=$(field "$entry" path)
  sha=$(field "$entry" sha256)
  receipt=$(field "$entry" receipt)
  original=$(field "$entry" original_sha256)
  tsr=$(field "$entry" timestamp)
  log=$(field "$entry" custody)
  last_seq=$(field "$entry" custody_seq)
  last_hash=$(field "$entry" custody_hash)

  if [ ! -f "$path" ]; then
    bad "$path: missing"
  else
    actual=$(sha256sum < "$path" | cut -c1-64)
    # A copy (in a recipient's packet): the log says it was made, naming its SHA-256, and the
    # receipt is its original's.
    of="its "
    want=$sha
    if [ -n "$original" ]; then
      of="its original's "
      want=$original
    fi
    if [ "$actual" != "$sha" ]; then
      bad "$path: its SHA-256 is $actual, the manifest says $sha"
    elif [ -n "$original" ] && ! grep -F '"kind":"copy_generated"' "$log" 2>/dev/null | grep -qF "SHA-256 $sha\""; then
      bad "$path: the custody log records no copy with this SHA-256"
    elif [ -z "$receipt" ]; then
      ok "$path: SHA-256 matches the manifest (no signed receipt: verified before receipts were signed)"
    elif ! signed "$receipt" "${receipt%.json}.sig"; then
      bad "$path: ${of}receipt's signature does not match ($receipt)"
    elif [ "$(field "$(cat "$receipt")" sha256)" != "$want" ]; then
      bad "$path: ${of}signed receipt is for another file ($receipt)"
    elif [ -n "$original" ]; then
      ok "$path: SHA-256 matches the manifest; it is the copy the custody log says was made from the original of the signed receipt"
    else
      ok "$path: SHA-256 matches the manifest and its signed receipt"
    fi
  fi

  # An RFC 3161 timestamp of the receipt's signature, by the authority whose certificate is in
  # keys/ (openssl ts checks the token's signature and that it is of this signature's hash).
  if [ -n "$tsr" ]; then
    if [ ! -f "$tsr" ]; then
      bad "$tsr: missing (the manifest names it)"
    elif [ ! -f keys/tsa-ca.pem ]; then
      bad "$tsr: the time-stamping authority's certificate (keys/tsa-ca.pem) is missing"
    elif openssl ts -verify -data "${receipt%.json}.sig" -in "$tsr" -token_in -CAfile keys/tsa-ca.pem >/dev/null 2>&1; then
      at=$(openssl ts -reply -in "$tsr" -token_in -text 2>/dev/null | sed -n 's/^Time stamp: //p')
      ok "$tsr: the time-stamping authority says the receipt was signed by $at"
    else
      bad "$tsr: the timestamp is not of this receipt's signature, or not signed by the authority in keys/tsa-ca.pem"
    fi
  fi

  if [ ! -f "$log" ]; then
    bad "$log: missing"
    continue
  fi
  chain "$item" "$log" > "$work"
  broken=""
  withheld=0
  while IFS='	' read -r seq hash pre; do
    if [ "$seq" = BROKEN ]; then
      broken="$pre"
      break
    fi
    if [ "$pre" = WITHHELD ]; then
      withheld=$((withheld + 1))
      continue
    fi
    if [ "$(printf '%b' "$pre" | sha256sum | cut -c1-64)" != "$hash" ]; then
      broken="entry $seq was changed (its contents no longer match its hash)"
      break
    fi
  done < "$work"
  last=$(tail -n 1 "$log")
  if [ -n "$broken" ]; then
    bad "$log: $broken"
  elif [ "$(field "$last" seq)" != "$last_seq" ] || [ "$(field "$last" hash)" != "$last_hash" ]; then
    bad "$log: it ends at entry $(field "$last" seq) ($(field "$last" hash | cut -c1-16)…), the manifest says entry $last_seq ($(printf %s "$last_hash" | cut -c1-16)…): entries were removed, added or rewritten"
  elif [ "$withheld" -gt 0 ]; then
    ok "$log: $last_seq entries, each following the one before ($withheld about other recipients withheld: linked, not readable)"
  else
    ok "$log: $last_seq entries, each following the one before"
  fi
  heads . "$item" "$log" "$path:"
  if [ -n "$older" ]; then
    heads "$older" "$item" "$log" "$path (older packet):"
  fi
done < "$work.files"
rm -f "$work.files"

for file in files/*; do
  [ -f "$file" ] || continue
  grep -qF "\"path\":\"$file\"" manifest.json || bad "$file: not in the manifest"
done

if grep -q '^FAILED' "$report"; then
  echo "FAILED: see the lines above"
  exit 1
fi
echo "OK: every check passed"
