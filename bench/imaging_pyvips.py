#!/usr/bin/env python3
"""libvips in one process (pyvips), the strongest peer: streams decode -> filters -> encode.
Usage: imaging_pyvips.py TASK OUTDIR PHOTO... where TASK is sepia, tilt, chain or masks
(masks writes, for every photo, the tilt-shift mask as mask-NAME.png and mask-NAME.v)."""
import os, sys
import pyvips

SEPIA = [[0.5144, 0.6152, 0.1512], [0.2792, 0.7488, 0.1344], [0.2176, 0.4272, 0.3048]]


def smoothstep(a, b, x):
    t = min(max((x - a) / (b - a), 0.0), 1.0)
    return t * t * (3 - 2 * t)


def mask(width, height, top=0.4, bottom=0.6, falloff=0.2):
    """The tilt-shift mask (255 = blurred), one column replicated across the width."""
    rows = [[round(255 * (1 - smoothstep(top - falloff, top, r / height)
                          + smoothstep(bottom, bottom + falloff, r / height)))] for r in range(height)]
    return pyvips.Image.new_from_list(rows).cast('uchar').replicate(width, 1)


def tilt(image):
    blurred = image.gaussblur(8, min_ampl=0.01)
    return mask(image.width, image.height).ifthenelse(blurred, image, blend=True)


task, out, photos = sys.argv[1], sys.argv[2], sys.argv[3:]
for path in photos:
    name = os.path.splitext(os.path.basename(path))[0]
    image = pyvips.Image.new_from_file(path, access='sequential')
    if task == 'masks':
        m = mask(image.width, image.height)
        m.write_to_file(f'{out}/mask-{name}.png')
        m.write_to_file(f'{out}/mask-{name}.v')
        continue
    if task in ('tilt', 'chain'):
        image = tilt(image)
    if task in ('sepia', 'chain'):
        image = image.recomb(SEPIA)
    image.write_to_file(f'{out}/{name}.jpg', Q=90)
