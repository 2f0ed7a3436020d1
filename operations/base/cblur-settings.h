/* Every environment variable the library reads, read once, on first use,
 * into one struct that any thread may read:
 *
 *   CBLUR_BACKEND=auto|gl|cpu  the backend to blur on; auto (the default)
 *                              takes GL where a GPU that is not a software
 *                              rasterizer offers OpenGL 4.3, else the CPU
 *   CBLUR_GL_IDLE_MS=N         let the GL context's textures and pinned
 *                              host memory go after N ms unused; 60000
 *   CBLUR_GL_LET_GO=1          let the context itself go then too, with
 *                              its programs, rather than let it stay for the
 *                              next blur
 *   CBLUR_GL_DEBUG=1           log the GL driver's debug messages (GLib's
 *                              debug log, domain cblur), at a cost on
 *                              every GL call
 *
 * and, for tests, limits lower than the machine's, so that small images
 * take the code paths that large ones do, and failures on demand:
 *
 *   CBLUR_BAND_PIXELS=N        the op's bands of at most about N pixels
 *   CBLUR_WHOLE_IMAGE_PIXELS=N images up to N pixels with their halo
 *                              blurred whole for any region of them
 *   CBLUR_GL_MAX_TILE=N        GL tiles of at most N × N output pixels
 *   CBLUR_GL_TEXTURE_BUDGET=B  at most B bytes of textures for a GL tile
 *   CBLUR_GL_SHARED_MEMORY=B   at most B bytes of a GL work group's shared
 *                              memory, for the shaders' smaller variants
 *   CBLUR_GL_NO_WAIT=1         auto takes a software rasterizer for a GPU
 *                              that finishes every blur first, even on a
 *                              machine without a GPU's device node: its
 *                              programs compile on the runtime's thread,
 *                              and GL blurs fall back to the CPU until
 *                              they are linked, as on a GPU
 *   CBLUR_GL_FAULT=context|compile|alloc|dispatch|lost|slow
 *                              that point of the GL backend fails (slow:
 *                              the context takes 3 s longer to make)
 *
 * A value that is not one of these gets one warning and is ignored.
 * CBLUR_LOCALEDIR, the translations' folder, is read where the module is
 * loaded (cblur-i18n.c): it must be known before any message is
 * translated, these settings' warnings included.  CBLUR_LOG=stderr|FILE,
 * where each region's line goes besides g_debug, is read once where the
 * file it names is opened (cblur-log.c). */
#ifndef CBLUR_SETTINGS_H
#define CBLUR_SETTINGS_H

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  CBLUR_BACKEND_CHOICE_AUTO,
  CBLUR_BACKEND_CHOICE_GL,
  CBLUR_BACKEND_CHOICE_CPU
} CblurBackendChoice;

/* the failure point a test makes fail */
typedef enum
{
  CBLUR_GL_FAULT_NONE,
  CBLUR_GL_FAULT_CONTEXT,
  CBLUR_GL_FAULT_COMPILE,
  CBLUR_GL_FAULT_ALLOC,
  CBLUR_GL_FAULT_DISPATCH,
  CBLUR_GL_FAULT_LOST,
  CBLUR_GL_FAULT_SLOW
} CblurGlFault;

/* the numbers are 0 where unset: the code's own value holds there */
typedef struct
{
  CblurBackendChoice backend;
  gint64             gl_idle_ms;
  gint64             band_pixels;
  gint64             whole_image_pixels;
  gint64             gl_max_tile;
  gint64             gl_texture_budget;
  gint64             gl_shared_memory;
  CblurGlFault       gl_fault;
  gboolean           gl_debug;
  gboolean           gl_no_wait;
  gboolean           gl_let_go;
} CblurSettings;

const CblurSettings *cblur_settings        (void);

/* For tests and the benchmark, which set variables between blurs: read
 * them again; blurs that are running go on with what they read.  These
 * programs link the library and export its functions (GModule's
 * --export-dynamic), so the op's module, which GEGL loads into them, calls
 * their cblur_settings() and sees the reload too. */
void                 cblur_settings_reload (void);

/* a number setting, or `otherwise` where it is unset */
static inline gint64
cblur_setting_or (gint64 value,
                  gint64 otherwise)
{
  return value > 0 ? value : otherwise;
}

G_END_DECLS

#endif
