# What the scripts that gimp-batch.sh runs in gimp-console-3.0 share (it
# puts this folder on their path): the image they load, and the results
# they write into CBLUR_OUT.
import os
import gi
gi.require_version('Gimp', '3.0')
gi.require_version('Gegl', '0.4')
from gi.repository import Gimp, Gio, Gegl

out = os.environ['CBLUR_OUT']


def load_image(precision):
    """CBLUR_IMAGE at precision"""
    image = Gimp.file_load(Gimp.RunMode.NONINTERACTIVE,
                           Gio.File.new_for_path(os.environ['CBLUR_IMAGE']))
    if image.get_precision() != precision:
        image.convert_precision(precision)
    return image


def save_pixels(drawable, name):
    """drawable's pixels as RGBA float into CBLUR_OUT/name"""
    buffer = drawable.get_buffer()
    pixels = buffer.get(buffer.get_extent(), 1.0, 'RGBA float', Gegl.AbyssPolicy.NONE)
    with open(os.path.join(out, name), 'wb') as f:
        f.write(pixels)


def save_size(width, height):
    """CBLUR_OUT/size, "WIDTH HEIGHT": written last, it tells that the
    script finished"""
    with open(os.path.join(out, 'size'), 'w') as f:
        f.write('%d %d\n' % (width, height))
