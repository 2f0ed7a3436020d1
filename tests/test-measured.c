/* The measured-figures store: figures come back as they were recorded, in
 * this process and the next; a missing, corrupt, stale or unwritable file
 * is never fatal and never stops a later save; forgotten figures leave the
 * file; and stores saving at once, in threads and in processes, never leave
 * a file that does not parse, never erase each other's figures and never
 * leave a temporary file behind. */
#include <math.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "cblur-measured.h"
#include "cblur-test.h"

#define GROUP "cpu cores=2 module=0.4.0"

/* saves of each writer, and what a writer's child may take */
#define SAVES           60
#define CHILD_TIMEOUT_US (120 * G_USEC_PER_SEC)

/* a folder of its own for a test's file, gone at its end */
typedef struct
{
  gchar *folder;
  gchar *path;   /* measured.ini in it */
} Place;

static void
place_init (Place *place)
{
  g_autoptr (GError) error = NULL;

  place->folder = g_dir_make_tmp ("cblur-measured-XXXXXX", &error);
  g_assert_no_error (error);
  place->path = g_build_filename (place->folder, "measured.ini", NULL);
}

static void
remove_tree (const gchar *path)
{
  g_autoptr (GDir) dir = g_dir_open (path, 0, NULL);
  const gchar     *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree gchar *child = g_build_filename (path, name, NULL);

      remove_tree (child);
    }
  g_remove (path);
}

static void
place_clear (Place *place)
{
  remove_tree (place->folder);
  g_free (place->folder);
  g_free (place->path);
}

static void
write_file (const gchar *path,
            const gchar *text,
            gssize       length)
{
  g_autoptr (GError) error = NULL;

  g_file_set_contents (path, text, length, &error);
  g_assert_no_error (error);
}

/* the figure of a fresh store of path, which reads the file; 0 for none */
static gdouble
read_back (const gchar *path,
           const gchar *group,
           const gchar *name)
{
  g_autoptr (CblurMeasured) measured = cblur_measured_new (path);
  gdouble                   value = 0.0;

  if (!cblur_measured_lookup (measured, group, name, &value))
    return 0.0;
  g_assert_true (isfinite (value) && value > 0.0);
  return value;
}

