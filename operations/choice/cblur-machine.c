#define _GNU_SOURCE   /* sched_getaffinity, CPU_COUNT */
#include "cblur-machine.h"

#include <sched.h>
#include <string.h>

gint
cblur_machine_cores (void)
{
  cpu_set_t cores;

  if (sched_getaffinity (0, sizeof cores, &cores) == 0 && CPU_COUNT (&cores) > 0)
    return CPU_COUNT (&cores);
  return (gint) g_get_num_processors ();
}

static gboolean
shows_gpu_node (void)
{
  g_autoptr (GDir) dri = g_dir_open ("/dev/dri", 0, NULL);
  const gchar     *name;

  if (g_file_test ("/dev/nvidiactl", G_FILE_TEST_EXISTS))
    return TRUE;
  while (dri != NULL && (name = g_dir_read_name (dri)) != NULL)
    if (g_str_has_prefix (name, "renderD"))
      return TRUE;
  return FALSE;
}

/* Looked at once: every blur's choice asks, and the GPU's group in the
 * figures (cblur_machine_gpu) is named once a process too. */
gboolean
cblur_machine_has_gpu (void)
{
  static gsize shows = 0;

  if (g_once_init_enter (&shows))
    g_once_init_leave (&shows, shows_gpu_node () ? 2 : 1);
  return shows == 2;
}

/* the value after `key` on its line of text, trimmed, or NULL */
static gchar *
value_of (const gchar *text,
          const gchar *key)
{
  g_auto (GStrv) lines = g_strsplit (text != NULL ? text : "", "\n", -1);
  gint           i;

  for (i = 0; lines[i] != NULL; i++)
    {
      const gchar *at = strstr (lines[i], key);

      if (at != NULL)
        return g_strstrip (g_strdup (at + strlen (key)));
    }
  return NULL;
}

static gchar *
read_text (const gchar *path)
{
  gchar *text = NULL;

  g_file_get_contents (path, &text, NULL, NULL);
  return text;
}

/* the first word of text that reads as a version, "580.159.04" */
static gchar *
version_in (const gchar *text)
{
  g_auto (GStrv) words = g_strsplit_set (text != NULL ? text : "", " \t\n", -1);
  gint           i;

  for (i = 0; words[i] != NULL; i++)
    if (g_ascii_isdigit (words[i][0]) && strchr (words[i], '.') != NULL)
      return g_strdup (words[i]);
  return NULL;
}

/* "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04  ..." */
static gchar *
nvidia_gpu (void)
{
  g_autofree gchar *version = read_text ("/proc/driver/nvidia/version");
  g_autofree gchar *driver = version_in (version);
  g_autoptr (GDir)  gpus = g_dir_open ("/proc/driver/nvidia/gpus", 0, NULL);
  const gchar      *first = gpus != NULL ? g_dir_read_name (gpus) : NULL;
  g_autofree gchar *path = first != NULL ? g_build_filename ("/proc/driver/nvidia/gpus", first,
                                                             "information", NULL) : NULL;
  g_autofree gchar *information = path != NULL ? read_text (path) : NULL;
  g_autofree gchar *model = value_of (information, "Model:");

  if (driver == NULL && model == NULL)
    return NULL;
  return g_strdup_printf ("%s driver %s", model != NULL ? model : "NVIDIA",
                          driver != NULL ? driver : "unknown");
}

static gchar *
render_node_gpu (void)
{
  g_autoptr (GDir) dri = g_dir_open ("/dev/dri", 0, NULL);
  const gchar     *name;

  while (dri != NULL && (name = g_dir_read_name (dri)) != NULL)
    if (g_str_has_prefix (name, "renderD"))
      {
        g_autofree gchar *path = g_build_filename ("/sys/class/drm", name, "device", "uevent",
                                                   NULL);
        g_autofree gchar *uevent = read_text (path);
        g_autofree gchar *driver = value_of (uevent, "DRIVER=");
        g_autofree gchar *id = value_of (uevent, "PCI_ID=");

        return g_strdup_printf ("%s %s", driver != NULL ? driver : name,
                                id != NULL ? id : "");
      }
  return NULL;
}

const gchar *
cblur_machine_gpu (void)
{
  static const gchar *gpu;

  if (g_once_init_enter (&gpu))
    {
      gchar *told = NULL;

      if (cblur_machine_has_gpu ())
        {
          told = nvidia_gpu ();
          if (told == NULL)
            told = render_node_gpu ();
        }
      /* a key file's group name holds no brackets */
      if (told != NULL)
        g_strdelimit (g_strstrip (told), "[]\n", ' ');
      g_once_init_leave (&gpu, g_intern_string (told != NULL ? told : "none"));
      g_free (told);
    }
  return gpu;
}
