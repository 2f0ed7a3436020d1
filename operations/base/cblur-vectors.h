/* Loops over many floats built for the widest vectors the processor has,
 * chosen when the module loads.  Every output is the same bits on each
 * clone: the project builds without FMA contraction (-ffp-contract=off),
 * and a clone does the same element-wise operations, only wider. */
#ifndef CBLUR_VECTORS_H
#define CBLUR_VECTORS_H

#define CBLUR_WIDEST_VECTORS \
  __attribute__ ((target_clones ("arch=x86-64-v4", "arch=x86-64-v3", "default")))

#endif
