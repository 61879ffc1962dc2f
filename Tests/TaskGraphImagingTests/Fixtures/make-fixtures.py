#!/usr/bin/env python3
"""Regenerates the synthetic image fixtures beside this script (needs Pillow and cryptography),
and sunset-320.jpg from pipelines/photos/sunset.jpg.enc (decrypted with the demo key). The
baseline gradient needs jpegtran (libjpeg-turbo-progs). Run from this folder."""
import io
import subprocess

from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from PIL import Image, ImageChops, ImageOps

# EXIF orientation: an upright 32x16 picture (red, green / blue, white quadrants) stored so that
# applying orientation k brings it upright again.
U = Image.new('RGB', (32, 16))
for (x0, y0, c) in [(0, 0, (255, 0, 0)), (16, 0, (0, 255, 0)), (0, 8, (0, 0, 255)), (16, 8, (255, 255, 255))]:
    U.paste(c, (x0, y0, x0 + 16, y0 + 8))
T = Image.Transpose
inverse = {1: None, 2: T.FLIP_LEFT_RIGHT, 3: T.ROTATE_180, 4: T.FLIP_TOP_BOTTOM, 5: T.TRANSPOSE,
           6: T.ROTATE_90, 7: T.TRANSVERSE, 8: T.ROTATE_270}
for k, t in inverse.items():
    stored = U if t is None else U.transpose(t)
    exif = Image.Exif()
    exif[0x0112] = k
    stored.save(f'orientation-{k}.jpg', quality=95, subsampling=0, exif=exif.tobytes())
    assert ImageOps.exif_transpose(Image.open(f'orientation-{k}.jpg')).size == (32, 16)

solid = Image.new('RGB', (24, 16), (200, 100, 50))
solid.save('progressive.jpg', quality=95, progressive=True, subsampling=2)
solid.save('subsampling-422.jpg', quality=95, subsampling=1)
Image.new('L', (24, 16), 77).save('gray.jpg', quality=95)

# A progressive 4:2:2 picture whose coefficient arrays span several huge pages, so decoding it
# releases coefficient rows, and the same coefficients in one baseline scan (jpegtran is
# lossless): both must decode to the same pixels.
across = Image.linear_gradient('L').rotate(90).resize((2048, 1536))
down = Image.linear_gradient('L').resize((2048, 1536))
gradient = Image.merge('RGB', (across, down, ImageChops.add(across, down, scale=2)))
gradient.save('gradient-progressive.jpg', quality=80, progressive=True, subsampling=1)
baseline = subprocess.run(['jpegtran', '-optimize', '-copy', 'none', 'gradient-progressive.jpg'], check=True, capture_output=True)
open('gradient-baseline.jpg', 'wb').write(baseline.stdout)
Image.new('CMYK', (8, 8), (0, 128, 255, 0)).save('cmyk.jpg', quality=95)

Image.new('I;16', (3, 2), 0x8080).save('gray16.png')
palette = Image.new('P', (3, 2), 1)
palette.putpalette([0, 0, 0, 10, 20, 30] + [0] * 762)
palette.putpixel((0, 0), 0)
palette.save('palette-transparent.png', transparency=0)
Image.new('RGBA', (3, 2), (1, 2, 3, 128)).save('rgba.png')
Image.new('LA', (3, 2), (90, 200)).save('gray-alpha.png')

photos = '../../../../pipelines/photos/'
key = bytes.fromhex(open(photos + 'demo.key').read().strip())
sealed = open(photos + 'sunset.jpg.enc', 'rb').read()
photo = Image.open(io.BytesIO(AESGCM(key).decrypt(sealed[:12], sealed[12:], None)))
photo.resize((320, round(320 * photo.height / photo.width)), Image.LANCZOS).save('sunset-320.jpg', quality=90)
