/* What the variable blur's tests (test-variable.c, test-variable-equal.c)
 * share: the op's renders, masks and the images they blur.  Called from
 * the test's thread. */
#ifndef CBLUR_TEST_VARIABLE_TEST_H
#define CBLUR_TEST_VARIABLE_TEST_H

#include "cblur-test.h"

/* renders all of input through operation with mask on its aux pad (none
 * where NULL), in format (NULL: the tests' own) */
gpointer    variable_test_blur_as     (const Babl   *format,
                                       const gchar  *operation,
                                       GeglBuffer   *input,
                                       GeglBuffer   *mask,
                                       const gchar  *first_property,
                                       ...) G_GNUC_NULL_TERMINATED;
#define variable_test_blur(...) ((gfloat *) variable_test_blur_as (NULL, __VA_ARGS__))

/* A smooth mask in [0, 1]: a slanted ramp with a bump, as a depth map or
 * a painted gradient would be. */
gdouble     variable_test_smooth_mask (gint          x,
                                       gint          y,
                                       gint          width,
                                       gint          height);
/* a mask of width x height in format, from values made by value(), or
 * constant where value is NULL */
GeglBuffer *variable_test_mask        (gint          width,
                                       gint          height,
                                       const gchar  *format,
                                       gdouble     (*value) (gint, gint, gint, gint),
                                       gdouble       constant);
/* A part of a photograph (where name is NULL, an image whose top and
 * bottom, left and right differ, as loop's halo shows), as a buffer of
 * its own at the origin. */
GeglBuffer *variable_test_photo       (const gchar  *name,
                                       gint          width,
                                       gint          height);
/* in and its straight copy with alpha: opaque, but 0 in a disc and a
 * band, where the hidden colour is pure red, which must not bleed */
GeglBuffer *variable_test_with_holes  (GeglBuffer   *in);

#endif
