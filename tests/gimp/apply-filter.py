# Run inside gimp-console-3.0 (python-fu-eval) by check-gimp3.sh.  Loads
# CBLUR_IMAGE at CBLUR_PRECISION (u8: 8-bit non-linear, float: 32-bit float
# linear), applies cblur:gaussian-blur (mode direct; radius-x CBLUR_RADIUS_X
# and radius-y CBLUR_RADIUS_Y where set, else radius CBLUR_RADIUS alone)
# the way a user's OK does, through Gimp.DrawableFilter and merge_filter,
# and writes the layer's pixels before and after as RGBA float into
# CBLUR_OUT (input.raw, output.raw; last size, which holds "WIDTH HEIGHT").
import os
from gi.repository import Gimp
from gimp_script import load_image, save_pixels, save_size

image = load_image({'u8': Gimp.Precision.U8_NON_LINEAR,
                    'float': Gimp.Precision.FLOAT_LINEAR}[os.environ['CBLUR_PRECISION']])
layer = image.get_layers()[0]
save_pixels(layer, 'input.raw')
blur = Gimp.DrawableFilter.new(layer, 'cblur:gaussian-blur', '')
config = blur.get_config()
if os.environ.get('CBLUR_RADIUS_X'):
    config.set_property('radius-x', float(os.environ['CBLUR_RADIUS_X']))
    config.set_property('radius-y', float(os.environ['CBLUR_RADIUS_Y']))
else:
    config.set_property('radius', float(os.environ['CBLUR_RADIUS']))
config.set_property('mode', 'direct')
layer.merge_filter(blur)
save_pixels(layer, 'output.raw')
save_size(layer.get_width(), layer.get_height())
image.delete()
