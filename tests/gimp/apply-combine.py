# Run inside gimp-console-3.0 (python-fu-eval) by check-gimp3-combine.sh.
# Loads CBLUR_IMAGE at 8-bit non-linear, applies CBLUR_OP with the
# properties CBLUR_PROPERTIES ("name=value name=value") the way a user's
# OK does, through Gimp.DrawableFilter and merge_filter, and writes the
# layer's pixels before and after as RGBA float into CBLUR_OUT (input.raw,
# output.raw; last size, which holds "WIDTH HEIGHT").
import os
from gi.repository import Gimp
from gimp_script import load_image, save_pixels, save_size

image = load_image(Gimp.Precision.U8_NON_LINEAR)
layer = image.get_layers()[0]
save_pixels(layer, 'input.raw')
joined = Gimp.DrawableFilter.new(layer, os.environ['CBLUR_OP'], '')
config = joined.get_config()
for assignment in os.environ['CBLUR_PROPERTIES'].split():
    name, value = assignment.split('=')
    config.set_property(name, float(value))
layer.merge_filter(joined)
save_pixels(layer, 'output.raw')
save_size(layer.get_width(), layer.get_height())
image.delete()
