#!/usr/bin/env python3
"""Makes COUNT different encrypted photos from pipelines/photos' three, for benchmarks that must
not let the store share one photo's results between copies of it (identical inputs give identical
keys and blobs). Photo I is one of the three, decrypted with the demo key, cropped by a few rows
and columns that differ for every I up to 1,029, encoded as JPEG Q90 by libvips and encrypted again
(AES-256-GCM, nonce || ciphertext || tag, the format of taskgraph's `decrypt`).
Usage: distinct_photos.py PHOTOS_DIR COUNT OUTDIR   (writes OUTDIR/pI.jpg.enc for I in 1..COUNT)
Needs pyvips and python3-cryptography."""
import hashlib, os, sys
import pyvips
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

source, count, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
assert 0 < count <= 1029, 'from 1 to 1,029 photos: the crops repeat after 343 for each of the three'
with open(os.path.join(source, 'demo.key')) as key_file:
    cipher = AESGCM(bytes.fromhex(key_file.read().strip()))
originals = []
for name in ('mountains', 'sunset', 'seedling'):
    with open(os.path.join(source, name + '.jpg.enc'), 'rb') as sealed:
        data = sealed.read()
    originals.append(pyvips.Image.new_from_buffer(cipher.decrypt(data[:12], data[12:], None), ''))
os.makedirs(out, exist_ok=True)
for i in range(1, count + 1):
    image = originals[i % 3]
    # Every I a different crop: left and top 0-6 pixels, right and bottom 0-6 more.
    left, top, right, bottom = i % 7, i // 7 % 7, i // 49 % 7, (i * 3) % 7
    cropped = image.crop(left, top, image.width - left - right, image.height - top - bottom)
    nonce = hashlib.sha256(b'distinct-photo-%d' % i).digest()[:12]
    sealed = nonce + cipher.encrypt(nonce, cropped.jpegsave_buffer(Q=90), None)
    with open(os.path.join(out, 'p%d.jpg.enc' % i), 'wb') as target:
        target.write(sealed)
