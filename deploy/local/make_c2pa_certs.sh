#!/bin/sh
# Makes a local C2PA signing chain in DIR: a root (root.pem, root.key) and a leaf it issues
# (leaf.pem, leaf.key; CA:FALSE, digitalSignature, the e-mail-protection usage C2PA accepts), and
# chain.pem (leaf then root). C2PA refuses a self-signed certificate as a signer, so the copies
# are signed with the leaf and readers are given the root as their trust anchor. Ed25519 keys.
# Production takes its chain from a certificate authority instead (SHARING_C2PA_CERT_CHAIN).
set -eu
dir=$1
days=${2:-3650}
mkdir -p "$dir"
cd "$dir"
umask 077
cat > root.ext <<'EXT'
basicConstraints=critical,CA:TRUE
keyUsage=critical,keyCertSign,cRLSign
subjectKeyIdentifier=hash
EXT
cat > leaf.ext <<'EXT'
basicConstraints=critical,CA:FALSE
keyUsage=critical,digitalSignature
extendedKeyUsage=emailProtection
subjectKeyIdentifier=hash
authorityKeyIdentifier=keyid
EXT
openssl genpkey -algorithm ed25519 -out root.key
openssl req -new -key root.key -subj "/CN=Evidentia local C2PA root/O=Evidentia" -out root.csr
openssl x509 -req -in root.csr -signkey root.key -days "$days" -extfile root.ext -out root.pem 2>/dev/null
openssl genpkey -algorithm ed25519 -out leaf.key
openssl req -new -key leaf.key -subj "/CN=Evidentia local copies/O=Evidentia" -out leaf.csr
openssl x509 -req -in leaf.csr -CA root.pem -CAkey root.key -CAcreateserial -days "$days" \
  -extfile leaf.ext -out leaf.pem 2>/dev/null
cat leaf.pem root.pem > chain.pem
rm -f root.csr leaf.csr root.srl root.ext leaf.ext