/* the file is a GKeyFile of this module's format */
static void
assert_parses (const gchar *path)
{
  g_autoptr (GKeyFile) file = g_key_file_new ();
  g_autoptr (GError)   error = NULL;
  g_autofree gchar    *version = NULL;

  g_key_file_load_from_file (file, path, G_KEY_FILE_NONE, &error);
  g_assert_no_error (error);
  version = g_key_file_get_value (file, "%format", "version", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (version, ==, "1");
}

/* nothing but the file in its folder: no temporary file stays */
static void
assert_alone (const Place *place)
{
  g_autoptr (GDir) dir = g_dir_open (place->folder, 0, NULL);
  const gchar     *name;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    g_assert_cmpstr (name, ==, "measured.ini");
}

/* No file: no figures; a save makes its folders, and a new store reads
 * each figure back to the last bit, whatever its group's and name's
 * characters. */
static void
test_missing (void)
{
  static const gchar *const names[][2] = {
    { GROUP, "gaussian u8 ms/mpx" },
    { "gl renderer=NVIDIA H100 80GB HBM3/PCIe/SSE2 driver=4.6.0 NVIDIA 580.159.04", "start ms" },
    { "[brackets] % =#;\t\n\xc3\xbc", " spaced = name [x] " },
    { "#leading", "#leading" },
  };
  Place                     place;
  g_autofree gchar         *deep = NULL;
  g_autoptr (CblurMeasured) measured = NULL;
  g_autoptr (GError)        error = NULL;
  gdouble                   value = 7.0;
  guint                     i;

  place_init (&place);
  deep = g_build_filename (place.folder, "a", "b", "measured.ini", NULL);
  measured = cblur_measured_new (deep);
  g_assert_false (cblur_measured_lookup (measured, GROUP, "gaussian u8 ms/mpx", &value));
  g_assert_cmpfloat (value, ==, 7.0);
  for (i = 0; i < G_N_ELEMENTS (names); i++)
    cblur_measured_record (measured, names[i][0], names[i][1], (i + 1) / 3.0);
  g_assert_true (cblur_measured_save (measured, &error));
  g_assert_no_error (error);
  assert_parses (deep);
  for (i = 0; i < G_N_ELEMENTS (names); i++)
    g_assert_cmpfloat (read_back (deep, names[i][0], names[i][1]), ==, (i + 1) / 3.0);
  g_assert_cmpfloat (read_back (deep, GROUP, "gaussian u8"), ==, 0.0);
  place_clear (&place);
}

typedef struct
{
  const gchar *name;
  const gchar *text;
  gsize        length;
  gdouble      a;        /* what "[g] a" reads as, 0 for none */
  gdouble      b;
} Corrupt;

/* a file's text and its length, NUL bytes and all */
#define FILE_TEXT(text) text, sizeof (text) - 1
#define HEADER          "[%format]\nversion=1\n"

static const Corrupt corrupt_files[] = {
  { "garbage line",
    FILE_TEXT (HEADER "[g]\na=1.5\n\xff\xfe\x01garbage=\x80\x00zz\n\xff=\x80\nb=2.5\n"), 1.5, 2.5 },
  { "garbage group", FILE_TEXT (HEADER "[g]\na=1.5\n[unclosed\nb=2.5\n[g]\nb=3.5\n"), 1.5, 3.5 },
  { "cut mid-line", FILE_TEXT (HEADER "[g]\na=1.5\nb=2.2"), 1.5, 0.0 },
  { "cut mid-header", FILE_TEXT ("[%format]\nvers"), 0.0, 0.0 },
  { "nan", FILE_TEXT (HEADER "[g]\na=nan\nb=2.5\n"), 0.0, 2.5 },
  { "negative", FILE_TEXT (HEADER "[g]\na=-1.5\nb=0\n"), 0.0, 0.0 },
  { "inf", FILE_TEXT (HEADER "[g]\na=inf\nb=1e999\n"), 0.0, 0.0 },
  { "not a number", FILE_TEXT (HEADER "[g]\na=1.5ms\nb=\n"), 0.0, 0.0 },
  { "bad escape", FILE_TEXT (HEADER "[g]\na=1.5\n%zz=2.5\n[g%]\nb=2.5\n"), 1.5, 0.0 },
  { "spaces", FILE_TEXT (HEADER "[g]\n  a = 1.5  \r\nb=2.5\n"), 1.5, 2.5 },
  { "other version", FILE_TEXT ("[%format]\nversion=2\n[g]\na=1.5\nb=2.5\n"), 0.0, 0.0 },
  { "no version", FILE_TEXT ("[g]\na=1.5\nb=2.5\n"), 0.0, 0.0 },
};

/* A corrupt file reads as the figures it validly holds, and a save over it
 * leaves a file that parses, with those figures and the new one. */
static void
test_corrupt (gconstpointer data)
{
  const Corrupt            *corrupt = data;
  Place                     place;
  g_autoptr (CblurMeasured) measured = NULL;
  g_autoptr (GError)        error = NULL;

  place_init (&place);
  write_file (place.path, corrupt->text, corrupt->length);
  g_assert_cmpfloat (read_back (place.path, "g", "a"), ==, corrupt->a);
  g_assert_cmpfloat (read_back (place.path, "g", "b"), ==, corrupt->b);

  measured = cblur_measured_new (place.path);
  cblur_measured_record (measured, "g", "c", 4.5);
  g_assert_true (cblur_measured_save (measured, &error));
  g_assert_no_error (error);
  assert_parses (place.path);
  g_assert_cmpfloat (read_back (place.path, "g", "a"), ==, corrupt->a);
  g_assert_cmpfloat (read_back (place.path, "g", "b"), ==, corrupt->b);
  g_assert_cmpfloat (read_back (place.path, "g", "c"), ==, 4.5);
  place_clear (&place);
}

/* Random bytes read as nothing, without a fault. */
static void
test_random_bytes (void)
{
  Place             place;
  g_autofree gchar *bytes = g_malloc (65536);
  g_autoptr (GRand) rand = g_rand_new_with_seed (44);
  gint              i, round;

  place_init (&place);
  for (round = 0; round < 20; round++)
    {
      for (i = 0; i < 65536; i++)
        bytes[i] = g_rand_int_range (rand, 0, round % 2 ? 128 : 256);
      write_file (place.path, bytes, 65536);
      g_assert_cmpfloat (read_back (place.path, "g", "a"), ==, 0.0);
    }
  place_clear (&place);
}

/* Where the file's folder cannot be made (its parent is a regular file,
 * which stops root as well), a save fails with an error, the figures stay
 * in memory, and a save after the place is mended writes them. */
static void
test_unwritable (void)
{
  Place                     place;
  g_autofree gchar         *blocker = NULL;
  g_autofree gchar         *path = NULL;
  g_autoptr (CblurMeasured) measured = NULL;
  g_autoptr (GError)        error = NULL;
  gdouble                   value = 0.0;

  place_init (&place);
  blocker = g_build_filename (place.folder, "file", NULL);
  path = g_build_filename (blocker, "measured.ini", NULL);
  write_file (blocker, "", 0);
  measured = cblur_measured_new (path);
  cblur_measured_record (measured, GROUP, "x", 2.5);
  cblur_measured_record (measured, GROUP, "y", 3.5);
  g_assert_false (cblur_measured_save (measured, &error));
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_NOTDIR);
  g_assert_true (strstr (error->message, path) != NULL);
  g_clear_error (&error);
  g_assert_true (cblur_measured_lookup (measured, GROUP, "x", &value));
  g_assert_cmpfloat (value, ==, 2.5);
  cblur_measured_forget (measured, GROUP, "y");
  g_assert_false (cblur_measured_save (measured, &error));
  g_clear_error (&error);

  g_assert_cmpint (g_remove (blocker), ==, 0);
  g_assert_true (cblur_measured_save (measured, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (read_back (path, GROUP, "x"), ==, 2.5);
  g_assert_cmpfloat (read_back (path, GROUP, "y"), ==, 0.0);
  place_clear (&place);
}

/* Where the file's place is a folder, it reads as no figures, and a save
 * fails at the rename, with an error, and takes its temporary file away. */
static void
test_folder_in_place (void)
{
  Place                     place;
  g_autoptr (CblurMeasured) measured = NULL;
  g_autoptr (GError)        error = NULL;
  gdouble                   value = 0.0;

  place_init (&place);
  g_assert_cmpint (g_mkdir (place.path, 0700), ==, 0);
  measured = cblur_measured_new (place.path);
  g_assert_false (cblur_measured_lookup (measured, GROUP, "x", &value));
  cblur_measured_record (measured, GROUP, "x", 2.5);
  g_assert_false (cblur_measured_save (measured, &error));
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_ISDIR);
  g_assert_true (cblur_measured_lookup (measured, GROUP, "x", &value));
  g_assert_cmpfloat (value, ==, 2.5);
  assert_alone (&place);
  place_clear (&place);
}

/* A group of another module version is not this version's. */
static void
test_stale_group (void)
{
  Place                     place;
  g_autoptr (CblurMeasured) old = NULL;

  place_init (&place);
  old = cblur_measured_new (place.path);
  cblur_measured_record (old, "cpu cores=2 module=0.3.9", "x", 2.5);
  g_assert_true (cblur_measured_save (old, NULL));
  g_assert_cmpfloat (read_back (place.path, "cpu cores=2 module=0.3.9", "x"), ==, 2.5);
  g_assert_cmpfloat (read_back (place.path, GROUP, "x"), ==, 0.0);
  place_clear (&place);
}

/* A forget takes a figure from memory at once and from the file at the
 * next save, another store's file too; a record after it brings it back. */
static void
test_forget (void)
{
  Place                     place;
  g_autoptr (CblurMeasured) first = NULL;
  g_autoptr (CblurMeasured) second = NULL;
  gdouble                   value = 0.0;

  place_init (&place);
  first = cblur_measured_new (place.path);
  cblur_measured_record (first, GROUP, "x", 2.5);
  cblur_measured_record (first, GROUP, "y", 3.5);
  cblur_measured_record (first, "other", "z", 4.5);
  g_assert_true (cblur_measured_save (first, NULL));

  second = cblur_measured_new (place.path);
  cblur_measured_forget (second, GROUP, "x");
  cblur_measured_forget (second, "other", "z");
  g_assert_false (cblur_measured_lookup (second, GROUP, "x", &value));
  g_assert_cmpfloat (read_back (place.path, GROUP, "x"), ==, 2.5);
  g_assert_true (cblur_measured_save (second, NULL));
  g_assert_cmpfloat (read_back (place.path, GROUP, "x"), ==, 0.0);
  g_assert_cmpfloat (read_back (place.path, "other", "z"), ==, 0.0);
  g_assert_cmpfloat (read_back (place.path, GROUP, "y"), ==, 3.5);

  /* the first store's next save neither brings x back nor keeps z away */
  cblur_measured_record (first, "other", "z", 5.5);
  g_assert_true (cblur_measured_save (first, NULL));
  g_assert_false (cblur_measured_lookup (first, GROUP, "x", &value));
  g_assert_cmpfloat (read_back (place.path, GROUP, "x"), ==, 0.0);
  g_assert_cmpfloat (read_back (place.path, "other", "z"), ==, 5.5);

  cblur_measured_forget (second, GROUP, "y");
  cblur_measured_record (second, GROUP, "y", 6.5);
  g_assert_true (cblur_measured_save (second, NULL));
  g_assert_cmpfloat (read_back (place.path, GROUP, "y"), ==, 6.5);
  assert_alone (&place);
  place_clear (&place);
}

/* SAVES saves of a store of path, the k-th with its figure at k */
static gboolean
write_in_turn (const gchar *path,
               const gchar *writer)
{
  g_autoptr (CblurMeasured) measured = cblur_measured_new (path);
  gint                      k;

  for (k = 1; k <= SAVES; k++)
    {
      cblur_measured_record (measured, writer, "k", k);
      if (!cblur_measured_save (measured, NULL))
        return FALSE;
    }
  return TRUE;
}

/* While the writers run: the file, once there, always parses, and a
 * writer's figure never goes back (no save erases another's). */
static void
read_while (const gchar *path,
            gboolean   (*writing) (gpointer data),
            gpointer     data)
{
  gdouble last[2] = { 0.0, 0.0 };
  gint    i;

  while (writing (data))
    {
      if (g_file_test (path, G_FILE_TEST_EXISTS))
        {
          assert_parses (path);
          for (i = 0; i < 2; i++)
            {
              g_autofree gchar *writer = g_strdup_printf ("writer %d", i);
              gdouble           k = read_back (path, writer, "k");

              g_assert_cmpfloat (k, >=, last[i]);
              last[i] = k;
            }
        }
      g_usleep (1000);
    }
}

typedef struct
{
  const gchar *path;
  gint         index;
  gint         done;   /* atomic: the writers finished */
  gboolean     right;
} Writer;

static gpointer
writer_thread (gpointer data)
{
  Writer           *writer = data;
  g_autofree gchar *name = g_strdup_printf ("writer %d", writer->index);

  writer->right = write_in_turn (writer->path, name);
  g_atomic_int_set (&writer->done, 1);
  return NULL;
}

static gboolean
threads_writing (gpointer data)
{
  Writer *writers = data;

  return !g_atomic_int_get (&writers[0].done) || !g_atomic_int_get (&writers[1].done);
}

/* the last figures of both writers, and no temporary file */
static void
assert_both_last (const Place *place)
{
  g_assert_cmpfloat (read_back (place->path, "writer 0", "k"), ==, SAVES);
  g_assert_cmpfloat (read_back (place->path, "writer 1", "k"), ==, SAVES);
  assert_parses (place->path);
  assert_alone (place);
}

/* Two stores in two threads save in turns while a third reads. */
static void
test_concurrent_threads (void)
{
  Place    place;
  Writer   writers[2];
  GThread *threads[2];
  gint     i;

  place_init (&place);
  for (i = 0; i < 2; i++)
    {
      writers[i] = (Writer) { place.path, i, 0, FALSE };
      threads[i] = g_thread_new ("writer", writer_thread, &writers[i]);
    }
  read_while (place.path, threads_writing, writers);
  for (i = 0; i < 2; i++)
    {
      g_thread_join (threads[i]);
      g_assert_true (writers[i].right);
    }
  assert_both_last (&place);
  place_clear (&place);
}

typedef struct
{
  GPid     children[2];
  gint     status[2];
  gboolean finished[2];
  gint64   until;   /* then a child that still runs is killed */
} Children;

static gboolean
children_writing (gpointer data)
{
  Children *children = data;
  gint      i;

  for (i = 0; i < 2; i++)
    {
      if (!children->finished[i] && g_get_monotonic_time () > children->until)
        kill (children->children[i], SIGKILL);
      if (!children->finished[i])
        children->finished[i] = waitpid (children->children[i], &children->status[i],
                                         WNOHANG) == children->children[i];
    }
  return !children->finished[0] || !children->finished[1];
}

/* Two processes save in turns while this one reads. */
static void
test_concurrent_processes (void)
{
  Place    place;
  Children children = { .until = g_get_monotonic_time () + CHILD_TIMEOUT_US };
  gint     i;

  place_init (&place);
  for (i = 0; i < 2; i++)
    {
      children.children[i] = fork ();
      if (children.children[i] == 0)
        {
          g_autofree gchar *name = g_strdup_printf ("writer %d", i);

          _exit (write_in_turn (place.path, name) ? 0 : 3);
        }
    }
  read_while (place.path, children_writing, &children);
  for (i = 0; i < 2; i++)
    {
      g_assert_true (WIFEXITED (children.status[i]));
      g_assert_cmpint (WEXITSTATUS (children.status[i]), ==, 0);
    }
  assert_both_last (&place);
  place_clear (&place);
}

gint
main (gint    argc,
      gchar **argv)
{
  guint i;

  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/measured/missing", test_missing);
  for (i = 0; i < G_N_ELEMENTS (corrupt_files); i++)
    {
      g_autofree gchar *name = g_strdup_printf ("/measured/corrupt/%s", corrupt_files[i].name);

      g_test_add_data_func (name, &corrupt_files[i], test_corrupt);
    }
  g_test_add_func ("/measured/random-bytes", test_random_bytes);
  g_test_add_func ("/measured/unwritable", test_unwritable);
  g_test_add_func ("/measured/folder-in-place", test_folder_in_place);
  g_test_add_func ("/measured/stale-group", test_stale_group);
  g_test_add_func ("/measured/forget", test_forget);
  g_test_add_func ("/measured/concurrent/threads", test_concurrent_threads);
  g_test_add_func ("/measured/concurrent/processes", test_concurrent_processes);
  return g_test_run ();
}
