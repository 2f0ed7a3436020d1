# Times GIMP 3 applying each blur to a photograph as a user's OK does
# (Gimp.DrawableFilter, merge_filter), ours against GEGL's, the two taken
# in turn on fresh copies, one warm-up each, then the median of REPEAT.
# The variable blurs take a second layer as their mask, as a user picks
# one in the dialog: a smooth grey ramp with a bump, made small and
# scaled up.  Run inside GIMP, the module installed where GIMP finds it
# (scripts/install-user.sh):
#   IMAGE=tests/data/coffee.png SIZE=4000x3000 SIGMA=10 REPEAT=5 \
#     gimp-console-3.0 -i -n --batch-interpreter=python-fu-eval \
#     -b "exec(open('bench/gimp-apply-time.py').read())" --quit
# SIGMA is the blurs' standard deviation: cblur:gaussian-blur's radius
# 3 × SIGMA, gegl:gaussian-blur's std-dev and both variable blurs' radius
# SIGMA; the sharpening ops' std-dev (the difference's radius1, and
# radius2 twice it).  PAIRS names the pairs to time, separated by commas
# (default: gaussian,variable; also unsharp, high-pass, difference).
# Prints each run's seconds and a line per pair: the medians and GEGL's
# over ours.
import math
import os
import statistics
import struct
import time
import gi
gi.require_version('Gimp', '3.0')
gi.require_version('Gegl', '0.4')
from gi.repository import Gimp, Gio, Gegl

image_path = os.environ.get('IMAGE', 'tests/data/coffee.png')
width, height = (int(v) for v in os.environ.get('SIZE', '4000x3000').split('x'))
sigma = float(os.environ.get('SIGMA', '10'))
repeat = int(os.environ.get('REPEAT', '5'))
MASK_WIDTH, MASK_HEIGHT = 400, 300

pairs = [
    ('gaussian', ('cblur:gaussian-blur', {'radius': 3 * sigma}),
     ('gegl:gaussian-blur', {'std-dev-x': sigma, 'std-dev-y': sigma})),
    ('variable', ('cblur:variable-blur', {'radius': sigma}),
     ('gegl:variable-blur', {'radius': sigma})),
    ('unsharp', ('cblur:unsharp-mask', {'std-dev': sigma}),
     ('gegl:unsharp-mask', {'std-dev': sigma})),
    ('high-pass', ('cblur:high-pass', {'std-dev': sigma}),
     ('gegl:high-pass', {'std-dev': sigma})),
    ('difference', ('cblur:difference-of-gaussians', {'radius1': sigma, 'radius2': 2 * sigma}),
     ('gegl:difference-of-gaussians', {'radius1': sigma, 'radius2': 2 * sigma})),
]
chosen = os.environ.get('PAIRS', 'gaussian,variable').split(',')
pairs = [pair for pair in pairs if pair[0] in chosen]


def mask_value(u, v):
    """a slanted ramp with a bump, as a painted depth map would be"""
    bump = math.exp(-((u - 0.6) ** 2 + (v - 0.4) ** 2) / 0.05)
    return min(max(0.5 * u + 0.2 * v + 0.3 * bump - 0.1, 0.0), 1.0)


def add_mask(img):
    layer = Gimp.Layer.new(img, 'mask', MASK_WIDTH, MASK_HEIGHT, Gimp.ImageType.RGB_IMAGE,
                           100.0, Gimp.LayerMode.NORMAL)
    img.insert_layer(layer, None, 1)
    grey = struct.pack('%df' % (MASK_WIDTH * MASK_HEIGHT),
                       *(mask_value(x / MASK_WIDTH, y / MASK_HEIGHT)
                         for y in range(MASK_HEIGHT) for x in range(MASK_WIDTH)))
    buffer = layer.get_buffer()
    buffer.set(Gegl.Rectangle.new(0, 0, MASK_WIDTH, MASK_HEIGHT), "Y' float", grey)
    buffer.flush()
    layer.scale(width, height, False)
    return layer


def fresh():
    img = Gimp.file_load(Gimp.RunMode.NONINTERACTIVE, Gio.File.new_for_path(image_path))
    img.scale(width, height)
    if img.get_precision() != Gimp.Precision.U8_NON_LINEAR:
        img.convert_precision(Gimp.Precision.U8_NON_LINEAR)
    return img


def apply_once(op, props, with_mask):
    img = fresh()
    photo = img.get_layers()[0]
    mask = add_mask(img) if with_mask else None
    blur = Gimp.DrawableFilter.new(photo, op, '')
    config = blur.get_config()
    for name, value in props.items():
        config.set_property(name, value)
    if mask is not None:
        blur.set_aux_input('aux', mask)
    started = time.perf_counter()
    photo.merge_filter(blur)
    seconds = time.perf_counter() - started
    img.delete()
    return seconds


for name, ours, gegls in pairs:
    times = {ours[0]: [], gegls[0]: []}
    for run in range(repeat + 1):
        for op, props in (ours, gegls):
            seconds = apply_once(op, props, name == 'variable')
            print('%-20s run %d %.3f s' % (op, run, seconds), flush=True)
            if run > 0:
                times[op].append(seconds)
    mine = statistics.median(times[ours[0]])
    theirs = statistics.median(times[gegls[0]])
    print('%s %dx%d sigma %g: %s median %.3f s, %s median %.3f s, %.1fx' %
          (name, width, height, sigma, ours[0], mine, gegls[0], theirs, theirs / mine),
          flush=True)
