# Run inside gimp-console-3.0 (python-fu-eval) by check-gimp3-combine.sh.
# Loads CBLUR_IMAGE at 8-bit non-linear, applies CBLUR_OP with the
# properties CBLUR_PROPERTIES ("name=value name=value") the way a user's
# OK does, through Gimp.DrawableFilter and merge_filter, and writes the
# layer's pixels before and after as RGBA float into CBLUR_OUT (input.raw,
# output.raw; last size, which holds "WIDTH HEIGHT").
import os
import gi
gi.require_version('Gimp', '3.0')
gi.require_version('Gegl', '0.4')
from gi.repository import Gimp, Gio, Gegl

out = os.environ['CBLUR_OUT']
image = Gimp.file_load(Gimp.RunMode.NONINTERACTIVE,
                       Gio.File.new_for_path(os.environ['CBLUR_IMAGE']))
if image.get_precision() != Gimp.Precision.U8_NON_LINEAR:
    image.convert_precision(Gimp.Precision.U8_NON_LINEAR)
layer = image.get_layers()[0]


def save_pixels(name):
    buffer = layer.get_buffer()
    pixels = buffer.get(buffer.get_extent(), 1.0, 'RGBA float', Gegl.AbyssPolicy.NONE)
    with open(os.path.join(out, name), 'wb') as f:
        f.write(pixels)


save_pixels('input.raw')
joined = Gimp.DrawableFilter.new(layer, os.environ['CBLUR_OP'], '')
config = joined.get_config()
for assignment in os.environ['CBLUR_PROPERTIES'].split():
    name, value = assignment.split('=')
    config.set_property(name, float(value))
layer.merge_filter(joined)
save_pixels('output.raw')
with open(os.path.join(out, 'size'), 'w') as f:
    f.write('%d %d\n' % (layer.get_width(), layer.get_height()))
image.delete()
