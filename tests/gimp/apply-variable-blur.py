# Run inside gimp-console-3.0 (python-fu-eval) by check-gimp3-variable.sh.
# Loads CBLUR_IMAGE (8-bit), adds a smooth mask to the image twice, as a
# channel and as a second layer, the two kinds of drawable GIMP's Aux
# Input chooses from, and applies cblur:variable-blur (radius
# CBLUR_RADIUS) to a copy of the photograph's layer with each as its aux
# input, the way a user's OK does: Gimp.DrawableFilter, set_aux_input and
# merge_filter.  Writes into CBLUR_OUT, as RGBA float: input.raw (the
# layer before), channel-mask.raw and layer-mask.raw (the masks as the
# filter got them), channel-output.raw and layer-output.raw (the layers
# after); mask-pad, the aux pad's label and description on two lines, as
# GIMP's dialog shows them beside the drawable chooser, then GIMP's own
# Variable Blur's two; layer-effects, each op's name and how many layer
# effects a layer has after the op is appended as one; last size, which
# holds "WIDTH HEIGHT".
import math
import os
import struct
from gi.repository import Gimp, Gegl
from gimp_script import load_image, out, save_pixels, save_size

image = load_image(Gimp.Precision.U8_NON_LINEAR)
photo = image.get_layers()[0]
width, height = photo.get_width(), photo.get_height()


def mask_value(x, y):
    """a slanted ramp with a bump, as a painted depth map would be"""
    u, v = x / width, y / height
    bump = math.exp(-((u - 0.6) ** 2 + (v - 0.4) ** 2) / 0.05)
    return min(max(0.5 * u + 0.2 * v + 0.3 * bump - 0.1, 0.0), 1.0)


def fill_mask(drawable):
    grey = struct.pack('%df' % (width * height),
                       *(mask_value(x, y) for y in range(height) for x in range(width)))
    buffer = drawable.get_buffer()
    buffer.set(Gegl.Rectangle.new(0, 0, width, height), "Y' float", grey)
    buffer.flush()
    drawable.update(0, 0, width, height)


def blur_with(mask, name):
    layer = photo.copy()
    image.insert_layer(layer, None, 0)
    blur = Gimp.DrawableFilter.new(layer, 'cblur:variable-blur', '')
    blur.get_config().set_property('radius', float(os.environ['CBLUR_RADIUS']))
    blur.set_aux_input('aux', mask)
    layer.merge_filter(blur)
    save_pixels(mask, name + '-mask.raw')
    save_pixels(layer, name + '-output.raw')


channel = Gimp.Channel.new(image, 'mask', width, height, 100.0, Gegl.Color.new('black'))
image.insert_channel(channel, None, 0)
fill_mask(channel)
mask_layer = Gimp.Layer.new(image, 'mask', width, height, Gimp.ImageType.RGB_IMAGE,
                            100.0, Gimp.LayerMode.NORMAL)
image.insert_layer(mask_layer, None, 1)
fill_mask(mask_layer)

# GIMP's dialog labels the chooser as GEGL labels the op's aux pad; the
# plug-in's own GEGL loads the operations first
Gegl.init(None)
with open(os.path.join(out, 'mask-pad'), 'w') as f:
    for op in ('cblur:variable-blur', 'gegl:variable-blur'):
        node = Gegl.Node.new()
        node.set_property('operation', op)
        f.write('%s\n%s\n' % (node.get_pad_label('aux'), node.get_pad_description('aux')))

# which ops GIMP keeps as layer effects: it refuses to append a filter
# with an aux pad, GIMP's own Variable Blur too
with open(os.path.join(out, 'layer-effects'), 'w') as f:
    for op in ('cblur:gaussian-blur', 'cblur:unsharp-mask', 'cblur:high-pass',
               'cblur:difference-of-gaussians', 'cblur:variable-blur', 'gegl:variable-blur'):
        layer = photo.copy()
        image.insert_layer(layer, None, 0)
        effect = Gimp.DrawableFilter.new(layer, op, '')
        if op.endswith(':variable-blur'):
            effect.set_aux_input('aux', mask_layer)
        layer.append_filter(effect)
        f.write('%s %d\n' % (op, len(layer.get_filters())))
        image.remove_layer(layer)

save_pixels(photo, 'input.raw')
blur_with(channel, 'channel')
blur_with(mask_layer, 'layer')
save_size(width, height)
image.delete()
