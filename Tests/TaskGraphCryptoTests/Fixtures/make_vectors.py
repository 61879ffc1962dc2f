#!/usr/bin/env python3
"""Writes vectors.json: blobs sealed by Python's `cryptography` package, which the Swift tests
must open (interoperability of the nonce(12) || ciphertext || tag(16) layout).

Run once from this folder: python3 make_vectors.py > vectors.json
"""
import base64
import json
import os

from cryptography.hazmat.primitives.ciphers.aead import AESGCM, ChaCha20Poly1305

key = os.urandom(32)
vectors = {"key_hex": key.hex(), "key_base64": base64.b64encode(key).decode(), "cases": []}
for plaintext in [b"", b"hello, taskgraph\n", os.urandom(1000)]:
    for name, cipher in [("aes-256-gcm", AESGCM(key)), ("chacha20-poly1305", ChaCha20Poly1305(key))]:
        nonce = os.urandom(12)
        sealed = nonce + cipher.encrypt(nonce, plaintext, None)
        vectors["cases"].append({"cipher": name, "plaintext_hex": plaintext.hex(), "sealed_hex": sealed.hex()})
print(json.dumps(vectors, indent=1))
