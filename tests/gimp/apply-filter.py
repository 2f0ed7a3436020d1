# Run inside gimp-console-3.0 (python-fu-eval) by check-gimp3.sh.  Loads
# CBLUR_IMAGE at CBLUR_PRECISION (u8: 8-bit non-linear, float: 32-bit float
# linear), applies cblur:gaussian-blur (mode direct; radius-x CBLUR_RADIUS_X
# and radius-y CBLUR_RADIUS_Y where set, else radius CBLUR_RADIUS alone)
# the way a user's OK does, through Gimp.DrawableFilter and merge_filter,
# and writes the layer's pixels before and after as RGBA float into
# CBLUR_OUT (input.raw, output.raw; last size, which holds "WIDTH HEIGHT").
import os
import gi
gi.require_version('Gimp', '3.0')
gi.require_version('Gegl', '0.4')
from gi.repository import Gimp, Gio, Gegl

out = os.environ['CBLUR_OUT']
precision = {'u8': Gimp.Precision.U8_NON_LINEAR,
             'float': Gimp.Precision.FLOAT_LINEAR}[os.environ['CBLUR_PRECISION']]

image = Gimp.file_load(Gimp.RunMode.NONINTERACTIVE,
                       Gio.File.new_for_path(os.environ['CBLUR_IMAGE']))
if image.get_precision() != precision:
    image.convert_precision(precision)
layer = image.get_layers()[0]


def save_pixels(name):
    buffer = layer.get_buffer()
    pixels = buffer.get(buffer.get_extent(), 1.0, 'RGBA float', Gegl.AbyssPolicy.NONE)
    with open(os.path.join(out, name), 'wb') as f:
        f.write(pixels)


save_pixels('input.raw')
blur = Gimp.DrawableFilter.new(layer, 'cblur:gaussian-blur', '')
config = blur.get_config()
if os.environ.get('CBLUR_RADIUS_X'):
    config.set_property('radius-x', float(os.environ['CBLUR_RADIUS_X']))
    config.set_property('radius-y', float(os.environ['CBLUR_RADIUS_Y']))
else:
    config.set_property('radius', float(os.environ['CBLUR_RADIUS']))
config.set_property('mode', 'direct')
layer.merge_filter(blur)
save_pixels('output.raw')
with open(os.path.join(out, 'size'), 'w') as f:
    f.write('%d %d\n' % (layer.get_width(), layer.get_height()))
image.delete()
